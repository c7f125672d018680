import Foundation
import Testing
@testable import Codec8_24

/// Fills the mixer's staging buffers from per-input arrays (frames × channels each, starting at `frame`).
private func stage(_ mixer: Mixer, _ inputs: [[Fixed824]], frame: Int, frames: Int) {
    for (input, samples) in inputs.enumerated() where mixer.isPulled(input: input) {
        let channels = mixer.channelCount(input: input)
        let buffer = mixer.inputBuffer(input)
        for index in 0..<(frames * channels) { buffer[index] = samples[frame * channels + index] }
    }
}

private func render(_ mixer: Mixer, _ inputs: [[Fixed824]], frame: Int = 0, frames: Int) -> [Fixed824] {
    stage(mixer, inputs, frame: frame, frames: frames)
    var output = [Fixed824](repeating: Fixed824(raw: 12345), count: 2 * frames)
    output.withUnsafeMutableBufferPointer { mixer.render(frames: frames, into: $0) }
    return output
}

private func constant(_ value: Double, frames: Int, channels: Int) -> [Fixed824] {
    [Fixed824](repeating: Fixed824(value), count: frames * channels)
}

@Suite("Stereo mixer")
struct MixerTests {
    @Test func sumWithVolumesMatchesADoubleReference() {
        let layout = [1, 2, 2, 1, 2]
        let frames = 1024
        var random = OutputStageRandom(seed: 11)
        let inputs = layout.map { channels in (0..<frames * channels).map { _ in random.sample(amplitude: 1.0) } }
        let volumes = [0.5, 1.0, 0.1234, 3.0, 0.7071].map { Fixed824($0) }
        let mixer = Mixer(inputChannels: layout, maximumFrames: frames, rampFrames: 0)
        for (input, volume) in volumes.enumerated() { mixer.setVolume(volume, input: input) }
        mixer.setMasterVolume(Fixed824(0.6))
        let output = render(mixer, inputs, frames: frames)
        var worst = 0.0
        for frame in 0..<frames {
            for channel in 0..<2 {
                var sum = 0.0
                for (input, channels) in layout.enumerated() {
                    let x = inputs[input][frame * channels + (channels == 1 ? 0 : channel)].doubleValue
                    sum += x * volumes[input].doubleValue
                }
                let reference = sum * Fixed824(0.6).doubleValue * 16_777_216
                worst = max(worst, abs(Double(output[2 * frame + channel].raw) - reference))
            }
        }
        #expect(worst <= 1.0, "worst error \(worst) LSB")
    }

    @Test func rampingVolumesAndMasterMatchADoubleReference() {
        let layout = [2, 1]
        let frames = 600
        var random = OutputStageRandom(seed: 12)
        let inputs = layout.map { channels in (0..<frames * channels).map { _ in random.sample(amplitude: 2.0) } }
        let mixer = Mixer(inputChannels: layout, maximumFrames: frames, rampFrames: 400, volumeRampShape: .exponential)
        mixer.setVolume(Fixed824(0.25), input: 0)
        mixer.setVolume(Fixed824(4.0), input: 1)
        mixer.setMasterVolume(Fixed824(0.5))
        // The reference gains come from ramps set up the same way.
        var ramps = [GainRamp(), GainRamp()], master = GainRamp()
        ramps[0].ramp(to: Fixed824(0.25), frames: 400, shape: .exponential)
        ramps[1].ramp(to: Fixed824(4.0), frames: 400, shape: .exponential)
        master.ramp(to: Fixed824(0.5), frames: 400, shape: .exponential)
        let output = render(mixer, inputs, frames: frames)
        var worst = 0.0
        for frame in 0..<frames {
            let g0 = ramps[0].nextGain().doubleValue, g1 = ramps[1].nextGain().doubleValue
            let m = master.nextGain().doubleValue
            for channel in 0..<2 {
                let sum = inputs[0][2 * frame + channel].doubleValue * g0 + inputs[1][frame].doubleValue * g1
                worst = max(worst, abs(Double(output[2 * frame + channel].raw) - sum * m * 16_777_216))
            }
        }
        #expect(worst <= 1.0, "worst error \(worst) LSB")
    }

    @Test func aSingleUnityInputPassesBitExact() {
        var random = OutputStageRandom(seed: 13)
        let stereo = (0..<512).map { _ in random.sample(amplitude: 127) }
        let mixer = Mixer(inputChannels: [2], maximumFrames: 256)
        #expect(render(mixer, [stereo], frames: 256) == stereo)
        let mono = (0..<256).map { _ in random.sample(amplitude: 127) }
        let monoMixer = Mixer(inputChannels: [1], maximumFrames: 256)
        #expect(render(monoMixer, [mono], frames: 256) == mono.flatMap { [$0, $0] })
    }

