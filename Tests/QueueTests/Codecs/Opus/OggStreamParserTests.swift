import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// `OggStreamParser` fed Ogg Opus and Ogg FLAC files in pieces: the properties, and packets equal to the ones
/// ffprobe lists.
struct OggStreamParserTests {
    /// What one parse run reported.
    final class Collected {
        var properties: [AudioFileStreamProperty] = []
        var packets: [[UInt8]] = []
        var frames: [Int] = []

        var cookie: [UInt8]? {
            for case .magicCookie(let bytes) in properties { return bytes }
            return nil
        }
        var format: StreamFormat? {
            for case .dataFormat(let format) in properties { return format }
            return nil
        }
        var metadata: AudioFileMetadata? {
            for case .metadata(let metadata) in properties { return metadata }
            return nil
        }
    }

    /// Feeds `bytes` in pieces of the sizes `chunks` cycles through; the error that stopped it, if any.
    static func parse(_ bytes: [UInt8], chunks: [Int]) -> (Collected, AudioFileError?) {
        let parser = OggStreamParser()
        let collected = Collected()
        var at = 0
        var turn = 0
        do {
            while at < bytes.count {
                let n = min(chunks[turn % chunks.count], bytes.count - at)
                turn += 1
                try bytes[at..<(at + n)].withUnsafeBytes { chunk in
                    try parser.parse(chunk, onProperty: { collected.properties.append($0) }, onPackets: { data, descriptions in
                        for d in descriptions {
                            collected.packets.append(Array(data[d.startOffset..<(d.startOffset + d.dataByteSize)]))
                            collected.frames.append(d.variableFramesInPacket)
                        }
                    })
                }
                at += n
            }
        } catch {
            return (collected, error as? AudioFileError)
        }
        return (collected, nil)
    }

