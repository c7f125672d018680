import Benchmark
import Codec8_24

func conversionBenchmarks() {
    func widen<S: LinearPCMSample>(_ name: String, _ zero: S) {
        Benchmark("convert \(name) -> 8.24 [\(stereoSamples) samples]") { benchmark in
            let source = buffer(stereoSamples, zero)
            let wide = noiseBuffer(stereoSamples)
            SampleConversion.narrow(UnsafeBufferPointer(wide), into: source)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                SampleConversion.widen(UnsafeBufferPointer(source), into: wide)
                blackHole(wide[17])
            }
        }
        Benchmark("convert 8.24 -> \(name) [\(stereoSamples) samples]") { benchmark in
            let target = buffer(stereoSamples, zero)
            let wide = noiseBuffer(stereoSamples)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                SampleConversion.narrow(UnsafeBufferPointer(wide), into: target)
                blackHole(target[17])
            }
        }
    }
    widen("Int16", Int16(0))
    widen("S24 packed", PackedInt24(value: 0))
    widen("S24 in 32", Int24In32(value: 0))
    widen("Int32", Int32(0))
    widen("Float32", Float(0))
    widen("Float64", Double(0))

    Benchmark("deinterleave Int16 stereo -> 8.24 planes [\(stereoSamples) samples]") { benchmark in
        let source = buffer(stereoSamples, Int16(100))
        let planes = [noiseBuffer(periodFrames), noiseBuffer(periodFrames)]
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            planes.withUnsafeBufferPointer { SampleConversion.deinterleave(UnsafeBufferPointer(source), into: $0) }
            blackHole(planes[1][9])
        }
    }

    Benchmark("interleave 8.24 planes -> Int16 stereo [\(stereoSamples) samples]") { benchmark in
        let target = buffer(stereoSamples, Int16(0))
        let planes = [UnsafeBufferPointer(noiseBuffer(periodFrames)), UnsafeBufferPointer(noiseBuffer(periodFrames))]
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            planes.withUnsafeBufferPointer { SampleConversion.interleave($0, into: target) }
            blackHole(target[9])
        }
    }

    for shaping in Ditherer.NoiseShaping.allCases {
        Benchmark("dither TPDF to 16 bits, shaping \(shaping) [\(stereoSamples) samples]") { benchmark in
            let source = noiseBuffer(stereoSamples)
            let work = buffer(stereoSamples, Fixed824.zero)
            var ditherer = Ditherer(depth: .bits16, shaping: shaping, channelCount: 2)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                _ = work.update(fromContentsOf: source)
                ditherer.process(work)
                blackHole(work[5])
            }
        }
    }
}
