import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// FLAC files written by the `flac` tool decode bit for bit as `flac -d` decodes them.
struct FLACFileReaderTests {
    /// (rate, channels, bits, compression level, Ogg FLAC)
    static let cases: [(Int, Int, Int, Int, Bool)] = [
        (44100, 2, 16, 5, false), (48000, 1, 24, 8, false), (96000, 2, 24, 0, false), (44100, 1, 16, 3, false),
        (48000, 2, 16, 5, true), (44100, 1, 24, 8, true), (44100, 1, 8, 5, false),
    ]

    @Test("decodes bit-identical to flac -d, with STREAMINFO's exact length", arguments: 0..<cases.count)
    func decodesBitExact(index: Int) throws {
        let (rate, channels, bits, level, ogg) = Self.cases[index]
        let fixture = try FLACFixture(rate: rate, channels: channels, bits: bits, seconds: 0.7, level: level, ogg: ogg)
        let reader = try fixture.open()
        let info = reader.info
        #expect(info.format.formatID == .flac)
        #expect(info.format.sampleRate == Double(rate))
        #expect(info.format.channelsPerFrame == channels)
        #expect(info.format.bitsPerChannel == bits)
        #expect(info.fileType == (ogg ? .ogg : .flac))
        // The length flac -d decoded (and, for native FLAC, metaflac's STREAMINFO total).
        #expect(info.frameCount == Int64(fixture.reference.count / channels))
        if !ogg { #expect(info.frameCount == (try metaflacTotalSamples(fixture.path))) }
        #expect(info.encoder?.contains("libFLAC") == true, "vendor string: \(info.encoder ?? "nil")")
        #expect((info.bitRate ?? 0) > 0)
        let (ours, error) = decodeFLAC(reader)
        #expect(error == nil, "\(error?.description ?? "")")
        #expect(ours.count == fixture.reference.count)
        #expect(ReferenceTool.firstDifference(ours, fixture.reference) == nil)
    }

    @Test("seeks to odd frames exactly", arguments: [false, true])
    func seeksExactly(ogg: Bool) throws {
        let fixture = try FLACFixture(rate: 44100, channels: 2, bits: 16, seconds: 1.5, ogg: ogg)
        let reader = try fixture.open()
        let total = reader.info.frameCount
        var buffer = [Fixed824](repeating: .zero, count: 333 * 2)
        for target in [Int64(4097), 1, 40_001, 4095, 12_289, total - 5, 0, 66_000] {
            try reader.seek(toFrame: target)
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            let expected = Array(fixture.reference[Int(target * 2)..<min(fixture.reference.count, Int(target * 2) + 666)])
            #expect(n * 2 == expected.count, "at \(target)")
            #expect(ReferenceTool.firstDifference(buffer[0..<(n * 2)].map(\.int32), expected) == nil, "at \(target)")
        }
        try reader.seek(toFrame: total)
        #expect(try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) } == 0)
        #expect(throws: AudioFileError.self) { try reader.seek(toFrame: total + 1) }
    }

    @Test("tags set by metaflac, ReplayGain included, are read back")
    func readsTags() throws {
        let fixture = try FLACFixture(seconds: 0.3)
        // The values are the test's own input; REPLAYGAIN_* in the ReplayGain 2.0 text form ("-6.20 dB").
        try ReferenceTool.run("metaflac", ["--set-tag=TITLE=Ünïcode title", "--set-tag=ARTIST=The Artist", "--set-tag=ALBUM=An Album",
                                           "--set-tag=TRACKNUMBER=3", "--set-tag=TRACKTOTAL=12", "--set-tag=DATE=2024-05-01",
                                           "--set-tag=REPLAYGAIN_TRACK_GAIN=-6.20 dB", "--set-tag=REPLAYGAIN_TRACK_PEAK=0.988525",
                                           "--set-tag=REPLAYGAIN_ALBUM_GAIN=+1.50 dB", "--set-tag=REPLAYGAIN_ALBUM_PEAK=1.000000", fixture.path])
        let metadata = try fixture.open().info.metadata
        #expect(metadata.title == "Ünïcode title")
        #expect(metadata.artist == "The Artist")
        #expect(metadata.album == "An Album")
        #expect(metadata.trackNumber == 3)
        #expect(metadata.trackTotal == 12)
        #expect(metadata.date == "2024-05-01")
        #expect(metadata.replayGain.trackGain == -6.2)
        #expect(metadata.replayGain.trackPeak == 0.988525)
        #expect(metadata.replayGain.albumGain == 1.5)
        #expect(metadata.replayGain.albumPeak == 1.0)
    }

    @Test("a STREAMINFO total of 0 (unknown) is counted by decoding at open")
    func countsUnknownLength() throws {
        let fixture = try FLACFixture(seconds: 0.8)
        // RFC 9639 section 8.2: total samples is the 36 bits after sample rate, channels and depth (bytes 21...25
        // of the file: "fLaC", the 4-byte block header, then 13 bytes in); 0 means unknown.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        bytes[21] &= 0xF0
        for i in 22...25 { bytes[i] = 0 }
        try bytes.write(to: URL(fileURLWithPath: fixture.path))
        let reader = try fixture.open()
        #expect(reader.info.frameCount == Int64(fixture.reference.count / 2))
        try reader.seek(toFrame: 9999)
        var buffer = [Fixed824](repeating: .zero, count: 200)
        let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
        #expect(n == 100)
        #expect(ReferenceTool.firstDifference(buffer.map(\.int32), Array(fixture.reference[19998..<20198])) == nil)
    }
}
