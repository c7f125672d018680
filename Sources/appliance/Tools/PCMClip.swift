import HAL
import Queue

/// A whole WAV file as the `hal pcm` commands play, record and compare it: interleaved frames in an ALSA
/// sample format (16- or 32-bit integer, or 32-bit float). Read and written through `AudioFile`.
struct PCMClip {
    var format: PCMSampleFormat
    var rate: Int
    var channels: Int
    /// Interleaved frames in `format`.
    var samples: [UInt8]

    var frameBytes: Int { format.bytesPerSample * channels }
    var frames: Int { samples.count / max(frameBytes, 1) }

    /// Reads `path`; says what is wrong with a file whose samples ALSA cannot take as they are.
    static func read(_ path: String) throws -> PCMClip {
        let file = try AudioFile.open(path: path)
        let data = file.dataFormat
        guard let format = pcmFormat(of: data) else {
            throw HALCommandError("\(path): only 16/32-bit integer or 32-bit float little-endian PCM, not \(data)")
        }
        var samples = [UInt8](repeating: 0, count: Int(file.audioDataByteCount))
        let packets = try samples.withUnsafeMutableBytes { bytes in
            try file.readPackets(start: 0, count: Int(file.packetCount), into: bytes)
        }
        samples.removeLast(samples.count - packets * data.bytesPerPacket)
        return PCMClip(format: format, rate: Int(data.sampleRate), channels: data.channelsPerFrame, samples: samples)
    }

    /// Writes the clip as a WAV file (complete, or not at all).
    func write(to path: String) throws {
        let data = StreamFormat.linearPCM(sampleRate: Double(rate), channels: channels, bits: format.bytesPerSample * 8,
                                          isFloat: format == .float32LE)
        let file = try AudioFile.create(path: path, type: .wave, format: data)
        try samples.withUnsafeBytes { try file.writePackets($0, packetCount: frames) }
        try file.close()
    }

    private static func pcmFormat(of data: StreamFormat) -> PCMSampleFormat? {
        guard data.isLinearPCM, !data.isBigEndian else { return nil }
        switch (data.isFloat, data.bitsPerChannel, data.bytesPerPacket / max(data.channelsPerFrame, 1)) {
        case (false, 16, 2): return .s16LE
        case (false, 32, 4): return .s32LE
        case (true, 32, 4): return .float32LE
        default: return nil
        }
    }
}
