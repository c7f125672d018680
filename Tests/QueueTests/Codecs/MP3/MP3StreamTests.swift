import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// MP3 pushed through `MP3StreamParser` in any chunking, and its packets decoded by `MP3PacketDecoder`.
@Suite struct MP3StreamTests {
    /// What a parse reported: the properties in order, and each packet's bytes.
    final class Collected {
        var properties: [AudioFileStreamProperty] = []
        var packets: [[UInt8]] = []
    }

    static func parse(_ bytes: [UInt8], chunks: [Int]) throws -> Collected {
        let collected = Collected()
        let parser = MP3StreamParser()
        var offset = 0, i = 0
        while offset < bytes.count {
            let n = min(chunks[i % chunks.count], bytes.count - offset)
            try bytes[offset..<(offset + n)].withUnsafeBytes { chunk in
                try parser.parse(chunk, onProperty: { collected.properties.append($0) }, onPackets: { data, descriptions in
                    for d in descriptions { collected.packets.append(Array(data[d.startOffset..<(d.startOffset + d.dataByteSize)])) }
                })
            }
            offset += n
            i += 1
        }
        return collected
    }

    static func vbrWithTags(_ directory: TemporaryDirectory, frames: Int = 44100) throws -> String {
        try MP3Fixtures.lameSine(directory, frames: frames, frequency: 660, ["-V2", "--tt", "Streamed", "--ta", "Somebody", "--tn", "7",
                                                                           "--tv", "TXXX=REPLAYGAIN_TRACK_GAIN=+1.50 dB"])
    }