    /// Whether two packet lists are equal (compared here: `#expect(a == b)` on big arrays prints them whole).
    static func same(_ a: [[UInt8]], _ b: [[UInt8]]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 == $1 }
    }

    /// ffprobe's packet sizes for the file's audio stream (headers excluded).
    static func ffprobeSizes(_ path: String) throws -> [Int] {
        let text = String(decoding: try ReferenceTool.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size",
                                                                      "-of", "default=nw=1:nk=1", path]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { Int($0) }
    }

    /// The audio packets FFmpeg's demuxer reads (`-c copy -f data`: payloads back to back), cut at ffprobe's sizes.
    static func ffmpegPackets(_ path: String) throws -> [[UInt8]] {
        let data = [UInt8](try ReferenceTool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:a", "-c", "copy", "-f", "data", "-"]))
        var at = 0
        var packets: [[UInt8]] = []
        for size in try ffprobeSizes(path) where at + size <= data.count {
            packets.append(Array(data[at..<(at + size)]))
            at += size
        }
        #expect(at == data.count)
        return packets
    }

    @Test("Opus one byte at a time: properties, then ffprobe's packets; decoded, the file's audio after pre-skip")
    func opusByteByByte() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, channels: 2, options: ["--bitrate", "64", "--comment", "TITLE=Streamed"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let (stream, error) = Self.parse(bytes, chunks: [1])
        #expect(error == nil)
        #expect(stream.properties.first == .fileFormat(.ogg))
        #expect(stream.properties.last == .readyToProducePackets)
        #expect(stream.format == .compressed(.opus, sampleRate: 48000, channels: 2))
        #expect(stream.metadata?.title == "Streamed")
        // RFC 7845 5.1 / RFC 3533: the cookie is the first page's only packet, OpusHead.
        let head = 27 + Int(bytes[26])
        #expect(stream.cookie == Array(bytes[head..<(head + Int(bytes[27]))]))
        let sizes = try Self.ffprobeSizes(path)
        #expect(stream.packets.count == sizes.count)
        #expect(ReferenceTool.firstDifference(stream.packets.map(\.count), sizes) == nil)
        // opusenc's default frame size, 20 ms: 960 frames each (opusinfo's "Packet duration: 20.0ms").
        #expect(stream.frames.allSatisfy { $0 == 960 })

        let cookie = try #require(stream.cookie)
        let decoded = try OpusFixture.decode(stream.packets, format: try #require(stream.format), cookie: cookie)
        // Every packet decodes whole: 960 frames each (above), ffprobe's packet count of them.
        #expect(decoded.count == 2 * 960 * sizes.count)
        // RFC 7845 5.1: OpusHead's pre-skip, little-endian 16 bits at byte 10 (the cookie is OpusHead, above).
        let skip = 2 * (Int(cookie[10]) | Int(cookie[11]) << 8)
        // opusdec's decoding is the file's audio after pre-skip and before the end trimming: ours from the
        // packets holds it after the pre-skip, then the trimmed padding (less than one packet).
        let reference = try OpusFixture.opusdec(path)
        try #require(decoded.count >= skip + reference.count)
        #expect(decoded.count - skip - reference.count < 2 * 960)
        let worst = OpusFixture.maxDifference(Array(decoded[skip..<(skip + reference.count)]), reference)
        #expect(worst <= OpusFileReaderTests.tolerance, "largest difference from opusdec: \(worst) units of 2^-24")
    }

    @Test("any chunking gives the same packets; leading garbage is skipped (joining mid-stream)")
    func chunkingAndJoining() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, channels: 1)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // The packets FFmpeg's Ogg demuxer finds (its own parser, not ours) and the cookie RFC 7845 5.1 places:
        // the first page's only packet.
        let packets = try Self.ffmpegPackets(path)
        let head = 27 + Int(bytes[26])
        let cookie = Array(bytes[head..<(head + Int(bytes[27]))])
        for chunks in [[bytes.count]] +  [[7], [4096], [1, 300, 27, 5000, 2]] {
            let (stream, error) = Self.parse(bytes, chunks: chunks)
            #expect(error == nil)
            #expect(Self.same(stream.packets, packets), "chunks \(chunks)")
            #expect(stream.cookie == cookie, "chunks \(chunks)")
        }
        // Bytes from the middle of some other stream, then a false page (RFC 3533 header, 1 segment of 10
        // bytes, a CRC that does not match), before the real start. (A false header claiming a long body holds
        // up to 65,307 bytes until its CRC can be checked.)
        let falsePage = Array("OggS".utf8) + [0, 0] + [UInt8](repeating: 7, count: 20) + [1, 10] + [UInt8](repeating: 1, count: 10)
        let junk = Array(bytes[900..<1400]) + falsePage
        let (joined, error) = Self.parse(junk + bytes, chunks: [13])
        #expect(error == nil)
        #expect(Self.same(joined.packets, packets))
        #expect(joined.cookie == cookie)
        // Joined at an audio page (no headers yet): pages are skipped until a beginning-of-stream page.
        let pages = OpusDamageTests.pageOffsets(bytes)
        let (late, _) = Self.parse(Array(bytes[pages[2]...]) + bytes, chunks: [100])
        #expect(Self.same(late.packets, packets))
    }

    @Test("a corrupt page after the start is an error naming its offset; a cut stream just stops")
    func damage() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, seconds: 3, channels: 2)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pages = OpusDamageTests.pageOffsets(bytes)
        var damaged = bytes
        damaged[pages[3] + 100] ^= 0x20
        let (stream, error) = Self.parse(damaged, chunks: [333])
        #expect(error?.kind == .malformed)
        #expect(error?.offset == Int64(pages[3]))
        #expect(stream.packets.count > 0)
        let (cut, cutError) = Self.parse(Array(bytes[0..<(pages[3] + 100)]), chunks: [333])
        #expect(cutError == nil)
        #expect(cut.packets.count == stream.packets.count)
    }

    @Test("a lost page (sequence gap) loses only its packets; the stream goes on")
    func lostPage() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, seconds: 3, channels: 1)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pages = OpusDamageTests.pageOffsets(bytes)
        let (reference, _) = Self.parse(bytes, chunks: [bytes.count])
        // RFC 3533: packets end at lacing values below 255; count those completed on each page. opusenc's
        // pages hold whole 20 ms packets (fewer than 255 segments), so no packet spans the lost page.
        func completed(_ page: Int) -> Int {
            let at = pages[page]
            return bytes[(at + 27)..<(at + 27 + Int(bytes[at + 26]))].filter { $0 < 255 }.count
        }
        let lost = 3
        let before = (2..<lost).reduce(0) { $0 + completed($1) }   // pages 0 and 1 hold OpusHead and OpusTags
        let end = lost + 1 < pages.count ? pages[lost + 1] : bytes.count
        let (stream, error) = Self.parse(Array(bytes[..<pages[lost]]) + Array(bytes[end...]), chunks: [512])
        #expect(error == nil)
        #expect(stream.packets.count == reference.packets.count - completed(lost))
        #expect(Self.same(Array(stream.packets[..<before]), Array(reference.packets[..<before])))
        #expect(Self.same(Array(stream.packets[before...]), Array(reference.packets[(before + completed(lost))...])))
    }

    @Test("Ogg FLAC (flac --ogg): STREAMINFO as the cookie, FLAC frames as packets")
    func oggFLAC() throws {
        let directory = TemporaryDirectory()
        let wav = directory.file("s.wav")
        try ReferenceTool.run("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "1", "sine", "440", "vol", "0.5"])
        let oga = directory.file("s.oga")
        let native = directory.file("s.flac")
        try ReferenceTool.run("flac", ["--silent", "--ogg", "-T", "TITLE=In Ogg", "-o", oga, wav])
        try ReferenceTool.run("flac", ["--silent", "-o", native, wav])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: oga)))
        let (stream, error) = Self.parse(bytes, chunks: [1])
        #expect(error == nil)
        #expect(stream.format == .compressed(.flac, sampleRate: 44100, channels: 2, bitsPerChannel: 16))
        // RFC 9639 8.2: native FLAC's STREAMINFO is the 34 bytes after "fLaC" and the 4-byte block header; the
        // same encoder on the same input writes the same block into the Ogg mapping.
        let flac = try [UInt8](Data(contentsOf: URL(fileURLWithPath: native)))
        #expect(stream.cookie == Array(flac[8..<42]))
        #expect(stream.metadata?.title == "In Ogg")
        let sizes = try Self.ffprobeSizes(oga)
        #expect(stream.packets.count == sizes.count)
        #expect(ReferenceTool.firstDifference(stream.packets.map(\.count), sizes) == nil)
        // Each packet is one frame (RFC 9639 9.1: sync 0xFFF8); the block sizes add up to the 44100 frames.
        #expect(stream.packets.allSatisfy { $0.count > 2 && $0[0] == 0xFF && $0[1] & 0xFE == 0xF8 })
        #expect(stream.frames.reduce(0, +) == 44100)
        // The flac part's packet decoder turns them into the source samples bit for bit (sox reads the WAV).
        let decoded = try OpusFixture.decode(stream.packets, format: try #require(stream.format), cookie: try #require(stream.cookie))
        let source = try soxSamples(wav)
        #expect(decoded.count == source.count)
        #expect(ReferenceTool.firstDifference(decoded.asSox, source) == nil)
    }
}
