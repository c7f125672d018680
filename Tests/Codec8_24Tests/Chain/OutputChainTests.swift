import Testing
@testable import Codec8_24

/// The output chain stage by stage, each against a reference from outside the chain: closed-form values, the
/// stage's own type run alone (its contract is tested in its own suite), or a rule stated beside the test.
@Suite("Output chain")
struct OutputChainTests {
    static let rate = 48_000.0
    static let block = 480

    /// A chain with every optional stage off unless asked for: one stereo input, flat EQ, settled gains.
    static func configuration(
        inputs: [Int] = [2], outputChannels: Int = 2, softwareEQ: Bool = true, limiter: Bool = false,
        dither: Ditherer.Depth? = nil, preset: EQPreset = .flat, gainRampFrames: Int = 0
    ) -> OutputChain.Configuration {
        OutputChain.Configuration(
            sampleRate: rate, maximumFrames: block, inputChannels: inputs, outputChannels: outputChannels,
            softwareEQ: softwareEQ, limiter: limiter, dither: dither, preset: preset, gainRampFrames: gainRampFrames)
    }

    /// Feeds `input` (interleaved, the chain's single input) through `chain` in blocks of `block` frames into
    /// 8.24 device samples; `before(frame)` runs on the control side before each block.
    static func run(
        _ chain: OutputChain, _ input: [Fixed824], before: (Int) -> Void = { _ in }
    ) -> [Fixed824] {
        let inChannels = chain.mixer.channelCount(input: 0)
        let frames = input.count / inChannels
        let outChannels = chain.configuration.outputChannels
        var output = [Fixed824](repeating: .zero, count: frames * outChannels)
        output.withUnsafeMutableBufferPointer { out in
            var frame = 0
            while frame < frames {
                before(frame)
                let n = min(block, frames - frame)
                let staging = chain.mixer.inputBuffer(0)
                for i in 0..<(n * inChannels) { staging[i] = input[frame * inChannels + i] }
                chain.render(frames: n, into: out.baseAddress! + frame * outChannels)
                frame += n
            }
        }
        return output
    }

    /// Music-like stereo programme (the Equalizer suite's): bass, mid, treble, a little hiss.
    static func programme(frames: Int) -> [Fixed824] { EqualizerTests.programme(frames: frames) }

    // MARK: - Mixer -> device, everything at unity

    @Test func flatUnityChainReturnsAStereoInputBitForBit() {
        // Mixer's documented exactness at unity (Mixer.swift: s·2^24 >> 16 then ·2^24 >> 32, rounded, is s),
        // a flat EQ has no stages, unity gains leave samples untouched (GainRamp.apply): the identity.
        let input = TestSignals.noise(count: 2 * 4_000, amplitude: 1.0, seed: 3)
        let chain = OutputChain(Self.configuration())
        #expect(Self.run(chain, input) == input)
    }

    @Test func aMonoInputFeedsBothChannels() {
        // Mixer.swift: "Mono inputs feed both output channels at the input's gain".
        let input = TestSignals.noise(count: 1_000, amplitude: 0.9, seed: 4)
        let out = Self.run(OutputChain(Self.configuration(inputs: [1])), input)
        let left = (0..<1_000).map { (f: Int) -> Fixed824 in out[2 * f] }
        let right = (0..<1_000).map { (f: Int) -> Fixed824 in out[2 * f + 1] }
        #expect(left == input && right == input)
    }

    // MARK: - Gain

