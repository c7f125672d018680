#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A minimal RIFF/WAVE writer for what a simulated device played: one `fmt ` and one `data` chunk,
/// written to a temporary file beside the target and renamed over it, so a reader never sees half a file.
/// S24_LE samples (24 bits in the low bits) are stored as 32-bit PCM shifted up by 8, keeping their scale.
enum WAVRecording {
    /// The whole file's bytes.
    static func bytes(of frames: [UInt8], format: PCMSampleFormat, rate: Int, channels: Int) -> [UInt8] {
        var data = frames
        if format == .s24LE {
            for offset in stride(from: 0, to: data.count - 3, by: 4) {
                data[offset + 3] = data[offset + 2]
                data[offset + 2] = data[offset + 1]
                data[offset + 1] = data[offset]
                data[offset] = 0
            }
        }
        let bytesPerSample = format.bytesPerSample
        var file: [UInt8] = []
        file.reserveCapacity(44 + data.count)
        func append32(_ value: Int) { for shift in stride(from: 0, to: 32, by: 8) { file.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        func append16(_ value: Int) { file.append(UInt8(truncatingIfNeeded: value)); file.append(UInt8(truncatingIfNeeded: value >> 8)) }
        file += Array("RIFF".utf8)
        append32(36 + data.count)
        file += Array("WAVEfmt ".utf8)
        append32(16)
        append16(format == .float32LE ? 3 : 1)           // WAVE_FORMAT_IEEE_FLOAT or WAVE_FORMAT_PCM
        append16(channels)
        append32(rate)
        append32(rate * channels * bytesPerSample)
        append16(channels * bytesPerSample)
        append16(bytesPerSample * 8)
        file += Array("data".utf8)
        append32(data.count)
        file += data
        return file
    }

    /// Stores the file atomically at `path`.
    static func store(_ bytes: [UInt8], at path: String) throws(PCMError) {
        let temporary = path + ".partial"
        func failure(_ operation: String) -> PCMError {
            .io(name: path, operation: operation, errno: .current, detail: "")
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("create the recording") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let error = failure("write the recording")
                close(fd)
                unlink(temporary)
                throw error
            }
            written += result
        }
        let synced = fsync(fd) == 0
        let closed = close(fd) == 0
        guard synced, closed else { unlink(temporary); throw failure("flush the recording") }
        guard rename(temporary, path) == 0 else { unlink(temporary); throw failure("rename the recording") }
    }
}