    @Test func intermediateSumsBeyondTheRangeAreNotClipped() {
        let frames = 64
        // +100 + +100 passes +128 on the way (inputs are summed in order); −75 − 75 brings the total back to +50.
        let mixer = Mixer(inputChannels: [1, 2, 1, 2], maximumFrames: frames)
        let inputs = [constant(100, frames: frames, channels: 1), constant(100, frames: frames, channels: 2),
                      constant(-75, frames: frames, channels: 1), constant(-75, frames: frames, channels: 2)]
        let fifty = render(mixer, inputs, frames: frames)
        #expect(fifty.allSatisfy { $0 == Fixed824(50.0) }, "\(fifty[0...3])")

        // 3 × 100 = 300 is out of range, but the master volume of 0.25 brings it to 75: no clip before it.
        let loud = Mixer(inputChannels: [1, 1, 1], maximumFrames: frames, rampFrames: 0)
        loud.setMasterVolume(Fixed824(0.25))
        let hundreds = [[Fixed824]](repeating: constant(100, frames: frames, channels: 1), count: 3)
        #expect(render(loud, hundreds, frames: frames).allSatisfy { $0 == Fixed824(75.0) })
    }

    @Test func theOutputSaturatesAtThe824Range() {
        let frames = 32
        let mixer = Mixer(inputChannels: [1, 1, 1], maximumFrames: frames, rampFrames: 0)
        let up = [[Fixed824]](repeating: constant(100, frames: frames, channels: 1), count: 3)
        #expect(render(mixer, up, frames: frames).allSatisfy { $0 == .max })
        let down = [[Fixed824]](repeating: constant(-100, frames: frames, channels: 1), count: 3)
        #expect(render(mixer, down, frames: frames).allSatisfy { $0 == .min })
        // The extreme: 64 inputs at the 8.24 maximum with +42 dB volumes and master: still no wrap.
        let wide = Mixer(inputChannels: [Int](repeating: 2, count: 64), maximumFrames: frames, rampFrames: 0)
        for input in 0..<64 { wide.setVolume(.max, input: input) }
        wide.setMasterVolume(.max)
        let extremes = [[Fixed824]](repeating: [Fixed824](repeating: .max, count: 2 * frames), count: 64)
        #expect(render(wide, extremes, frames: frames).allSatisfy { $0 == .max })
        let negatives = [[Fixed824]](repeating: [Fixed824](repeating: .min, count: 2 * frames), count: 64)
        #expect(render(wide, negatives, frames: frames).allSatisfy { $0 == .min })
    }

    @Test func disableAndEnableFadeWithoutAStep() {
        let ramp = 256, frames = 512
        let mixer = Mixer(inputChannels: [1, 2], maximumFrames: frames, rampFrames: ramp)
        let inputs = [constant(1.0, frames: frames, channels: 1), constant(0, frames: frames, channels: 2)]
        #expect(render(mixer, inputs, frames: frames).allSatisfy { $0 == .one })
        mixer.setEnabled(false, input: 0)
        #expect(!mixer.isEnabled(input: 0) && mixer.isPulled(input: 0))        // still fading out
        let fade = render(mixer, inputs, frames: frames)
        let bound = Double(Fixed824.unityRaw) / Double(ramp) + 1
        var previous = Fixed824.one.raw
        for frame in 0..<frames {
            let left = fade[2 * frame].raw
            #expect(left == fade[2 * frame + 1].raw)
            #expect(left <= previous && Double(previous - left) <= bound, "step at \(frame)")
            previous = left
        }
        #expect(fade[2 * (ramp - 1)] == .zero && fade[(2 * ramp)...].allSatisfy { $0 == .zero })
        #expect(!mixer.isPulled(input: 0))

        mixer.setEnabled(true, input: 0)
        #expect(mixer.isPulled(input: 0))
        let rise = render(mixer, inputs, frames: frames)
        previous = 0
        for frame in 0..<frames {
            let left = rise[2 * frame].raw
            #expect(left >= previous && Double(left - previous) <= bound, "step at \(frame)")
            previous = left
        }
        #expect(rise[2 * (ramp - 1)] == .one)
    }

    @Test func aVolumeChangeRampsWithoutAStep() {
        let frames = 1000
        let mixer = Mixer(inputChannels: [2], maximumFrames: frames, rampFrames: 480, volumeRampShape: .exponential)
        let input = [constant(0.5, frames: frames, channels: 2)]
        _ = render(mixer, input, frames: frames)
        mixer.setVolume(Fixed824(0.05), input: 0)                   // −26 dB
        let output = render(mixer, input, frames: frames)
        let ratio = pow(Fixed824(0.05).doubleValue, 1.0 / 480)     // constant dB per frame
        var previous = Fixed824(0.5).raw
        for frame in 0..<frames {
            let value = output[2 * frame].raw
            #expect(value <= previous && Double(previous) * (1 - ratio) + 1 >= Double(previous - value), "frame \(frame)")
            previous = value
        }
        #expect(output[2 * 479] == Fixed824(0.5) * Fixed824(0.05))
        #expect(mixer.volume(input: 0) == Fixed824(0.05) && mixer.currentGain(input: 0) == Fixed824(0.05))
    }