    @Test func aSettledFineGainScalesBySExactlyRoundSTimesG() {
        // -0.25 dB, the remainder a WM8960 leaves for -10.25 dB (WM8960 datasheet, R2/R3 LOUT1VOL 1 dB
        // steps, R10/R11 LDACVOL 0.5 dB steps): 10^(-0.25/20)·2^24 = 16301212.015 -> raw 16301212. The
        // products were worked by hand (FineGainStage's contract, round half up):
        //   1.0 -> 16301212; 0.5 -> 8150606; -1.0 -> -16301212; 1 -> 1; 3 -> 3; 1000 -> 972;
        //   123456789 -> 119954067; -7 -> -7.
        let chain = OutputChain(Self.configuration())
        chain.take(fineGain: Fixed824(raw: 16_301_212))
        let input: [Int32] = [16_777_216, 8_388_608, -16_777_216, 1, 3, 1000, 123_456_789, -7]
        let out = Self.run(chain, input.map(Fixed824.init(raw:)))
        #expect(out.map(\.raw) == [16_301_212, 8_150_606, -16_301_212, 1, 3, 972, 119_954_067, -7])
        #expect(chain.fineGainTarget == Fixed824(raw: 16_301_212))
    }

    @Test func aFineGainAboveUnityIsHeldAtUnity() {
        // The codec remainder is never a boost (FineGainStage): 1.0 + 1000 LSB plays at 1.0.
        let chain = OutputChain(Self.configuration())
        chain.take(fineGain: Fixed824(raw: Fixed824.unityRaw + 1_000))
        let input = TestSignals.noise(count: 960, amplitude: 1.0, seed: 5)
        #expect(Self.run(chain, input) == input)
    }

    @Test func aRenderGainSetBeforeRenderingHoldsFromTheFirstFrame() {
        // +6 dB = 10^(6/20) = 1.99526231...; as 8.24, round(1.99526231·2^24) = round(33474946.7) = 33474947.
        // Each output is round(s·g / 2^24), half up, computed here in integers.
        let chain = OutputChain(Self.configuration(gainRampFrames: 64))
        chain.setRenderGain(decibels: 6)
        #expect(chain.renderGainTarget.raw == 33_474_947)
        let input = TestSignals.noise(count: 2 * 1_000, amplitude: 0.5, seed: 6)
        let out = Self.run(chain, input)
        let expected = input.map { Fixed824(raw: Int32((Int64($0.raw) * 33_474_947 + (1 << 23)) >> 24)) }
        #expect(zip(out, expected).filter { $0 != $1 }.count == 0)
    }

    @Test func aRenderGainBoostSaturatesAtTheFormatsCeiling() {
        // 8.24 holds gains below 128 (+42.14 dB: 20·log10(128)); +48 dB asks for 251.19, so the multiplier is
        // the format's largest value, as `appliance render --gain 48` has always applied it.
        let chain = OutputChain(Self.configuration())
        chain.setRenderGain(decibels: 48)
        #expect(chain.renderGainTarget == .max)
    }