    @Test func oneByteAtATimeGivesFFprobesPackets() throws {
        let directory = TemporaryDirectory()
        let mp3 = try Self.vbrWithTags(directory)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp3)))
        let collected = try Self.parse(bytes, chunks: [1])
        // ffprobe's packets: one per frame, the LAME tag's frame excluded.
        let sizes = try MP3Fixtures.ffprobePacketSizes(mp3)
        #expect(collected.packets.count == sizes.count)
        #expect(ReferenceTool.firstDifference(collected.packets.map(\.count), sizes) == nil)
        // The properties, in order, before the first packet.
        let format = StreamFormat.compressed(.mpegLayer3, sampleRate: 44100, channels: 2, framesPerPacket: 1152)
        #expect(collected.properties.first == .fileFormat(.mp3))
        #expect(collected.properties.contains(.dataFormat(format)))
        #expect(collected.properties.last == .readyToProducePackets)
        // The LAME tag's counts (the Mp3 Info Tag spec: frames without the tag's own, bytes with it).
        #expect(collected.properties.contains(.audioDataPacketCount(Int64(sizes.count))))
        #expect(collected.properties.contains(.audioDataByteCount(Int64(sizes.reduce(0, +)))))
        let metadata = collected.properties.compactMap { if case .metadata(let m) = $0 { m } else { nil } }.first
        #expect(metadata?.title == "Streamed")
        #expect(metadata?.artist == "Somebody")
        #expect(metadata?.trackNumber == 7)
        #expect(metadata?.replayGain.trackGain == 1.5)

        // Any other chunking gives the same packets.
        let chunked = try Self.parse(bytes, chunks: [1000, 7, 333, 4096, 2])
        #expect(chunked.packets.count == collected.packets.count)
        #expect(ReferenceTool.firstDifference(chunked.packets, collected.packets) == nil)
    }

    /// ID3v2.4 with UTF-8 text, as FFmpeg writes it (lame writes 2.3 with UTF-16): the stream parser's
    /// reading and libmpg123's (the file reader) agree with what was written.
    @Test func id3v24TagsAsFFmpegWritesThem() throws {
        let directory = TemporaryDirectory()
        let source = try Self.vbrWithTags(directory)
        let mp3 = directory.file("retagged.mp3")
        try ReferenceTool.run("ffmpeg", ["-v", "error", "-i", source, "-c", "copy", "-map_metadata", "-1", "-id3v2_version", "4",
                                         "-metadata", "title=Zürich", "-metadata", "album=Ünder", "-metadata", "track=2/9",
                                         "-metadata", "REPLAYGAIN_ALBUM_GAIN=-3.25 dB", mp3])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp3)))
        let streamed = try Self.parse(bytes, chunks: [3])
            .properties.compactMap { if case .metadata(let m) = $0 { m } else { nil } }.first
        let file = try MP3Fixtures.open(mp3).info.metadata
        for metadata in [streamed, file] {
            #expect(metadata?.title == "Zürich")
            #expect(metadata?.album == "Ünder")
            #expect(metadata?.trackNumber == 2 && metadata?.trackTotal == 9)
            #expect(metadata?.replayGain.albumGain == -3.25)
        }
    }

    @Test func joinsMidStream() throws {
        let directory = TemporaryDirectory()
        let mp3 = try Self.vbrWithTags(directory)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp3)))
        let whole = try Self.parse(bytes, chunks: [512])
        // From an arbitrary byte in the middle: the frames from the next whole one on, nothing before.
        let joined = try Self.parse(Array(bytes[(bytes.count / 2 + 123)...]), chunks: [1, 100])
        #expect(joined.packets.count > 0 && joined.packets.count < whole.packets.count)
        let tail = Array(whole.packets.suffix(joined.packets.count))
        #expect(ReferenceTool.firstDifference(joined.packets, tail) == nil)
        #expect(joined.properties.contains(.readyToProducePackets))
    }

    @Test func throughAudioFileStreamAndAudioPacketDecoder() throws {
        let directory = TemporaryDirectory()
        let mp3 = try Self.vbrWithTags(directory)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp3)))
        let collected = Collected()
        var decoder: AudioPacketDecoder?
        var frames = 0
        var output = [Fixed824](repeating: .zero, count: 2 * 1152)
        var failure: Error?
        let stream = AudioFileStream(onProperty: { property in
            collected.properties.append(property)
            if case .dataFormat(let format) = property { decoder = try? AudioPacketDecoder(format: format) }
        }, onPackets: { data, descriptions in
            for d in descriptions {
                do {
                    frames += try output.withUnsafeMutableBufferPointer {
                        try decoder!.decode(UnsafeRawBufferPointer(rebasing: data[d.startOffset..<(d.startOffset + d.dataByteSize)]), into: $0)
                    }
                    collected.packets.append([])
                } catch { failure = error }
            }
        })
        for byte in bytes { try stream.parse([byte]) }
        #expect(failure == nil)
        #expect(collected.properties.first == .fileFormat(.mp3))
        let sizes = try MP3Fixtures.ffprobePacketSizes(mp3)
        #expect(collected.packets.count == sizes.count)
        #expect(frames == sizes.count * 1152)   // ISO/IEC 11172-3: 1152 samples per frame, priming kept
    }

    @Test func resynchronisesAfterGarbage() throws {
        let directory = TemporaryDirectory()
        let mp3 = try Self.vbrWithTags(directory)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp3)))
        let whole = try Self.parse(bytes, chunks: [512])
        var damaged = bytes
        var noise = NoiseGenerator(seed: 21)
        let middle = bytes.count / 2
        for i in middle..<(middle + 1500) { damaged[i] = UInt8(truncatingIfNeeded: noise.next()) }
        let parsed = try Self.parse(damaged, chunks: [1, 64])
        // The frames before the damage and after it come through unchanged; only the few the garbage hit
        // (1500 bytes: at most 6 frames of at least 261 bytes at -V2) are lost.
        #expect(parsed.packets.count >= whole.packets.count - 6 && parsed.packets.count <= whole.packets.count)
        #expect(ReferenceTool.firstDifference(Array(parsed.packets.prefix(10)), Array(whole.packets.prefix(10))) == nil)
        #expect(ReferenceTool.firstDifference(Array(parsed.packets.suffix(10)), Array(whole.packets.suffix(10))) == nil)
    }

    @Test func packetsDecodeToTheFilesAudio() throws {
        let directory = TemporaryDirectory()
        let frames = 44100
        let mp3 = try Self.vbrWithTags(directory, frames: frames)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp3)))
        let collected = try Self.parse(bytes, chunks: [777])
        let decoder = try MP3PacketDecoder(format: .compressed(.mpegLayer3, sampleRate: 44100, channels: 2, framesPerPacket: 1152))
        var output = [Fixed824](repeating: .zero, count: decoder.maximumFramesPerPacket * 2)
        var samples: [Int32] = []
        for packet in collected.packets {
            let n = try packet.withUnsafeBytes { raw in try output.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
            samples += output[0..<(2 * n)].map(\.raw)
        }
        // Every frame decodes to 1152 samples (ISO/IEC 11172-3), priming and padding kept.
        #expect(samples.count == collected.packets.count * 1152 * 2)
        // Less the LAME tag's delay and the decoder's 529 (what gapless decoders remove), it is FFmpeg's decode.
        let reference = try MP3Fixtures.ffmpeg824(mp3)
        #expect(reference.count == frames * 2)
        let skip = 2 * (MP3FileReaderTests.lameDelay + 529)
        #expect(MP3Fixtures.largestDifference(Array(samples.dropFirst(skip)), reference) <= MP3FileReaderTests.tolerance)

        // Garbage is refused with an error, never a crash; after a reset the decoder goes on.
        let garbage = [UInt8](repeating: 0x55, count: 400)
        _ = try? garbage.withUnsafeBytes { raw in try output.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
        decoder.reset()
        let n = try collected.packets[5].withUnsafeBytes { raw in try output.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
        #expect(n == 1152)
    }
}
