import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Opus through the public interfaces: AudioFile (opened by content) and AudioFileStream with
/// AudioPacketDecoder, as the player uses them.
struct OpusRoutingTests {
    @Test("AudioFile and AudioFileStream + AudioPacketDecoder give the same audio, the stream after its pre-skip")
    func fileAndStreamAgree() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, channels: 2, options: ["--comment", "ARTIST=Someone"])
        let file = try AudioFile.open(path: path)
        let info = try #require(file.compressedInfo)
        #expect(info.format.formatID == .opus)
        #expect(info.metadata.artist == "Someone")
        #expect(file.channelCount == 2)
        let whole = try readAll(file)
        #expect(whole.count == 2 * 48000)   // 1 s of 44.1 kHz input at 48 kHz
        try file.close()

        var format: StreamFormat?
        var cookie: [UInt8] = []
        var packets: [[UInt8]] = []
        let stream = AudioFileStream(onProperty: { property in
            if case .dataFormat(let f) = property { format = f }
            if case .magicCookie(let c) = property { cookie = c }
        }, onPackets: { data, descriptions in
            for d in descriptions { packets.append(Array(data[d.startOffset..<(d.startOffset + d.dataByteSize)])) }
        })
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + 1000)
            try stream.parse(Array(bytes[at..<end]))
            at = end
        }
        let decoded = try OpusFixture.decode(packets, format: try #require(format), cookie: cookie)
        // RFC 7845 5.1: pre-skip is the little-endian 16 bits at OpusHead bytes 10-11.
        let preSkip = Int(cookie[10]) | Int(cookie[11]) << 8
        #expect(preSkip == info.encoderDelay)
        #expect(decoded.count >= 2 * preSkip + whole.count)
        #expect(ReferenceTool.firstDifference(Array(decoded[(2 * preSkip)..<(2 * preSkip + whole.count)]).map(\.raw), whole.map(\.raw)) == nil)
    }
}
