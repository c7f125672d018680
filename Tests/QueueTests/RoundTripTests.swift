import Codec8_24
import Foundation
import Testing
@testable import Queue

/// Every data format a container can hold, written and read back through each container.
struct RoundTripTests {
    static let formats: [(name: String, make: @Sendable (Int) -> StreamFormat)] = [
        ("u8", { .linearPCM(sampleRate: 44100, channels: $0, bits: 8, isSigned: false) }),
        ("s8", { .linearPCM(sampleRate: 44100, channels: $0, bits: 8, isBigEndian: true) }),
        ("s16le", { .linearPCM(sampleRate: 44100, channels: $0, bits: 16) }),
        ("s16be", { .linearPCM(sampleRate: 44100, channels: $0, bits: 16, isBigEndian: true) }),
        ("s24le", { .linearPCM(sampleRate: 48000, channels: $0, bits: 24) }),
        ("s24be", { .linearPCM(sampleRate: 48000, channels: $0, bits: 24, isBigEndian: true) }),
        ("s32le", { .linearPCM(sampleRate: 48000, channels: $0, bits: 32) }),
        ("s32be", { .linearPCM(sampleRate: 48000, channels: $0, bits: 32, isBigEndian: true) }),
        ("f32le", { .linearPCM(sampleRate: 96000, channels: $0, bits: 32, isFloat: true) }),
        ("f32be", { .linearPCM(sampleRate: 96000, channels: $0, bits: 32, isFloat: true, isBigEndian: true) }),
        ("f64le", { .linearPCM(sampleRate: 22050, channels: $0, bits: 64, isFloat: true) }),
        ("f64be", { .linearPCM(sampleRate: 22050, channels: $0, bits: 64, isFloat: true, isBigEndian: true) }),
        ("ulaw", { .muLaw(sampleRate: 8000, channels: $0) }),
        ("alaw", { .aLaw(sampleRate: 8000, channels: $0) }),
        ("ima4", { .appleIMA4(sampleRate: 16000, channels: $0) }),
        ("msima", { .microsoftIMAADPCM(sampleRate: 16000, channels: $0, blockAlign: 256 * $0) }),
    ]

    /// What a format makes of `samples`, computed straight from the Codec8_24 coders (the container must add
    /// nothing and lose nothing beyond this).
    static func expected(_ samples: [Fixed824], format: StreamFormat) throws -> [Fixed824] {
        let channels = format.channelsPerFrame
        switch format.formatID {
        case .linearPCM:
            return samples.map { s in
                if format.isFloat { return format.bitsPerChannel == 32 ? Fixed824(s.floatValue) : Fixed824(s.doubleValue) }
                switch format.bitsPerChannel {
                case 8: return Fixed824(raw: PacketCodec.int8(s) << 17)
                case 16: return Fixed824(int16: s.int16)
                case 24: return Fixed824(int24: s.int24)
                default: return Fixed824(int32: s.int32)
                }
            }
        case .muLaw, .aLaw:
            let law: G711Law = format.formatID == .muLaw ? .muLaw : .aLaw
            return samples.map { Fixed824(int16: law.decode(law.encode($0.int16))) }
        case .appleIMA4, .microsoftIMAADPCM:
            let perPacket = format.framesPerPacket
            let frames = samples.count / channels
            let packets = (frames + perPacket - 1) / perPacket
            var padded = samples + [Fixed824](repeating: .zero, count: (packets * perPacket - frames) * channels)
            var bytes = [UInt8](repeating: 0, count: packets * format.bytesPerPacket)
            var decoded = [Fixed824](repeating: .zero, count: padded.count)
            if format.formatID == .appleIMA4 {
                let encoder = try IMA4Encoder(channelCount: channels), decoder = try IMA4Decoder(channelCount: channels)
                try padded.withUnsafeMutableBufferPointer { p in try bytes.withUnsafeMutableBytes { _ = try encoder.encode(UnsafeBufferPointer(p), into: $0) } }
                try bytes.withUnsafeBytes { b in try decoded.withUnsafeMutableBufferPointer { _ = try decoder.decode(b, into: $0) } }
            } else {
                let encoder = try IMAADPCMWaveEncoder(channelCount: channels, blockAlign: format.bytesPerPacket)
                let decoder = try IMAADPCMWaveDecoder(channelCount: channels, blockAlign: format.bytesPerPacket)
                try padded.withUnsafeMutableBufferPointer { p in try bytes.withUnsafeMutableBytes { _ = try encoder.encode(UnsafeBufferPointer(p), into: $0) } }
                try bytes.withUnsafeBytes { b in try decoded.withUnsafeMutableBufferPointer { _ = try decoder.decode(b, into: $0) } }
            }
            padded.removeAll()
            return Array(decoded[0..<samples.count])
        case .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless:
            return samples   // not in this table: the codec libraries have their own tests (Queue/Codecs)
        }
    }

