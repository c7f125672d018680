import Codec8_24
import Foundation
import Testing
@testable import Queue

/// Collects everything a stream reports.
final class StreamRecorder {
    var properties: [AudioFileStreamProperty] = []
    var packets: [UInt8] = []
    var packetCount = 0
    var packetsBeforeReady = false
    var badDescriptions = 0
    lazy var stream = AudioFileStream(onProperty: { [unowned self] in properties.append($0) }, onPackets: { [unowned self] bytes, descriptions in
        if !properties.contains(.readyToProducePackets) { packetsBeforeReady = true }
        for (i, d) in descriptions.enumerated() where d.startOffset != i * d.dataByteSize || d.startOffset + d.dataByteSize > bytes.count {
            badDescriptions += 1
        }
        packets += bytes
        packetCount += descriptions.count
    })

    /// Feeds `bytes` in chunks of sizes drawn by `sizes`.
    func feed(_ bytes: [UInt8], sizes: (inout NoiseGenerator) -> Int, seed: UInt64 = 3) throws {
        var generator = NoiseGenerator(seed: seed)
        var i = 0
        while i < bytes.count {
            let n = min(bytes.count - i, max(1, sizes(&generator)))
            try bytes[i..<(i + n)].withUnsafeBytes { try stream.parse($0) }
            i += n
        }
    }
}

struct AudioFileStreamTests {
    static let cases: [(AudioFileType, StreamFormat)] = [
        (.wave, .linearPCM(sampleRate: 8000, channels: 2, bits: 24)),
        (.wave, .microsoftIMAADPCM(sampleRate: 8000, channels: 1, blockAlign: 128)),
        (.rf64, .linearPCM(sampleRate: 8000, channels: 1, bits: 16)),
        (.aiff, .linearPCM(sampleRate: 8000, channels: 3, bits: 16, isBigEndian: true)),
        (.aifc, .appleIMA4(sampleRate: 8000, channels: 2)),
        (.caf, .aLaw(sampleRate: 8000, channels: 2)),
        (.caf, .linearPCM(sampleRate: 8000, channels: 2, bits: 32, isFloat: true)),
    ]

    @Test("the same packets for any chunking, one byte at a time included", arguments: 0..<cases.count)
    func samePacketsForAnyChunking(index: Int) throws {
        let (type, format) = Self.cases[index]
        let directory = TemporaryDirectory()
        let path = directory.file("s")
        try writeFile(path, type: type, format: format, samples: testSignal(frames: 2000, channels: format.channelsPerFrame),
                      options: AudioFileWriteOptions(metadata: AudioFileMetadata(title: "streamed"), markers: [AudioFileMarker(framePosition: 5, name: "m")]))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try AudioFile.open(path: path)
        var expected = [UInt8](repeating: 0, count: Int(file.audioDataByteCount))
        _ = try expected.withUnsafeMutableBytes { try file.readPackets(start: 0, count: Int(file.packetCount), into: $0) }

        var results: [StreamRecorder] = []
        let chunkings: [(inout NoiseGenerator) -> Int] = [{ _ in bytes.count }, { _ in 1 }, { Int($0.next() % 7) + 1 },
                                                            { Int($0.next() % 3000) + 1 }, { _ in format.bytesPerPacket + 1 }]
        for sizes in chunkings {
            let recorder = StreamRecorder()
            try recorder.feed(bytes, sizes: sizes)
            results.append(recorder)
            #expect(recorder.packets == expected, "\(type) \(format.formatID)")
            #expect(recorder.packetCount == Int(file.packetCount))
            #expect(!recorder.packetsBeforeReady)
            #expect(recorder.badDescriptions == 0)
            #expect(recorder.properties.first == .fileFormat(type))
            #expect(recorder.properties.contains(.dataFormat(file.dataFormat)))
            #expect(recorder.properties.last == .readyToProducePackets)
        }
        for r in results.dropFirst() { #expect(r.properties == results[0].properties) }
    }

    @Test func followsAFileStillBeingWritten() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("live.caf")
        let format = StreamFormat.linearPCM(sampleRate: 8000, channels: 1, bits: 16)
        let writer = try AudioFile.create(path: path, type: .caf, format: format)
        let recorder = StreamRecorder()
        var offset = 0
        for round in 0..<5 {
            try testSignal(frames: 333, channels: 1, seed: UInt64(round)).withUnsafeBufferPointer { try writer.writeFrames($0) }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            try recorder.stream.parse(Array(bytes[offset...]))
            offset = bytes.count
            #expect(recorder.packetCount == 333 * (round + 1))
        }
        #expect(!recorder.properties.contains { if case .audioDataByteCount = $0 { true } else { false } })
        writer.discard()
    }

    @Test func errorsAreFinalAndCarryTheOffset() throws {
        let recorder = StreamRecorder()
        try recorder.stream.parse(Array("RIFF".utf8) + [0, 0, 0, 0])
        #expect(!recorder.stream.isReadyToProducePackets)
        #expect(throws: AudioFileError.self) { try recorder.stream.parse(Array("WAVX".utf8)) }
        do { try recorder.stream.parse([0]) } catch let error as AudioFileError {
            #expect(error.kind == .notAudioFile)
            #expect(error.offset == 0)
        }
        // A header that never ends is refused at the limit instead of growing without bound.
        let endless = AudioFileStream(maximumHeaderBytes: 4096, onProperty: { _ in }, onPackets: { _, _ in })
        var junk = FieldWriter()
        junk.fourCC("RIFF"); junk.u32le(0); junk.fourCC("WAVE"); junk.fourCC("JUNK"); junk.u32le(1 << 30)
        #expect(throws: AudioFileError.self) { try endless.parse(junk.bytes) }
    }
}
