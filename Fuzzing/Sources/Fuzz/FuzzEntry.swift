#if canImport(Glibc)
import Glibc
#endif

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
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected?.run(bytes)
    return 0
}
