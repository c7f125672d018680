import HAL
import Synchronization

/// How long each period's render took on the render thread, in 1 µs buckets up to `bucketCount` µs (longer
/// ones land in the last bucket; the exact worst is kept apart): what a real-time budget is judged by (the
/// worst and the 99.9th percentile against the period's length).
///
/// Written only by the render thread, into memory allocated here, with the clock read through the vDSO
/// (`clock_gettime(CLOCK_MONOTONIC)` makes no system call); read by the control thread only after the
/// thread has been joined (`RenderEngine.renderTimes`).
public final class RenderTimeHistogram: @unchecked Sendable {
    /// Periods of up to 10 ms are binned exactly (a 480-frame period at 48 kHz is 10 ms).
    public static let bucketCount = 10_000

    private let buckets: UnsafeMutablePointer<Int>
    private let clock = SystemClock()
    private var started: Int64 = 0
    private var worst: Int64 = 0
    /// The live reading (`live`): stored by the render thread with relaxed atomics, read by anyone.
    private let liveWorst = Atomic<Int64>(0)
    private let liveTotal = Atomic<Int64>(0)
    private let liveCount = Atomic<Int>(0)

    public init() {
        buckets = .allocate(capacity: Self.bucketCount)
        buckets.initialize(repeating: 0, count: Self.bucketCount)
    }

    deinit { buckets.deallocate() }

    /// Render thread: a period's render begins.
    @inline(__always)
    func begin() {
        started = clock.now.nanoseconds
    }

    /// Render thread: the period's render has ended.
    @inline(__always)
    func end() {
        record(nanoseconds: clock.now.nanoseconds &- started)
    }

    /// Adds one period that took `nanoseconds`.
    func record(nanoseconds: Int64) {
        let microseconds = Int(max(0, nanoseconds) / 1000)
        buckets[min(microseconds, Self.bucketCount - 1)] &+= 1
        if nanoseconds > worst {
            worst = nanoseconds
            liveWorst.store(nanoseconds, ordering: .relaxed)
        }
        liveTotal.wrappingAdd(max(0, nanoseconds), ordering: .relaxed)
        liveCount.wrappingAdd(1, ordering: .relaxed)
    }

    /// Control thread, render thread stopped: forgets what was recorded.
    func reset() {
        buckets.update(repeating: 0, count: Self.bucketCount)
        worst = 0
        liveWorst.store(0, ordering: .relaxed)
        liveTotal.store(0, ordering: .relaxed)
        liveCount.store(0, ordering: .relaxed)
    }

    /// While the render thread runs: the worst and the mean render time so far, from atomics it updates
    /// (no lock; the two may be a period apart).
    public var live: Live {
        let count = liveCount.load(ordering: .relaxed)
        let total = liveTotal.load(ordering: .relaxed)
        return Live(periods: count, worstNanoseconds: liveWorst.load(ordering: .relaxed),
                    meanNanoseconds: count > 0 ? total / Int64(count) : 0)
    }

    /// A reading taken while rendering.
    public struct Live: Sendable, Equatable {
        public var periods: Int
        public var worstNanoseconds: Int64
        public var meanNanoseconds: Int64
    }

    /// What was recorded, summarised.
    public var summary: Summary {
        var count = 0
        for index in 0..<Self.bucketCount { count += buckets[index] }
        return Summary(periods: count, worstNanoseconds: worst, median: upperBound(of: 0.5, count: count),
                       percentile999: upperBound(of: 0.999, count: count))
    }

    /// The smallest whole number of microseconds that at least `fraction` of the periods took no longer than
    /// (a bucket's upper edge).
    private func upperBound(of fraction: Double, count: Int) -> Int {
        guard count > 0 else { return 0 }
        let needed = Int((fraction * Double(count)).rounded(.up))
        var seen = 0
        for index in 0..<Self.bucketCount {
            seen += buckets[index]
            if seen >= needed { return index + 1 }
        }
        return Self.bucketCount
    }

    /// Render times per period.
    public struct Summary: Sendable, Equatable {
        public var periods: Int
        public var worstNanoseconds: Int64
        /// Upper edges (µs) of the buckets holding the median and the 99.9th percentile.
        public var median: Int
        public var percentile999: Int
    }
}
