import Benchmark
import Codec8_24

func resampleBenchmarks() {
    let pairs: [(StandardSampleRate, StandardSampleRate)] = [
        (.hz44100, .hz48000), (.hz48000, .hz44100), (.hz16000, .hz48000), (.hz48000, .hz16000), (.hz96000, .hz44100),
    ]
    for (from, to) in pairs {
        // Measured per input sample: a stereo period of input, all of it consumed each time.
        Benchmark("resample \(from.hertz) -> \(to.hertz) stereo [\(stereoSamples) samples]") { benchmark in
            let converter = SampleRateConverter(from: from, to: to, channels: 2)
            let source = noiseBuffer(stereoSamples)
            let outFrames = converter.maximumOutputFrames(forInputFrames: periodFrames)
            let target = buffer(outFrames * 2, Fixed824.zero)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let (consumed, produced) = converter.process(input: UnsafeBufferPointer(source), output: target)
                blackHole(consumed + produced)
            }
        }
    }
}
