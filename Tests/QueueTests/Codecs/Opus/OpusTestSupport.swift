import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Reference Ogg Opus files made at test time: sox makes the signal, opus-tools' `opusenc` encodes it.
enum OpusFixture {
    /// A sine (`frequency` Hz, amplitude 0.5, per channel a different frequency) of `seconds` at `rate`, as
    /// 16-bit WAV, encoded by opusenc with `options` (e.g. ["--bitrate", "64"]).
    static func make(_ directory: TemporaryDirectory, name: String = "s", seconds: Double = 1, channels: Int = 2,
                     rate: Int = 44100, frequency: Int = 440, options: [String] = []) throws -> String {
        let wav = directory.file(name + ".wav")
        var synth = ["-n", "-r", String(rate), "-c", String(channels), "-b", "16", wav, "synth", String(seconds)]
        for c in 0..<channels { synth += ["sine", String(frequency + 220 * c)] }
        try ReferenceTool.run("sox", synth + ["vol", "0.5"])
        let opus = directory.file(name + ".opus")
        try ReferenceTool.run("opusenc", ["--quiet"] + options + [wav, opus])
        return opus
    }

    /// opusdec's decoding (libopusfile, float, at 48 kHz: no resampling back to the input rate), interleaved.
    static func opusdec(_ path: String) throws -> [Float] {
        let data = try ReferenceTool.run("opusdec", ["--quiet", "--float", "--rate", "48000", path, "-"])
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        }
    }

    static func open(_ path: String) throws -> OpusFileReader {
        try OpusFileReader(LibraryInput(FileDescriptor.open(path, writable: false)))
    }

    /// Every frame the reader gives, in buffers of `chunk` frames; the error that ended reading, if any.
    static func decode(_ reader: OpusFileReader, chunk: Int = 1000) -> (samples: [Fixed824], error: AudioFileError?) {
        let channels = reader.info.format.channelsPerFrame
        var result: [Fixed824] = []
        var buffer = [Fixed824](repeating: .zero, count: chunk * channels)
        while true {
            do {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
                if n == 0 { return (result, nil) }
                result += buffer[0..<(n * channels)]
            } catch {
                return (result, error as? AudioFileError)
            }
        }
    }

    /// `packets` decoded one by one by `decoder` (made from the stream's format and cookie), concatenated.
    static func decode(_ packets: [[UInt8]], format: StreamFormat, cookie: [UInt8]) throws -> [Fixed824] {
        let decoder = try AudioPacketDecoder(format: format, magicCookie: cookie)
        let channels = format.channelsPerFrame
        var decoded: [Fixed824] = []
        var buffer = [Fixed824](repeating: .zero, count: decoder.maximumFramesPerPacket * channels)
        for packet in packets {
            let n = try packet.withUnsafeBytes { raw in try buffer.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
            decoded += buffer[0..<(channels * n)]
        }
        return decoded
    }

    /// The `AudioFileError` `body` throws; records an issue when it throws nothing or something else.
    /// (Swift Testing's `#expect(throws:)` returns the error only from Swift 6.1; the arm build is 6.0.3.)
    static func thrown(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> AudioFileError? {
        do {
            try body()
            Issue.record("expected an AudioFileError, nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as AudioFileError {
            return error
        } catch {
            Issue.record("expected an AudioFileError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// Largest |a - b| in 8.24 units, over the common length.
    static func maxDifference(_ a: [Fixed824], _ b: [Float]) -> Int64 {
        var worst: Int64 = 0
        for i in 0..<min(a.count, b.count) { worst = max(worst, abs(Int64(a[i].raw) - Int64(Fixed824(b[i]).raw))) }
        return worst
    }

    static func maxDifference(_ a: ArraySlice<Fixed824>, _ b: ArraySlice<Fixed824>) -> Int64 {
        zip(a, b).reduce(0) { max($0, abs(Int64($1.0.raw) - Int64($1.1.raw))) }
    }
}