    @Test("every container x data format pair: created or refused; created ones read back exactly",
          arguments: [AudioFileType.wave, .rf64, .aiff, .aifc, .caf])   // library codecs: Queue/Codecs tests
    func everyPair(type: AudioFileType) throws {
        let directory = TemporaryDirectory()
        var written = 0
        for (name, make) in Self.formats {
            for channels in [1, 2, 3] {
                let format = make(channels)
                let path = directory.file("\(name)-\(channels).\(type.rawValue)")
                if let refusal = type.refusal(for: format) {
                    #expect(throws: AudioFileError.self) { _ = try AudioFile.create(path: path, type: type, format: format) }
                    do { _ = try AudioFile.create(path: path, type: type, format: format) } catch let error as AudioFileError {
                        #expect(error.kind == .incompatibleFormat)
                        #expect(error.description.contains(refusal))
                    }
                    continue
                }
                let frames = 1000 + 37 * channels        // never a whole number of IMA packets
                let samples = testSignal(frames: frames, channels: channels)
                let metadata = AudioFileMetadata(title: "Take \(channels)", artist: "appliance", date: "2024-05-01")
                let markers = [AudioFileMarker(framePosition: 10, name: "start"), AudioFileMarker(framePosition: 500, name: "chorus")]
                try writeFile(path, type: type, format: format, samples: samples,
                              options: AudioFileWriteOptions(metadata: metadata, markers: markers), chunk: 333)
                let file = try AudioFile.open(path: path)
                #expect(file.fileType == type, "\(name)")
                #expect(file.dataFormat.formatID == format.formatID)
                #expect(file.dataFormat.bitsPerChannel == format.bitsPerChannel || !format.isLinearPCM)
                #expect(file.channelCount == channels)
                #expect(file.sampleRate == format.sampleRate)
                let expectedFrames = type.family == .aiff && format.formatID == .appleIMA4
                    ? Int64((frames + 63) / 64 * 64) : Int64(frames)   // AIFF-C counts whole IMA4 packets
                #expect(file.frameCount == expectedFrames, "\(name) \(channels) ch in \(type)")
                if channels == 3 { #expect(file.channelLayout == .standard(channelCount: 3)) }
                let back = try readAll(file)
                let reference = try Self.expected(samples, format: format)
                #expect(Array(back.prefix(samples.count)) == reference, "\(name) \(channels) ch in \(type)")
                #expect(file.metadata.title == metadata.title)
                if type.family != .aiff { #expect(file.metadata.date == metadata.date) }
                #expect(file.markers.map(\.framePosition) == [10, 500])
                #expect(file.markers.map(\.name) == ["start", "chorus"])
                written += 1
            }
        }
        #expect(written >= 9)
    }

    @Test func seekingReadsTheSameFramesAsReadingThrough() throws {
        let directory = TemporaryDirectory()
        for (type, format) in [(AudioFileType.wave, StreamFormat.linearPCM(sampleRate: 48000, channels: 2, bits: 24)),
                               (.caf, .appleIMA4(sampleRate: 48000, channels: 2)), (.wave, .microsoftIMAADPCM(sampleRate: 8000, channels: 1))] {
            let path = directory.file("seek.\(type.rawValue)")
            let samples = testSignal(frames: 4000, channels: format.channelsPerFrame)
            try writeFile(path, type: type, format: format, samples: samples)
            let file = try AudioFile.open(path: path)
            let all = try readAll(file)
            let channels = format.channelsPerFrame
            var generator = NoiseGenerator(seed: 9)
            for _ in 0..<20 {
                let start = Int(generator.next() % 3900)
                // Packets of Microsoft IMA ADPCM decode independently, so a seek inside one is exact; so is PCM.
                // Apple IMA4 carries state between packets, so a seek may differ by the predictor's low bits.
                try file.seek(toFrame: Int64(start))
                var buffer = [Fixed824](repeating: .zero, count: 50 * channels)
                let n = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
                #expect(n == 50)
                let reference = Array(all[(start * channels)..<((start + 50) * channels)])
                if format.formatID == .appleIMA4 {
                    #expect(maxDifference(buffer.raws, reference.raws) <= 1 << 17, "ima4 seek to \(start)")
                } else {
                    #expect(buffer == reference, "\(format.formatID) seek to \(start)")
                }
            }
            var packet = [UInt8](repeating: 0, count: format.bytesPerPacket * 3)
            let got = try packet.withUnsafeMutableBytes { try file.readPackets(start: file.packetCount - 2, count: 3, into: $0) }
            #expect(got == 2)
        }
    }

    @Test func atomicWriteAppearsOnlyWhenClosed() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("out.wav")
        let file = try AudioFile.create(path: path, type: .wave, format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16),
                                        options: AudioFileWriteOptions(replaceAtomically: true))
        try testSignal(frames: 100, channels: 1).withUnsafeBufferPointer { try file.writeFrames($0) }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
        try file.close()
        #expect(try AudioFile.open(path: path).frameCount == 100)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.wav"])
        let abandoned = try AudioFile.create(path: directory.file("gone.wav"), type: .wave,
                                             format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16),
                                             options: AudioFileWriteOptions(replaceAtomically: true))
        abandoned.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.wav"])
    }

    @Test func waveTurnsIntoRF64PastTheThreshold() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("big.wav")
        var options = AudioFileWriteOptions(commitInterval: 0.01)
        options.rf64Threshold = 10_000
        let samples = testSignal(frames: 6000, channels: 2)
        try writeFile(path, type: .wave, format: .linearPCM(sampleRate: 48000, channels: 2, bits: 16), samples: samples, options: options)
        let head = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(16)
        #expect(String(decoding: head.prefix(4), as: UTF8.self) == "RF64")
        #expect(String(decoding: head.suffix(4), as: UTF8.self) == "ds64")
        let file = try AudioFile.open(path: path)
        #expect(file.fileType == .rf64)
        #expect(file.frameCount == 6000)
        #expect(try readAll(file) == samples.map { Fixed824(int16: $0.int16) })
        if toolAvailable("ffmpeg") { #expect(try ffmpegSamples(path).count == 12000) }
    }
}

