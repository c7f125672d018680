import Foundation
import Testing
@testable import Codec8_24

/// IMA ADPCM without the reference tools: tables, the nibble arithmetic, round-trip quality, streaming in
/// random packet groups, and malformed input.
@Suite("IMA ADPCM")
struct IMAADPCMTests {
    typealias Support = CodecTestSupport

    // MARK: Helpers

    static func encodeIMA4(_ samples: [Int16], channels: Int) throws -> [UInt8] {
        let encoder = try IMA4Encoder(channelCount: channels)
        var bytes = [UInt8](repeating: 0, count: samples.count / channels / 64 * encoder.bytesPerPacket)
        let written = try samples.withUnsafeBufferPointer { input in
            try bytes.withUnsafeMutableBytes { output in try encoder.encode(input, into: output) }
        }
        #expect(written == bytes.count)
        return bytes
    }

    static func decodeIMA4(_ bytes: [UInt8], channels: Int) throws -> [Int16] {
        let decoder = try IMA4Decoder(channelCount: channels)
        var samples = [Int16](repeating: 0, count: bytes.count / decoder.bytesPerPacket * 64 * channels)
        let frames = try bytes.withUnsafeBytes { input in
            try samples.withUnsafeMutableBufferPointer { output in try decoder.decode(input, into: output) }
        }
        #expect(frames * channels == samples.count)
        return samples
    }

    static func encodeWave(_ samples: [Int16], layout: IMAADPCMWaveLayout) throws -> [UInt8] {
        let encoder = IMAADPCMWaveEncoder(layout: layout)
        var bytes = [UInt8](repeating: 0, count: samples.count / layout.channelCount / layout.framesPerBlock * layout.blockAlign)
        try samples.withUnsafeBufferPointer { input in
            try bytes.withUnsafeMutableBytes { output in _ = try encoder.encode(input, into: output) }
        }
        return bytes
    }

    static func decodeWave(_ bytes: [UInt8], layout: IMAADPCMWaveLayout) throws -> [Int16] {
        let decoder = IMAADPCMWaveDecoder(layout: layout)
        var samples = [Int16](repeating: 0, count: bytes.count / layout.blockAlign * layout.framesPerBlock * layout.channelCount)
        try bytes.withUnsafeBytes { input in
            try samples.withUnsafeMutableBufferPointer { output in _ = try decoder.decode(input, into: output) }
        }
        return samples
    }

    /// Pads interleaved samples with silence to a whole number of `framesPerPacket` frames.
    static func padded(_ samples: [Int16], channels: Int, framesPerPacket: Int) -> [Int16] {
        let frames = samples.count / channels
        let packets = (frames + framesPerPacket - 1) / framesPerPacket
        return samples + [Int16](repeating: 0, count: (packets * framesPerPacket - frames) * channels)
    }

    // MARK: Tables and arithmetic

