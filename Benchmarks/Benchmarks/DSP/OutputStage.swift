import Benchmark
import Codec8_24

func outputStageBenchmarks() {
    for shape in [GainRamp.Shape.linear, .exponential] {
        Benchmark("gain ramp \(shape), stereo [\(stereoSamples) samples]") { benchmark in
            let source = noiseBuffer(stereoSamples)
            let work = buffer(stereoSamples, Fixed824.zero)
            var ramp = GainRamp(gain: Fixed824(0.1))
            var up = true
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                if !ramp.isRamping {
                    ramp.ramp(to: Fixed824(up ? 0.9 : 0.1), frames: 48_000, shape: shape)
                    up.toggle()
                }
                _ = work.update(fromContentsOf: source)
                ramp.apply(to: work, channels: 2)
                blackHole(work[3])
            }
        }
    }

    Benchmark("mixer 4 stereo inputs, ramping volumes [\(stereoSamples) samples]") { benchmark in
        let mixer = Mixer(inputChannels: [2, 2, 2, 2], maximumFrames: periodFrames)
        let sources = (0..<4).map { noiseBuffer(stereoSamples, seed: UInt64($0 + 1)) }
        let output = buffer(stereoSamples, Fixed824.zero)
        var step = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for i in 0..<4 { _ = mixer.inputBuffer(i).update(fromContentsOf: sources[i]) }
            step += 1
            mixer.setVolume(Fixed824(step & 1 == 0 ? 0.5 : 0.25), input: step & 3)
            mixer.render(frames: periodFrames, into: output)
            blackHole(output[1])
        }
    }

    Benchmark("level meter stereo [\(stereoSamples) samples]") { benchmark in
        let source = noiseBuffer(stereoSamples)
        let meter = LevelMeter(channels: 2, sampleRate: 48_000, blockFrames: periodFrames)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            meter.measure(UnsafeBufferPointer(source))
            blackHole(meter.blocksMeasured)
        }
    }

    Benchmark("soft limiter, hot signal [\(stereoSamples) samples]") { benchmark in
        let source = noiseBuffer(stereoSamples)
        for i in source.indices { source[i] = source[i] + source[i] + source[i] + source[i] }   // about +6 dBFS peaks
        let work = buffer(stereoSamples, Fixed824.zero)
        let limiter = SoftLimiter()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            _ = work.update(fromContentsOf: source)
            limiter.process(work)
            blackHole(work[7])
        }
    }
}
