import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Chained Ogg Opus (RFC 3533 section 4: streams one after another; RFC 7845 section 3) and more than two
/// channels (mapping family 1, RFC 7845 5.1.1.2).
struct OggChainTests {
    @Test("two opusenc files one after the other play as one, through the file reader and the stream parser")
    func chained() throws {
        let directory = TemporaryDirectory()
        let first = try OpusFixture.make(directory, name: "a", seconds: 0.5, channels: 2)
        let second = try OpusFixture.make(directory, name: "b", seconds: 1, channels: 2, frequency: 330)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: first))) + [UInt8](Data(contentsOf: URL(fileURLWithPath: second)))
        let chain = directory.file("chain.opus")
        try Data(bytes).write(to: URL(fileURLWithPath: chain))
        // opusdec plays the chain through: its length is the reference.
        let reference = try OpusFixture.opusdec(chain)
        let reader = try OpusFixture.open(chain)
        #expect(reader.info.frameCount == 24000 + 48000)
        let (samples, error) = OpusFixture.decode(reader)
        #expect(error == nil)
        #expect(samples.count == reference.count)
        #expect(OpusFixture.maxDifference(samples, reference) <= OpusFileReaderTests.tolerance)

        let (stream, streamError) = OggStreamParserTests.parse(bytes, chunks: [1000])
        #expect(streamError == nil)
        let sizes = try OggStreamParserTests.ffprobeSizes(first) + OggStreamParserTests.ffprobeSizes(second)
        #expect(ReferenceTool.firstDifference(stream.packets.map(\.count), sizes) == nil)
        #expect(stream.properties.filter { $0 == .readyToProducePackets }.count == 1)
    }

    @Test("a chain whose second link changes the channel count is refused, by name")
    func chainChangingChannels() throws {
        let directory = TemporaryDirectory()
        let first = try OpusFixture.make(directory, name: "a", seconds: 0.5, channels: 2)
        let second = try OpusFixture.make(directory, name: "b", seconds: 0.5, channels: 1)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: first))) + [UInt8](Data(contentsOf: URL(fileURLWithPath: second)))
        let chain = directory.file("mixed.opus")
        try Data(bytes).write(to: URL(fileURLWithPath: chain))
        let error = OpusFixture.thrown { _ = try OpusFixture.open(chain) }
        #expect(error?.kind == .unsupported)
        let (stream, streamError) = OggStreamParserTests.parse(bytes, chunks: [500])
        #expect(streamError?.kind == .unsupported)
        let ffprobePackets = try OggStreamParserTests.ffprobeSizes(first).count
        #expect(stream.packets.count == ffprobePackets)
    }

    /// Fuzz finding 8 (RELIABILITY.md): two links, the second's last page corrupt (its CRC does not match,
    /// RFC 3533 section 6) so the file has no end-of-stream page; libopusfile's op_open_callbacks fails with
    /// OP_EBADTIMESTAMP (opusfile.h) on that link, and leaks its tags doing so (Fuzzing/lsan.supp).
    @Test("a chain whose second link is cut short is refused as truncated, with libopusfile's reason, not as cut before any audio")
    func chainWithSecondLinkCutShort() throws {
        let path = SourceTree.root() + "/Tests/QueueTests/Fixtures/opus-second-link-cut-short.opus"
        // The pages (RFC 3533 section 6): link 1 at 0, 47 and 841 (end of stream, granule 2712, ends at 2057);
        // link 2 at 2061 and 2108 (its headers: the last whole page ends at 2902), then one whose CRC is wrong.
        // opusinfo (opus-tools) reads it so too, and exits 1.
        let opusinfo = try Subprocess.run(try ReferenceTool.path("opusinfo"), [path])
        #expect(opusinfo.status == 1)
        #expect(opusinfo.stdoutText.contains("EOS not set on stream 2"))
        #expect(opusinfo.stdoutText.contains("stream 2 is empty"))
        let error = OpusFixture.thrown { _ = try OpusFixture.open(path) }
        #expect(error?.kind == .truncated)
        #expect(error?.offset == 2902)
        #expect(error?.description.contains("cut short and cannot be opened: an impossible granule position") == true,
                "\(String(describing: error))")
    }

    @Test("six channels (mapping family 1): the stream's packets decode like the file")
    func surround() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, seconds: 0.5, channels: 6, options: ["--bitrate", "192"])
        let reader = try OpusFixture.open(path)
        #expect(reader.info.format.channelsPerFrame == 6)
        // RFC 7845 5.1.1.2: six channels in Vorbis order are front left, center, front right, rear left, rear
        // right, LFE.
        #expect(reader.info.format.channelLayout?.description == "L C R Ls Rs LFE")
        let whole = OpusFixture.decode(reader).samples
        let reference = try OpusFixture.opusdec(path)
        #expect(whole.count == reference.count)
        #expect(OpusFixture.maxDifference(whole, reference) <= OpusFileReaderTests.tolerance)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let (stream, _) = OggStreamParserTests.parse(bytes, chunks: [4096])
        let cookie = try #require(stream.cookie)
        #expect(cookie[18] == 1)   // RFC 7845 5.1: mapping family at byte 18
        #expect(stream.format?.channelLayout == reader.info.format.channelLayout)
        let decoder = try OpusPacketDecoder(format: try #require(stream.format), magicCookie: cookie)
        let decoded = try OpusFixture.decode(stream.packets, format: try #require(stream.format), cookie: cookie)
        let skip = 6 * reader.info.encoderDelay
        #expect(decoded.count >= skip + whole.count)
        #expect(ReferenceTool.firstDifference(Array(decoded[skip..<(skip + whole.count)]).map(\.raw), whole.map(\.raw)) == nil)
        // Too small an output buffer is a misuse, said as such.
        var small = [Fixed824](repeating: .zero, count: 6 * 100)
        let error = OpusFixture.thrown {
            _ = try stream.packets[0].withUnsafeBytes { raw in try small.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
        }
        #expect(error?.kind == .misuse)
    }
}
