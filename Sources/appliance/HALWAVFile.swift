import Glibc
import HAL

/// The plain PCM WAV files the `hal pcm` commands play, record and compare: one `fmt ` chunk, one `data`
/// chunk, integer samples (16 or 32 bits) or 32-bit float, interleaved.
struct HALWAVFile {
    var format: PCMSampleFormat
    var rate: Int
    var channels: Int
    /// The `data` chunk: interleaved frames in `format`.
    var samples: [UInt8]

    var frameBytes: Int { format.bytesPerSample * channels }
    var frames: Int { samples.count / max(frameBytes, 1) }

    /// Reads `path`; says what is wrong with a file that is not such a WAV.
    static func read(_ path: String) throws -> HALWAVFile {
        let bytes = try readFile(path)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw HALCommandError("\(path) is not a RIFF/WAVE file") }
        var offset = 12
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        while offset + 8 <= bytes.count {
            let size = u32(offset + 4)
            let body = offset + 8
            if tag(offset) == "fmt ", body + 16 <= bytes.count {
                format = (u16(body), u16(body + 2), u32(body + 4), u16(body + 14))
            } else if tag(offset) == "data", let format {
                let end = min(bytes.count, body + size)
                let sampleFormat: PCMSampleFormat
                switch (format.tag, format.bits) {
                case (1, 16): sampleFormat = .s16LE
                case (1, 32): sampleFormat = .s32LE
                case (3, 32): sampleFormat = .float32LE
                default: throw HALCommandError("\(path): only 16/32-bit PCM and 32-bit float WAVs (tag \(format.tag), \(format.bits) bits)")
                }
                return HALWAVFile(format: sampleFormat, rate: format.rate, channels: format.channels,
                                  samples: Array(bytes[body..<end]))
            }
            offset = body + size + (size & 1)
        }
        throw HALCommandError("\(path) has no fmt and data chunks")
    }

    /// Writes the file (header and data).
    func write(to path: String) throws {
        var file: [UInt8] = []
        func append32(_ value: Int) { for shift in stride(from: 0, to: 32, by: 8) { file.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        func append16(_ value: Int) { file.append(UInt8(truncatingIfNeeded: value)); file.append(UInt8(truncatingIfNeeded: value >> 8)) }
        file += Array("RIFF".utf8); append32(36 + samples.count); file += Array("WAVEfmt ".utf8)
        append32(16); append16(format == .float32LE ? 3 : 1); append16(channels); append32(rate)
        append32(rate * frameBytes); append16(frameBytes); append16(format.bytesPerSample * 8)
        file += Array("data".utf8); append32(samples.count); file += samples
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw HALCommandError("cannot create \(path): \(Errno.current)") }
        defer { close(fd) }
        var written = 0
        while written < file.count {
            let result = file.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw HALCommandError("cannot write \(path): \(Errno.current)") }
            written += result
        }
    }

    private static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HALCommandError("cannot open \(path): \(Errno.current)") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw HALCommandError("cannot read \(path): \(Errno.current)") }
            if got == 0 { return bytes }
            bytes += chunk[0..<got]
        }
    }
}
