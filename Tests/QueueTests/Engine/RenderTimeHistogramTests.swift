import HAL
import Testing
@testable import Queue

/// The render-time histogram's summary, from times given by hand: percentiles are bucket upper edges
/// (1 µs buckets), counted as the nearest-rank percentile is defined (the smallest value with at least
/// p·N of the samples at or below it).
@Suite
struct RenderTimeHistogramTests {
    @Test func medianPercentileAndWorstFollowTheNearestRankDefinition() {
        let histogram = RenderTimeHistogram()
        // 998 periods of 10.5 µs, one of 250 µs, one of 3.2 ms: N = 1000.
        for _ in 0..<998 { histogram.record(nanoseconds: 10_500) }
        histogram.record(nanoseconds: 250_000)
        histogram.record(nanoseconds: 3_200_000)
        let summary = histogram.summary
        #expect(summary.periods == 1000)
        #expect(summary.median == 11)                  // rank 500 falls in the 10...11 µs bucket
        #expect(summary.percentile999 == 251)          // rank ceil(0.999 x 1000) = 999: the 250 µs period
        #expect(summary.worstNanoseconds == 3_200_000)
    }

    @Test func longerThanTheLastBucketStillCountsAndKeepsItsExactWorst() {
        let histogram = RenderTimeHistogram()
        histogram.record(nanoseconds: 50_000_000)     // 50 ms: past the 10 ms of buckets
        #expect(histogram.summary.periods == 1)
        #expect(histogram.summary.median == RenderTimeHistogram.bucketCount)
        #expect(histogram.summary.worstNanoseconds == 50_000_000)
        histogram.reset()
        #expect(histogram.summary == RenderTimeHistogram.Summary(periods: 0, worstNanoseconds: 0, median: 0, percentile999: 0))
    }

    @Test func theEngineTimesEveryPeriodItRendersAndStartsAfresh() throws {
        let hardware = SimulatedPCMHardware(name: "sim", formats: [.s16LE], rates: [48000], channels: 2...2)
        let pcm = try SimulatedPCM(hardware: hardware, direction: .playback,
                                   configuration: PCMConfiguration(format: .s16LE, rate: 48000, channels: 2,
                                                                   periodFrames: 256, periodCount: 2),
                                   clock: ManualClock(skipsSleeps: true), playback: .discard)
        let engine = try RenderEngine(output: pcm, input: nil,
                                      configuration: RenderEngine.Configuration(realtimePriority: nil, locksMemory: false))
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<50 { try loop.period() }
        #expect(engine.renderTimes?.periods == 50)
        #expect((engine.renderTimes?.worstNanoseconds ?? 0) > 0)
        loop.prepareToStart()
        #expect(engine.renderTimes?.periods == 0)
    }
}
