import Synchronization

/// Underrun/overrun and suspend bookkeeping, written by the thread doing I/O and read by anyone (atomics,
/// no locks). Timestamps are the device's own: the frame position where the stream broke, plus the
/// monotonic time it was noticed.
public final class PCMXruns: Sendable {
    private let xrunCount = Atomic<Int>(0)
    private let suspendCount = Atomic<Int>(0)
    private let lastTimeNanoseconds = Atomic<Int64>(.min)
    private let lastFramePosition = Atomic<Int64>(.min)

    public init() {}

    /// Underruns (playback) or overruns (capture) since open.
    public var count: Int { xrunCount.load(ordering: .relaxed) }
    /// Suspends (system sleep) since open.
    public var suspends: Int { suspendCount.load(ordering: .relaxed) }

    /// When the last xrun or suspend was noticed, on the monotonic clock.
    public var lastTime: Timestamp? {
        let ns = lastTimeNanoseconds.load(ordering: .acquiring)
        return ns == .min ? nil : Timestamp(nanoseconds: ns)
    }

    /// The stream's frame position (frames played or captured) at the last xrun or suspend.
    public var lastFrame: Int64? {
        let frame = lastFramePosition.load(ordering: .acquiring)
        return frame == .min ? nil : frame
    }

    /// A snapshot for status lines and tests.
    public var report: PCMXrunReport {
        PCMXrunReport(count: count, suspends: suspends, lastTime: lastTime, lastFrame: lastFrame)
    }

    func recordXrun(at time: Timestamp, frame: Int64) {
        lastFramePosition.store(frame, ordering: .releasing)
        lastTimeNanoseconds.store(time.nanoseconds, ordering: .releasing)
        xrunCount.wrappingAdd(1, ordering: .relaxed)
    }

    func recordSuspend(at time: Timestamp, frame: Int64) {
        lastFramePosition.store(frame, ordering: .releasing)
        lastTimeNanoseconds.store(time.nanoseconds, ordering: .releasing)
        suspendCount.wrappingAdd(1, ordering: .relaxed)
    }
}

/// The xrun counters at one moment.
public struct PCMXrunReport: Hashable, Sendable, CustomStringConvertible {
    public var count: Int
    public var suspends: Int
    public var lastTime: Timestamp?
    public var lastFrame: Int64?

    public var description: String {
        var text = "\(count) xrun\(count == 1 ? "" : "s"), \(suspends) suspend\(suspends == 1 ? "" : "s")"
        if let lastFrame, let lastTime { text += "; last at frame \(lastFrame) (\(lastTime))" }
        return text
    }
}
