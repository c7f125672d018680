import Benchmark
import Codec8_24

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    let frames = 4096
    Benchmark("convert Int16 -> 8.24 (4096 samples)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let source = UnsafeMutableBufferPointer<Int16>.allocate(capacity: frames)
        let target = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: frames)
        source.initialize(repeating: 1234)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            SampleConversion.widen(UnsafeBufferPointer(source), into: target)
            blackHole(target[17])
        }
        benchmark.stopMeasurement()
    }
}