    @Test func aDisabledFadedInputIsNotRead() {
        let frames = 128
        let mixer = Mixer(inputChannels: [2, 1, 2], maximumFrames: frames, rampFrames: 16)
        var random = OutputStageRandom(seed: 14)
        let music = (0..<2 * frames).map { _ in random.sample(amplitude: 0.5) }
        let voice = (0..<frames).map { _ in random.sample(amplitude: 0.5) }
        let silentStereo = constant(0, frames: frames, channels: 2)
        mixer.setEnabled(false, input: 2)
        _ = render(mixer, [music, voice, silentStereo], frames: frames)          // fade-out of input 2 completes
        #expect(!mixer.isPulled(input: 2) && mixer.isPulled(input: 0) && mixer.isPulled(input: 1))
        #expect(mixer.framesPulled(input: 2) == frames && mixer.framesPulled(input: 0) == frames)

        let expected = render(mixer, [music, voice, silentStereo], frames: frames)
        // Now the disabled input's buffer holds the largest values 8.24 has: they must not reach the output.
        let garbage = mixer.inputBuffer(2)
        for index in garbage.indices { garbage[index] = .max }
        var output = [Fixed824](repeating: .zero, count: 2 * frames)
        stage(mixer, [music, voice, silentStereo], frame: 0, frames: frames)   // skips input 2: not pulled
        output.withUnsafeMutableBufferPointer { mixer.render(frames: frames, into: $0) }
        #expect(output == expected)
        #expect(garbage.allSatisfy { $0 == .max })

        // Same through caller-owned pointers: a pointer to huge values for the disabled input changes nothing.
        let huge = [Fixed824](repeating: .max, count: 2 * frames)
        music.withUnsafeBufferPointer { m in
            voice.withUnsafeBufferPointer { v in
                huge.withUnsafeBufferPointer { h in
                    let pointers: [UnsafePointer<Fixed824>?] = [m.baseAddress, v.baseAddress, h.baseAddress]
                    pointers.withUnsafeBufferPointer { list in
                        output.withUnsafeMutableBufferPointer { mixer.render(frames: frames, inputs: list, into: $0) }
                    }
                }
            }
        }
        #expect(output == expected)
        // Four renders: inputs 0 and 1 were read every time, input 2 only during its fade-out.
        #expect(mixer.framesPulled(input: 0) == 4 * frames && mixer.framesPulled(input: 1) == 4 * frames)
        #expect(mixer.framesPulled(input: 2) == frames)
        mixer.setEnabled(true, input: 2)
        #expect(mixer.isPulled(input: 2))
        _ = render(mixer, [music, voice, silentStereo], frames: frames)
        #expect(mixer.framesPulled(input: 2) == 2 * frames)

        // And a nil pointer for a pulled input is silence: only input 0 is heard.
        let onlyMusic = Mixer(inputChannels: [2, 1], maximumFrames: frames)
        music.withUnsafeBufferPointer { m in
            let pointers: [UnsafePointer<Fixed824>?] = [m.baseAddress, nil]
            pointers.withUnsafeBufferPointer { list in
                output.withUnsafeMutableBufferPointer { onlyMusic.render(frames: frames, inputs: list, into: $0) }
            }
        }
        #expect(output == music)
    }

    @Test func streamingInRandomBufferSizesMatchesOneCall() {
        let layout = [1, 2, 2, 1]
        let frames = 6000, maximum = 6000
        var random = OutputStageRandom(seed: 0xABCDEF)
        let inputs = layout.map { channels in (0..<frames * channels).map { _ in random.sample(amplitude: 40) } }
        // Parameter changes land on these frames in every run.
        let events: [(frame: Int, apply: (Mixer) -> Void)] = [
            (0, { $0.setVolume(Fixed824(0.3), input: 1) }),
            (700, { $0.setEnabled(false, input: 0) }),
            (1500, { $0.setMasterVolume(Fixed824(2.0)); $0.setVolume(.zero, input: 3) }),
            (2222, { $0.setEnabled(false, input: 2) }),
            (3000, { $0.setEnabled(true, input: 0); $0.setVolume(Fixed824(1.5), input: 2) }),
            (4100, { $0.setEnabled(true, input: 2); $0.setVolume(Fixed824(0.9), input: 3) }),
        ]
        func run(maximumBuffer: Int?) -> [Fixed824] {
            let mixer = Mixer(inputChannels: layout, maximumFrames: maximum, rampFrames: 333, volumeRampShape: .exponential)
            var splitter = OutputStageRandom(seed: 99)
            var output: [Fixed824] = []
            var frame = 0
            for (index, event) in events.enumerated() {
                event.apply(mixer)
                let end = index + 1 < events.count ? events[index + 1].frame : frames
                let sizes = maximumBuffer.map { splitter.split(end - frame, maximum: $0) } ?? [end - frame]
                for size in sizes {
                    output += render(mixer, inputs, frame: frame, frames: size)
                    frame += size
                }
            }
            return output
        }
        let whole = run(maximumBuffer: nil)
        #expect(whole.count == 2 * frames)
        #expect(run(maximumBuffer: 512) == whole)
        #expect(run(maximumBuffer: 3) == whole)
    }
}
