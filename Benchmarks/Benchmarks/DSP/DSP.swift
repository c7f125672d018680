import Benchmark
import Codec8_24

/// Every DSP kernel, measured on one buffer per iteration. Each name ends in "[N samples]" (or "[N frames]"
/// for per-frame kernels), so `summarize.py` can turn the wall-clock median into nanoseconds per sample.
/// Goals and results are in BENCHMARKS.md.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 1_000_000
    )
    conversionBenchmarks()
    outputStageBenchmarks()
    codecBenchmarks()
    resampleBenchmarks()
    equalizerBenchmarks()
}
