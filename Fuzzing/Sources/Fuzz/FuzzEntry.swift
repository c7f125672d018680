#if canImport(Glibc)
import Glibc
#endif
import Queue

/// libFuzzer's two entry points. One binary holds every target (one sanitizer build, one link); the environment
/// variable FUZZ_TARGET names the one this process runs (Fuzzing/fuzz.sh sets it; `FUZZ_TARGET=list` prints them).
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    guard let raw = getenv("FUZZ_TARGET") else {
        writeToStandardError("fuzz: set FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " "))\n")
        exit(2)
    }
    let name = String(cString: raw)
    guard let target = FuzzTarget(rawValue: name) else {
        if name == "seeds", let root = getenv("FUZZ_SEEDS") {
            SeedWriter.write(to: String(cString: root))
            exit(0)
        }
        if name == "list" {
            print(FuzzTarget.allCases.map(\.rawValue).joined(separator: "\n"))
            exit(0)
        }
        writeToStandardError("fuzz: no target '\(name)'; targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " "))\n")
        exit(2)
    }
    selected = target
    FuzzScratch.prepare()
    preloadFFmpeg()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected?.run(bytes)
    return 0
}

/// FFmpeg (about 60 libraries, dlopen'ed once per process on the first AAC or ALAC file) is loaded before the
/// first input: on a loaded machine that load alone took over libFuzzer's 10 s per-input timeout (a false hang).
private func preloadFFmpeg() {
    // An ADTS header (ISO/IEC 13818-7: sync 0xFFF, AAC LC, 44.1 kHz, 2 channels) and nothing after it.
    let path = FuzzScratch.file(named: "preload.aac", holding: [0xFF, 0xF1, 0x50, 0x80, 0x01, 0xFF, 0xFC])
    _ = try? AudioFile.open(path: path, typeHint: .adts)
    FuzzScratch.remove("preload.aac")
}