    @Test func stepAndIndexTables() {
        let steps = IMAADPCM.stepSizes
        #expect(steps.count == 89)
        #expect(steps.first == 7 && steps.last == 32767)
        #expect(steps[16] == 34 && steps[44] == 494 && steps[72] == 7132)
        for (a, b) in zip(steps, steps.dropFirst()) {
            #expect(b > a)
            if a >= 50 { #expect(Double(b) / Double(a) > 1.09 && Double(b) / Double(a) < 1.11) }   // ≈ 1.1 per step
        }
        #expect(IMAADPCM.indexAdjustments == [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8])
    }

    /// Worked by hand from the IMA arithmetic.
    @Test func expandByHand() {
        var state = IMAADPCMChannelState()
        #expect(state.expand(0x7) == 11)        // step 7: 7/8→0, +7 +3 +1
        #expect(state.stepIndex == 8)           // 0 + 8
        // step 16: 16>>3 = 2, +16 +8 +4 = 30, negative: 11 - 30 = -19; index 8 + 8 = 16.
        #expect(state.expand(0xF) == -19)
        #expect(state.stepIndex == 16)
        // step 34: 34>>3 = 4, code 2 adds 34>>1 = 17 → 21; -19 + 21 = 2; index 16 - 1 = 15.
        #expect(state.expand(0x2) == 2)
        #expect(state.stepIndex == 15)
        // Clamps: predictor at the top, largest step, code 7 stays at 32767 and index at 88.
        var top = IMAADPCMChannelState(predictor: 32000, stepIndex: 88)
        #expect(top.expand(0x7) == 32767)
        #expect(top.stepIndex == 88)
        var bottom = IMAADPCMChannelState(predictor: -32000, stepIndex: 88)
        #expect(bottom.expand(0xF) == -32768)
        var low = IMAADPCMChannelState(predictor: 0, stepIndex: 0)
        _ = low.expand(0x0)
        #expect(low.stepIndex == 0)
    }

    /// The encoder's choice keeps the reconstruction within the quantizer's resolution whenever the
    /// difference is within its reach (below 1.75 steps), and always moves toward the sample.
    @Test func compressErrorIsBoundedByTheStep() {
        var generator = Support.SplitMix64(seed: 0xADCB)
        for _ in 0..<20_000 {
            let state = IMAADPCMChannelState(predictor: Int32(Int16(truncatingIfNeeded: generator.next())),
                                             stepIndex: Int32(generator.next() % 89))
            let sample = Int16(truncatingIfNeeded: generator.next())
            var encoder = state
            let code = encoder.compress(sample)
            var decoder = state
            #expect(decoder.expand(code) == Int16(encoder.predictor))   // same state update
            let step = Int(IMAADPCM.stepSizes[Int(state.stepIndex)])
            let difference = Int(sample) - Int(state.predictor)
            if abs(difference) < step * 7 / 4 {
                #expect(abs(Int(sample) - Int(encoder.predictor)) <= step / 4 + step / 8 + 1)
            }
            if difference != 0 { #expect((code & 8 != 0) == (difference < 0)) }
        }
    }

    // MARK: Quality

    /// A 440 Hz sine at half scale through either layout comes back with 30+ dB SNR (IMA at 4 bits per
    /// sample typically gives 25–35 dB; a pure tone sits at the upper end).
    @Test func roundTripSNROnASine() throws {
        let frames = 16_000 - 16_000 % 64
        let sine = (0..<frames).map { Int16((0.5 * 32767 * sin(2 * Double.pi * 440 * Double($0) / 16_000)).rounded()) }
        let ima4 = try Self.decodeIMA4(try Self.encodeIMA4(sine, channels: 1), channels: 1)
        let ima4SNR = Support.snr(reference: sine, decoded: ima4)

        let layout = try IMAADPCMWaveLayout(channelCount: 1, blockAlign: 256)
        let input = Self.padded(sine, channels: 1, framesPerPacket: layout.framesPerBlock)
        let wave = try Self.decodeWave(try Self.encodeWave(input, layout: layout), layout: layout)
        let waveSNR = Support.snr(reference: input, decoded: wave)
        #expect(ima4SNR > 30 && ima4SNR < 50, "ima4 SNR \(ima4SNR) dB")
        #expect(waveSNR > 30 && waveSNR < 50, "WAV IMA SNR \(waveSNR) dB")
    }

    /// The stereo test signal through both layouts, section by section.
    @Test func roundTripSNROnAHarderSignal() throws {
        let signal = Support.testSignal(frames: 64 * 250, channels: 2, sampleRate: 16_000, seed: 3)
        let ima4 = try Self.decodeIMA4(try Self.encodeIMA4(signal, channels: 2), channels: 2)
        let layout = try IMAADPCMWaveLayout(channelCount: 2, blockAlign: 1024)
        let input = Self.padded(signal, channels: 2, framesPerPacket: layout.framesPerBlock)
        let wave = try Self.decodeWave(try Self.encodeWave(input, layout: layout), layout: layout)
        // Plain sines code at IMA's usual 25 dB or so; the full-scale square burst (steps far beyond the
        // largest step the adaptation can reach in a few samples) is slew-limited, so it is checked for
        // tracking only; the noise section sits in between.
        let waveInput = Array(input[0..<signal.count]), waveOutput = Array(wave[0..<signal.count])
        for (name, reference, decoded) in [("ima4", signal, ima4), ("WAV", waveInput, waveOutput)] {
            let sines = Support.snr(reference: reference, decoded: decoded, fraction: 0...0.4)
            let burst = Support.snr(reference: reference, decoded: decoded, fraction: 0.4...0.48)
            let noisy = Support.snr(reference: reference, decoded: decoded, fraction: 0.7...0.8)
            #expect(sines > 24, "\(name): \(sines) dB on the sines")
            #expect(burst > 4, "\(name): \(burst) dB on the square burst")
            #expect(noisy > 19, "\(name): \(noisy) dB on sines plus noise")
        }
    }

    // MARK: Streaming

    @Test(arguments: [1, 2, 3])
    func ima4InRandomPacketGroupsMatchesOneCall(channels: Int) throws {
        let packets = 97
        let signal = Support.testSignal(frames: packets * 64, channels: channels, sampleRate: 22_050, seed: UInt64(channels))
        let whole = try Self.encodeIMA4(signal, channels: channels)
        let decodedWhole = try Self.decodeIMA4(whole, channels: channels)

        let encoder = try IMA4Encoder(channelCount: channels)
        let decoder = try IMA4Decoder(channelCount: channels)
        let fixedDecoder = try IMA4Decoder(channelCount: channels)
        var bytes = [UInt8](repeating: 0, count: whole.count)
        var decoded = [Int16](repeating: 0, count: signal.count)
        var fixedDecoded = [Fixed824](repeating: .zero, count: signal.count)
        let fixedSignal = signal.map { Fixed824(int16: $0) }
        var fixedBytes = [UInt8](repeating: 0, count: whole.count)
        let fixedEncoder = try IMA4Encoder(channelCount: channels)
        var packet = 0
        for group in Support.randomGroups(total: packets, maxGroup: 9, seed: 42 + UInt64(channels)) {
            let samples = packet * 64 * channels..<(packet + group) * 64 * channels
            let byteRange = packet * encoder.bytesPerPacket..<(packet + group) * encoder.bytesPerPacket
            try signal.withUnsafeBufferPointer { input in
                try bytes.withUnsafeMutableBytes { output in
                    let written = try encoder.encode(.init(rebasing: input[samples]), into: .init(rebasing: output[byteRange]))
                    #expect(written == byteRange.count)
                }
            }
            try fixedSignal.withUnsafeBufferPointer { input in
                try fixedBytes.withUnsafeMutableBytes { output in
                    _ = try fixedEncoder.encode(.init(rebasing: input[samples]), into: .init(rebasing: output[byteRange]))
                }
            }
            try bytes.withUnsafeBytes { input in
                try decoded.withUnsafeMutableBufferPointer { output in
                    let frames = try decoder.decode(.init(rebasing: input[byteRange]), into: .init(rebasing: output[samples]))
                    #expect(frames == group * 64)
                }
                try fixedDecoded.withUnsafeMutableBufferPointer { output in
                    _ = try fixedDecoder.decode(.init(rebasing: input[byteRange]), into: .init(rebasing: output[samples]))
                }
            }
            packet += group
        }
        #expect(bytes == whole)
        #expect(fixedBytes == whole)
        #expect(decoded == decodedWhole)
        #expect(fixedDecoded == decodedWhole.map { Fixed824(int16: $0) })
    }

    @Test(arguments: [(1, 256), (2, 512), (2, 72), (3, 1020), (1, 4)])
    func waveInRandomBlockGroupsMatchesOneCall(channels: Int, blockAlign: Int) throws {
        let layout = try IMAADPCMWaveLayout(channelCount: channels, blockAlign: blockAlign)
        let blocks = 41
        let signal = Support.testSignal(frames: blocks * layout.framesPerBlock, channels: channels, sampleRate: 8000,
                                        seed: UInt64(blockAlign))
        let whole = try Self.encodeWave(signal, layout: layout)
        let decodedWhole = try Self.decodeWave(whole, layout: layout)

        let encoder = IMAADPCMWaveEncoder(layout: layout)
        let decoder = IMAADPCMWaveDecoder(layout: layout)
        var bytes = [UInt8](repeating: 0, count: whole.count)
        var decoded = [Fixed824](repeating: .zero, count: signal.count)
        let fixedSignal = signal.map { Fixed824(int16: $0) }
        var block = 0
        for group in Support.randomGroups(total: blocks, maxGroup: 6, seed: UInt64(blockAlign) &* 31) {
            let samples = block * layout.framesPerBlock * channels..<(block + group) * layout.framesPerBlock * channels
            let byteRange = block * blockAlign..<(block + group) * blockAlign
            try fixedSignal.withUnsafeBufferPointer { input in
                try bytes.withUnsafeMutableBytes { output in
                    _ = try encoder.encode(.init(rebasing: input[samples]), into: .init(rebasing: output[byteRange]))
                }
            }
            try bytes.withUnsafeBytes { input in
                try decoded.withUnsafeMutableBufferPointer { output in
                    let frames = try decoder.decode(.init(rebasing: input[byteRange]), into: .init(rebasing: output[samples]))
                    #expect(frames == group * layout.framesPerBlock)
                }
            }
            block += group
        }
        #expect(bytes == whole)
        #expect(decoded == decodedWhole.map { Fixed824(int16: $0) })
        // Every block restarts from its first frame, stored exactly.
        for b in 0..<blocks {
            for c in 0..<channels {
                let index = b * layout.framesPerBlock * channels + c
                #expect(decodedWhole[index] == signal[index])
            }
        }
    }

    // MARK: Layouts

    @Test func waveLayoutSamplesPerBlock() throws {
        #expect(try IMAADPCMWaveLayout(channelCount: 1, blockAlign: 256).framesPerBlock == 505)
        #expect(try IMAADPCMWaveLayout(channelCount: 2, blockAlign: 512).framesPerBlock == 505)
        #expect(try IMAADPCMWaveLayout(channelCount: 1, blockAlign: 512).framesPerBlock == 1017)
        #expect(try IMAADPCMWaveLayout(channelCount: 2, blockAlign: 2048).framesPerBlock == 2041)
        #expect(try IMAADPCMWaveLayout(channelCount: 1, blockAlign: 1024).framesPerBlock == 2041)
        #expect(try IMAADPCMWaveLayout(channelCount: 2, blockAlign: 8).framesPerBlock == 1)
        #expect(throws: IMAADPCMError.invalidBlockAlign(blockAlign: 510, channelCount: 2)) {
            try IMAADPCMWaveLayout(channelCount: 2, blockAlign: 510)
        }
        #expect(throws: IMAADPCMError.invalidBlockAlign(blockAlign: 4, channelCount: 2)) {
            try IMAADPCMWaveLayout(channelCount: 2, blockAlign: 4)
        }
        #expect(throws: IMAADPCMError.invalidBlockAlign(blockAlign: 65540, channelCount: 1)) {
            try IMAADPCMWaveLayout(channelCount: 1, blockAlign: 65540)
        }
        #expect(throws: IMAADPCMError.invalidChannelCount(0)) { try IMAADPCMWaveLayout(channelCount: 0, blockAlign: 256) }
        #expect(throws: IMAADPCMError.invalidChannelCount(0)) { try IMA4Decoder(channelCount: 0) }
        #expect(throws: IMAADPCMError.invalidChannelCount(-1)) { try IMA4Encoder(channelCount: -1) }
    }

    /// The `ima4` header keeps the predictor's top 9 bits; a decoder in step with the header keeps its full
    /// predictor, a header out of step (other step index, or predictor more than 127 away) resets it.
    @Test func ima4HeaderContinuity() throws {
        let tone = (0..<64).map { Int16((3000 * sin(2 * Double.pi * 500 * Double($0) / 8000)).rounded()) }
        let first = try Self.encodeIMA4(tone, channels: 1)
        let decoder = try IMA4Decoder(channelCount: 1)
        var out = [Int16](repeating: 0, count: 64)
        try first.withUnsafeBytes { i in
            try out.withUnsafeMutableBufferPointer { o in _ = try decoder.decode(i, into: o) }
        }
        let after = decoder.state(ofChannel: 0)
        #expect(after.predictor == Int32(out[63]))
        // The signal is chosen so that the truncated header would lose bits, and the probes stay in range.
        try #require(after.predictor & 0x7F != 0 && after.stepIndex > 0 && abs(after.predictor) < 30_000)

        func decodeNext(header: UInt16) throws -> Int16 {
            var packet = [UInt8](repeating: 0, count: 34)   // code 0: +step/8
            packet[0] = UInt8(header >> 8)
            packet[1] = UInt8(header & 0xFF)
            let probe = try IMA4Decoder(channelCount: 1)
            var scratch = [Int16](repeating: 0, count: 64)
            try first.withUnsafeBytes { i in
                try scratch.withUnsafeMutableBufferPointer { o in _ = try probe.decode(i, into: o) }
            }
            try packet.withUnsafeBytes { i in
                try scratch.withUnsafeMutableBufferPointer { o in _ = try probe.decode(i, into: o) }
            }
            return scratch[0]
        }
        let step = IMAADPCM.stepSizes[Int(after.stepIndex)]
        let inStep = UInt16(truncatingIfNeeded: after.predictor) & 0xFF80 | UInt16(after.stepIndex)
        #expect(try decodeNext(header: inStep) == Int16(after.predictor + step >> 3))
        let truncated = Int32(Int16(bitPattern: inStep & 0xFF80))
        let otherIndex = UInt16(truncatingIfNeeded: after.predictor) & 0xFF80 | UInt16(after.stepIndex - 1)
        #expect(try decodeNext(header: otherIndex) == Int16(truncated + IMAADPCM.stepSizes[Int(after.stepIndex) - 1] >> 3))
        let farAway = (inStep &+ 0x100)
        #expect(try decodeNext(header: farAway) == Int16(truncated + 256 + step >> 3))
    }

    // MARK: Malformed input

    @Test func waveDecoderRejectsMalformedBlocks() throws {
        let layout = try IMAADPCMWaveLayout(channelCount: 2, blockAlign: 64)
        let signal = Support.testSignal(frames: 3 * layout.framesPerBlock, channels: 2, sampleRate: 8000, seed: 9)
        var blocks = try Self.encodeWave(signal, layout: layout)
        let reference = try Self.decodeWave(blocks, layout: layout)
        let decoder = IMAADPCMWaveDecoder(layout: layout)
        var out = [Int16](repeating: 0, count: signal.count)

        func decode(_ bytes: ArraySlice<UInt8>, capacity: Int? = nil) throws -> Int {
            try Array(bytes).withUnsafeBytes { i in
                try out.withUnsafeMutableBufferPointer { o in
                    try decoder.decode(i, into: .init(rebasing: o[0..<(capacity ?? o.count)]))
                }
            }
        }
        #expect(throws: IMAADPCMError.truncatedPacket(byteCount: 127, packetSize: 64)) { try decode(blocks[0..<127]) }
        #expect(throws: IMAADPCMError.truncatedPacket(byteCount: 10, packetSize: 64)) { try decode(blocks[0..<10]) }
        #expect(throws: IMAADPCMError.outputTooSmall(needed: 2 * layout.framesPerBlock * 2, available: 100)) {
            try decode(blocks[0..<128], capacity: 100)
        }
        #expect(try decode(blocks[0..<0]) == 0)
        blocks[2 * 64 + 4 + 2] = 89   // block 2, channel 1's step index
        out = [Int16](repeating: 0, count: signal.count)
        #expect(throws: IMAADPCMError.invalidStepIndex(89, channel: 1, packet: 2)) { try decode(blocks[...]) }
        let decodedBefore = 2 * layout.framesPerBlock * 2
        #expect(Array(out[0..<decodedBefore]) == Array(reference[0..<decodedBefore]))
        #expect(out[decodedBefore...].allSatisfy { $0 == 0 })
    }

    @Test func ima4DecoderRejectsMalformedPackets() throws {
        let signal = Support.testSignal(frames: 4 * 64, channels: 2, sampleRate: 8000, seed: 11)
        var packets = try Self.encodeIMA4(signal, channels: 2)
        let decoder = try IMA4Decoder(channelCount: 2)
        var out = [Int16](repeating: 0, count: signal.count)
        func decode(_ bytes: [UInt8]) throws -> Int {
            try bytes.withUnsafeBytes { i in
                try out.withUnsafeMutableBufferPointer { o in try decoder.decode(i, into: o) }
            }
        }
        #expect(throws: IMAADPCMError.truncatedPacket(byteCount: 67, packetSize: 68)) { try decode(Array(packets[0..<67])) }
        #expect(throws: IMAADPCMError.outputTooSmall(needed: 5 * 64 * 2, available: signal.count)) {
            try decode(packets + packets[0..<68])
        }
        packets[3 * 68 + 34 + 1] = 0x59   // packet 3, channel 1: step index 89
        #expect(throws: IMAADPCMError.invalidStepIndex(89, channel: 1, packet: 3)) { try decode(packets) }
        packets[3 * 68 + 34 + 1] = 0x7F
        decoder.reset()
        #expect(throws: IMAADPCMError.invalidStepIndex(127, channel: 1, packet: 3)) { try decode(packets) }
    }

    /// Seeded garbage of every length never crashes either decoder: it decodes or throws.
    @Test func decodersSurviveGarbage() throws {
        var generator = Support.SplitMix64(seed: 0xBAD)
        let ima4 = try IMA4Decoder(channelCount: 2)
        let wave = try IMAADPCMWaveDecoder(channelCount: 2, blockAlign: 72)
        var out = [Int16](repeating: 0, count: 4096)
        var decodedCount = 0
        var errorCount = 0
        for _ in 0..<2000 {
            let length = Int(generator.next() % 400)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if generator.next() % 2 == 0 {   // half the time make the headers plausible
                for i in stride(from: 1, to: length, by: 34) { bytes[i] &= 0x3F }
                for i in stride(from: 2, to: length, by: 4) { bytes[i] %= 89 }
            }
            for attempt in 0..<2 {
                do {
                    try bytes.withUnsafeBytes { i in
                        try out.withUnsafeMutableBufferPointer { o in
                            if attempt == 0 { _ = try ima4.decode(i, into: o) } else { _ = try wave.decode(i, into: o) }
                        }
                    }
                    decodedCount += 1
                } catch {
                    errorCount += 1
                }
            }
        }
        #expect(decodedCount > 0 && errorCount > 0)
    }

    @Test func encodersRejectPartialPacketsAndSmallOutputs() throws {
        let ima4 = try IMA4Encoder(channelCount: 2)
        let wave = try IMAADPCMWaveEncoder(channelCount: 1, blockAlign: 36)   // 65 frames per block
        let samples = [Int16](repeating: 100, count: 130)
        var bytes = [UInt8](repeating: 0, count: 1000)
        #expect(throws: IMAADPCMError.partialPacketOfFrames(frameCount: 65, framesPerPacket: 64)) {
            try samples.withUnsafeBufferPointer { i in
                try bytes.withUnsafeMutableBytes { o in try ima4.encode(i, into: o) }
            }
        }
        #expect(throws: IMAADPCMError.outputTooSmall(needed: 72, available: 50)) {
            try samples.withUnsafeBufferPointer { i in
                try bytes.withUnsafeMutableBytes { o in try wave.encode(i, into: .init(rebasing: o[0..<50])) }
            }
        }
        #expect(throws: IMAADPCMError.partialPacketOfFrames(frameCount: 129, framesPerPacket: 65)) {
            try samples.withUnsafeBufferPointer { i in
                try bytes.withUnsafeMutableBytes { o in try wave.encode(.init(rebasing: i[0..<129]), into: o) }
            }
        }
        #expect(try samples.withUnsafeBufferPointer { i in
            try bytes.withUnsafeMutableBytes { o in try wave.encode(i, into: o) }
        } == 72)
    }
}