/// Which markers each container keeps, and why it drops the others.
struct MarkerStorageTests {
    @Test func containersKeepWhatTheyCanHoldAndSayWhy() {
        let marker = AudioFileMarker(framePosition: 10, name: "m")
        let region = AudioFileMarker(framePosition: 20, name: "r", frameLength: 5)
        let loop = AudioFileMarker(framePosition: 30, name: "l", frameLength: 5, isLoop: true)
        let emptyLoop = AudioFileMarker(framePosition: 0, name: "e", frameLength: 0, isLoop: true)
        let far = AudioFileMarker(framePosition: Int64(UInt32.max) + 1, name: "far")
        let all = [marker, region, loop, emptyLoop, far]
        // RIFF cue points are 32-bit (cue chunk dwSampleOffset); AIFF MARK has no length (AIFF 1.3 Marker Chunk)
        // and INST holds a sustain and a release loop; CAF positions are Float64.
        #expect(AudioFileType.wave.storableMarkers(all).kept == [marker, region, loop])
        #expect(AudioFileType.aiff.storableMarkers(all).kept == [marker, loop])
        #expect(AudioFileType.aiff.storableMarkers(all).dropped.map(\.reason) == [
            "AIFF markers (MARK) have no length, so regions cannot be kept", "a loop must span at least one frame",
            "AIFF marker positions are at most 4294967295"])
        #expect(AudioFileType.caf.storableMarkers(all).kept == [marker, region, loop, far])
        let threeLoops = [loop, loop, loop]
        #expect(AudioFileType.aifc.storableMarkers(threeLoops).dropped.map(\.reason) == ["AIFF-C holds two loops (INST: sustain and release)"])
    }
}