    @Test func aRenderGainChangeDuringRenderingRamps() {
        // GainRamp's linear shape: from 1.0 to 0.5 over 64 frames, frame k of the ramp has gain
        // 1 - 0.5·k/64, so a constant input of 0.5 falls by 0.5·0.5/64 = 2^-8 per frame (65536 LSB).
        let chain = OutputChain(Self.configuration(gainRampFrames: 64))
        let half = Fixed824(raw: 1 << 23)
        _ = Self.run(chain, [Fixed824](repeating: half, count: 2 * 10))
        chain.setRenderGain(decibels: 20 * log10Of(0.5))
        let out = Self.run(chain, [Fixed824](repeating: half, count: 2 * 100))
        let target = Int64(chain.renderGainTarget.raw)        // round(0.5·2^24), 8388608 give or take 1 LSB
        #expect(abs(target - (1 << 23)) <= 1)
        #expect(abs(Int64(out[0].raw) - ((1 << 23) - 65_536)) <= 2)
        #expect(abs(Int64(out[2 * 31].raw) - ((1 << 23) - 32 * 65_536)) <= 2)
        #expect(out[2 * 63].raw == Int32((Int64(1 << 23) * target + (1 << 23)) >> 24))
        for f in 1..<100 { #expect(abs(Int64(out[2 * f].raw) - Int64(out[2 * (f - 1)].raw)) <= 65_537) }
    }

    // MARK: - EQ

    @Test func aPresetThroughTheChainIsTheEqualizerAlone() {
        // Composition is exact: flat mixer and unity gains are identities, so the chain's output must be
        // the Equalizer's on the same input, bit for bit, including a preset change in mid-stream.
        let rock = EQPreset.named("Rock")!, jazz = EQPreset.named("Jazz")!
        let input = Self.programme(frames: 12_000)
        let chain = OutputChain(Self.configuration(preset: rock))
        let out = Self.run(chain, input) { frame in if frame == 4_800 { chain.setPreset(jazz) } }
        let reference = EqualizerTests.run(input, from: rock, to: jazz, switchFrame: 4_800, chunk: Self.block)
        #expect(out == reference)
        #expect(chain.preset == jazz)
        #expect(out != input)
    }

    @Test func presetChangesFollowOneAnotherThroughTheHandover() {
        // A second request while a fade runs waits for it (Equalizer's rule), and one not yet started is
        // replaced; the handover hands every retired cascade back. Reference: the Equalizer driven alone
        // through the same calls on the same block boundaries.
        let names = ["Rock", "Jazz", "Dance", "Bass Reducer", "Flat"]
        let presets = names.map { EQPreset.named($0)! }
        let input = Self.programme(frames: 9_600)
        let chain = OutputChain(Self.configuration())
        let schedule: [Int: [EQPreset]] = [960: [presets[0]], 1_440: [presets[1]], 2_400: [presets[2], presets[3]],
                                           2_880: [presets[4]]]
        let out = Self.run(chain, input) { frame in for p in schedule[frame] ?? [] { chain.setPreset(p) } }
        let eq = Equalizer(channels: 2, sampleRate: Self.rate, preset: .flat)
        var reference = input
        reference.withUnsafeMutableBufferPointer { buffer in
            for frame in stride(from: 0, to: 9_600, by: Self.block) {
                for p in schedule[frame] ?? [] { eq.setPreset(p) }
                eq.process(buffer.baseAddress! + 2 * frame, frames: Self.block)
            }
        }
        #expect(out == reference)
        chain.releaseRetiredPresets()
    }

    @Test func presetsSetFromAnotherThreadWhileRenderingEndOnTheLastOne() async {
        // The handover between the control side (setPreset, here on another thread, racing the renders) and
        // the render side. Whatever order the two interleave in, once both have stopped and the last fade
        // has run, the chain plays the last preset: half a second later its output is the Equalizer's with
        // that preset alone, to within 1 LSB (the Equalizer suite's settling rule), and no cascade is
        // still waiting in either direction after the control side collects.
        let names = ["Rock", "Jazz", "Dance", "Bass Reducer", "Loudness", "Latin"]
        let presets = names.map { EQPreset.named($0)! }
        let input = Self.programme(frames: 48_000)
        let chain = OutputChain(Self.configuration())
        let control = UnsafeChain(chain)
        let setter = Task.detached {
            for i in 0..<300 { control.chain.setPreset(presets[i % presets.count]) }
        }
        var rendered = 0
        while rendered < 200 {                      // renders while the setter runs (and past its end)
            _ = Self.run(chain, Array(input[0..<(2 * Self.block)]))
            rendered += 1
        }
        await setter.value
        let last = presets[299 % presets.count]
        let out = Self.run(chain, input)
        let reference = EqualizerTests.run(input, from: last, to: nil, switchFrame: 48_000)
        let settled = 2 * 24_000
        let worst = zip(out[settled...], reference[settled...]).map { abs(Int64($0.raw) - Int64($1.raw)) }.max()!
        #expect(worst <= 1, "\(worst) LSB from \(last.name) after settling")
        #expect(chain.preset == last)
        // One cascade can wait on each side of the return slot: two collections with a render between.
        chain.releaseRetiredPresets()
        _ = Self.run(chain, Array(input[0..<(2 * Self.block)]))
        chain.releaseRetiredPresets()
        #expect(chain.equalizer!.oldestRetired == nil && !chain.equalizer!.isChangingPreset)
        #expect(chain.handover.take() == nil)
    }

    @Test func aPresetChangeHasNoStepBeyondTheSignalsOwn() {
        // Bound (the Equalizer suite's, derived from the crossfade): the larger of the two presets' own
        // largest sample-to-sample steps, plus the fade's own slope, 1/480 of the largest difference between
        // the two outputs per frame, plus 1 LSB of rounding.
        let from = EQPreset.named("Bass Booster")!, to = EQPreset.named("Treble Booster")!
        let frames = 24_000, switchFrame = 9_600
        let input = Self.programme(frames: frames)
        let old = Self.run(OutputChain(Self.configuration(limiter: true, preset: from)), input)
        let new = Self.run(OutputChain(Self.configuration(limiter: true, preset: to)), input)
        let chain = OutputChain(Self.configuration(limiter: true, preset: from))
        let switched = Self.run(chain, input) { frame in if frame == switchFrame { chain.setPreset(to) } }
        let window = (switchFrame - 100)..<(switchFrame + 480 + 4_800)
        for channel in 0..<2 {
            var difference = 0.0
            for f in window {
                difference = max(difference, abs(new[2 * f + channel].doubleValue - old[2 * f + channel].doubleValue))
            }
            let bound = max(EqualizerTests.maxStep(old, channel: channel, frames: window),
                            EqualizerTests.maxStep(new, channel: channel, frames: window))
                + difference / 480 + 1.0 / 16_777_216
            let step = EqualizerTests.maxStep(switched, channel: channel, frames: window)
            #expect(step <= bound, "channel \(channel): step \(step), bound \(bound)")
        }
        #expect(Array(switched[..<(2 * switchFrame)]) == Array(old[..<(2 * switchFrame)]))
    }

    @Test func withTheCodecsHardwareEQThePresetOnlyIsRecorded() {
        // softwareEQ == false: the codec equalizes, so the samples pass the chain untouched.
        let input = Self.programme(frames: 2_400)
        let chain = OutputChain(Self.configuration(softwareEQ: false, preset: EQPreset.named("Rock")!))
        let out = Self.run(chain, input) { frame in if frame == 960 { chain.setPreset(EQPreset.named("Jazz")!) } }
        #expect(out == input)
        #expect(chain.preset == EQPreset.named("Jazz")!)
    }

    // MARK: - Limiter

    @Test func theLimiterKeepsA20dBHotInputBelowFullScale() {
        // A full-scale 1 kHz sine boosted 20 dB (peaks at 10.0, far past the codec's full scale). SoftLimiter
        // contract: every output is below the ceiling (1.0) in magnitude.
        let sine = Self.sine(frames: 4_800, frequency: 1_000, amplitude: 1.0)
        let chain = OutputChain(Self.configuration(limiter: true))
        chain.setRenderGain(decibels: 20)
        let out = Self.run(chain, sine)
        #expect(out.allSatisfy { abs(Int64($0.raw)) < Int64(Fixed824.unityRaw) })
        #expect(out.map { abs(Int64($0.raw)) }.max()! > Int64(Decibels.gain(-1).raw))   // the knee was passed
        // Without the limiter the same path goes far past full scale (so the bound above is the limiter's).
        let open = OutputChain(Self.configuration(limiter: false))
        open.setRenderGain(decibels: 20)
        #expect(Self.run(open, sine).map { abs(Int64($0.raw)) }.max()! > 9 * Int64(Fixed824.unityRaw))
    }

    // MARK: - Channel map

    @Test func stereoFoldsToMonoAsTheRoundedAverage() {
        // The average (L + R)/2 rounded half away from zero, as `appliance render` folds stereo to mono:
        // (3, 4) -> 3.5 -> 4; (-3, -4) -> -3.5 -> -4; (1, -2) -> -0.5 -> -1; (5, 5) -> 5; (-1, 0) -> -1;
        // (1.0, 0.5) -> 0.75.
        let pairs: [(Int32, Int32)] = [(3, 4), (-3, -4), (1, -2), (5, 5), (-1, 0), (16_777_216, 8_388_608)]
        let input = pairs.flatMap { [Fixed824(raw: $0.0), Fixed824(raw: $0.1)] }
        let out = Self.run(OutputChain(Self.configuration(outputChannels: 1)), input)
        #expect(out.map(\.raw) == [4, -4, -1, 5, -1, 12_582_912])
        // Against Double's rounding rule on random stereo noise.
        let noise = TestSignals.noise(count: 2 * 2_000, amplitude: 1.0, seed: 8)
        let folded = Self.run(OutputChain(Self.configuration(outputChannels: 1)), noise)
        let reference = (0..<2_000).map { f in
            Int32(((Double(noise[2 * f].raw) + Double(noise[2 * f + 1].raw)) / 2)
                .rounded(.toNearestOrAwayFromZero))
        }
        #expect(folded.map(\.raw) == reference)
    }

    @Test(arguments: [3, 4, 6, 8])
    func stereoSpreadsOverMoreChannelsWithTheRestSilent(channels: Int) {
        let input = TestSignals.noise(count: 2 * 1_000, amplitude: 1.0, seed: 9)
        let out = Self.run(OutputChain(Self.configuration(outputChannels: channels, dither: .bits16)), input)
        let dithered = Self.run(OutputChain(Self.configuration(outputChannels: 2, dither: .bits16)), input)
        for f in 0..<1_000 {
            #expect(out[f * channels] == dithered[2 * f] && out[f * channels + 1] == dithered[2 * f + 1])
            for c in 2..<channels { #expect(out[f * channels + c] == .zero) }
        }
    }

    // MARK: - Dither and device format

    @Test(arguments: [Ditherer.Depth.bits16, .bits24])
    func ditheredOutputLandsOnTheTargetGrid(depth: Ditherer.Depth) {
        // One 16-bit LSB is 2^-15 of full scale = 2^9 raw 8.24 units; one 24-bit LSB is 2^-23 = 2^1.
        let step: Int32 = depth == .bits16 ? 512 : 2
        let input = TestSignals.noise(count: 2 * 4_800, amplitude: 0.7, seed: 10)
        for channels in [1, 2, 4] {
            let out = Self.run(OutputChain(Self.configuration(outputChannels: channels, dither: depth)), input)
            #expect(out.allSatisfy { $0.raw % step == 0 }, "\(channels) channels")
            #expect(out.allSatisfy { $0.raw >= -Fixed824.unityRaw && $0.raw < Fixed824.unityRaw })
        }
        // Dither is noise, not rounding: the output is not what plain rounding to the grid gives.
        let out = Self.run(OutputChain(Self.configuration(dither: depth)), input)
        let plain = input.map { depth == .bits16 ? Fixed824(int16: $0.int16) : Fixed824(int24: $0.int24) }
        #expect(out != plain)
    }

    @Test func ditherIsTheDitherersOwnSequence() {
        // The chain's dither is Ditherer with the configured seed, on the stereo mix.
        let input = TestSignals.noise(count: 2 * 2_000, amplitude: 0.4, seed: 11)
        let out = Self.run(OutputChain(Self.configuration(dither: .bits16)), input)
        var ditherer = Ditherer(depth: .bits16, channelCount: 2, seed: 0x5EED)
        var reference = input
        reference.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 2 * Self.block) {
                ditherer.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<min(start + 2 * Self.block, buffer.count)]))
            }
        }
        #expect(out == reference)
    }

    /// Renders `input` through a fresh chain into `S` samples.
    static func runNarrowed<S: LinearPCMSample>(
        _ configuration: OutputChain.Configuration, _ input: [Fixed824], as: S.Type
    ) -> [S] {
        let chain = OutputChain(configuration)
        let frames = input.count / 2
        let channels = configuration.outputChannels
        var out = [S](repeating: S(Fixed824.zero), count: frames * channels)
        out.withUnsafeMutableBufferPointer { buffer in
            for frame in stride(from: 0, to: frames, by: block) {
                let n = min(block, frames - frame)
                let staging = chain.mixer.inputBuffer(0)
                for i in 0..<(2 * n) { staging[i] = input[2 * frame + i] }
                chain.render(frames: n, into: buffer.baseAddress! + frame * channels)
            }
        }
        return out
    }

    @Test func narrowingMatchesSampleConversion() {
        // Beyond full scale too (amplitude 1.5), so saturation is part of the comparison.
        let input = TestSignals.noise(count: 2 * 2_400, amplitude: 1.5, seed: 12)
        for channels in [1, 2, 6] {
            let config = Self.configuration(outputChannels: channels)
            let wide = Self.run(OutputChain(config), input)
            func narrowed<S: LinearPCMSample>(_: S.Type) -> [S] {
                var out = [S](repeating: S(Fixed824.zero), count: wide.count)
                wide.withUnsafeBufferPointer { w in
                    out.withUnsafeMutableBufferPointer { SampleConversion.narrow(w, into: $0) }
                }
                return out
            }
            #expect(Self.runNarrowed(config, input, as: Int16.self) == narrowed(Int16.self))
            #expect(Self.runNarrowed(config, input, as: Int24In32.self) == narrowed(Int24In32.self))
            #expect(Self.runNarrowed(config, input, as: Int32.self) == narrowed(Int32.self))
            #expect(Self.runNarrowed(config, input, as: Float.self) == narrowed(Float.self))
        }
    }

    @Test func dithered16BitNarrowsExactly() {
        // After dither every sample is a 16-bit code, so Int16 narrowing is the exact shift (raw >> 9).
        let input = TestSignals.noise(count: 2 * 2_400, amplitude: 0.9, seed: 13)
        let config = Self.configuration(limiter: true, dither: .bits16)
        let wide = Self.run(OutputChain(config), input)
        #expect(Self.runNarrowed(config, input, as: Int16.self) == wide.map { Int16($0.raw >> 9) })
    }

    // MARK: - Configuration

    @Test func invalidConfigurationsAreRefusedWithTheFieldNamed() {
        func error(_ config: OutputChain.Configuration) -> OutputChainError? {
            do throws(OutputChainError) { try config.validate(); return nil } catch { return error }
        }
        #expect(error(Self.configuration()) == nil)
        #expect(error(Self.configuration(outputChannels: 9)) == .invalidOutputChannels(9))
        #expect(error(Self.configuration(outputChannels: 0)) == .invalidOutputChannels(0))
        #expect(error(Self.configuration(inputs: [2, 3])) == .invalidInputChannels(input: 1, channels: 3))
        #expect(error(Self.configuration(inputs: [])) == .invalidInputCount(0))
        #expect(error(OutputChain.Configuration(sampleRate: 0)) == .invalidSampleRate(0))
        #expect(error(OutputChain.Configuration(maximumFrames: 0)) == .invalidMaximumFrames(0))
        #expect(error(Self.configuration(gainRampFrames: -1)) == .invalidRampFrames(-1))
        #expect(OutputChainError.invalidOutputChannels(9).description.contains("1 ... 8"))
        // The default ramp is 5 ms: 240 frames at 48 kHz.
        #expect(OutputChain.Configuration(sampleRate: 48_000).gainRampFrames == 240)
    }

    // MARK: - Helpers

    /// A stereo sine, both channels equal, from Double math.
    static func sine(frames: Int, frequency: Double, amplitude: Double) -> [Fixed824] {
        let one = Codec8_24Tests.sine(count: frames, frequency: frequency, sampleRate: rate, amplitude: amplitude)
        return one.flatMap { [$0, $0] }
    }
}

/// log10 without Foundation in this file's scope.
private func log10Of(_ x: Double) -> Double { Decibels.decibels(x) / 20 }

/// Lets a test call the control side from another thread, as the engine's control thread does.
private struct UnsafeChain: @unchecked Sendable {
    let chain: OutputChain
    init(_ chain: OutputChain) { self.chain = chain }
}
