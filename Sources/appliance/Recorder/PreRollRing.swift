import Codec8_24

/// The last N seconds of input kept while the recorder is armed, so a take can begin with what came before
/// the press or the voice: interleaved 8.24 frames in one buffer allocated up front, the oldest overwritten.
final class PreRollRing {
    let channels: Int
    /// Frames it holds at most.
    let capacity: Int
    private var storage: [Fixed824]
    /// Index (in frames) where the next frame goes.
    private var head = 0
    private(set) var count = 0

    init(frames: Int, channels: Int) {
        self.channels = channels
        capacity = max(0, frames)
        storage = [Fixed824](repeating: .zero, count: max(1, capacity * channels))
    }

    func removeAll() {
        head = 0
        count = 0
    }

    /// Keeps `frames` frames from `source`; beyond the capacity only the newest stay.
    func append(_ source: UnsafePointer<Fixed824>, frames: Int) {
        guard capacity > 0, frames > 0 else { return }
        let skipped = max(0, frames - capacity)
        var from = source + skipped * channels
        var left = frames - skipped
        storage.withUnsafeMutableBufferPointer { buffer in
            while left > 0 {
                let run = min(left, capacity - head)
                (buffer.baseAddress! + head * channels).update(from: from, count: run * channels)
                head = (head + run) % capacity
                from += run * channels
                left -= run
            }
        }
        count = min(capacity, count + frames)
    }

    /// Hands the newest `frames` frames (at most `count`) to `body` oldest first, in one or two runs.
    func withNewest(_ frames: Int, _ body: (UnsafeBufferPointer<Fixed824>) throws -> Void) rethrows {
        let wanted = min(frames, count)
        guard wanted > 0 else { return }
        let start = (head - wanted + capacity) % capacity
        try storage.withUnsafeBufferPointer { buffer in
            let first = min(wanted, capacity - start)
            try body(UnsafeBufferPointer(rebasing: buffer[(start * channels)..<((start + first) * channels)]))
            if first < wanted {
                try body(UnsafeBufferPointer(rebasing: buffer[0..<((wanted - first) * channels)]))
            }
        }
    }
}
