import Dispatch

/// A fixed ring of sample blocks between one producer thread and one consumer thread, in order: the producer
/// claims an empty slot, fills it and publishes it; the consumer takes the next filled slot and releases it.
/// The slots' memory is uninitialized until the producer writes it (elements are plain sample values).
/// All memory is allocated at init. Used by the offline renderer; the real-time engine has its own lock-free
/// rings (the render thread never waits on a semaphore).
final class BlockRing<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    private let samplesPerSlot: Int
    private let slotCount: Int
    private let empty: DispatchSemaphore
    private let filled = DispatchSemaphore(value: 0)
    private let frames: UnsafeMutablePointer<Int>
    private var errors: [Error?]
    private var cancelled = false      // read by the producer after each claim; set by the consumer
    private let lock = DispatchQueue(label: "BlockRing")
    private var nextEmpty = 0          // producer only
    private var nextFilled = 0         // consumer only

    init(slots: Int, samplesPerSlot: Int) {
        slotCount = slots
        self.samplesPerSlot = samplesPerSlot
        storage = .allocate(capacity: slots * samplesPerSlot)
        frames = .allocate(capacity: slots)
        frames.initialize(repeating: 0, count: slots)
        errors = Array(repeating: nil, count: slots)
        empty = DispatchSemaphore(value: slots)
    }

    deinit {
        storage.deallocate()
        frames.deallocate()
    }

    func samples(_ slot: Int) -> UnsafeMutablePointer<Element> { storage + slot * samplesPerSlot }

    /// Producer: the next empty slot, waiting for one; nil once the consumer has cancelled.
    func claimEmpty() -> Int? {
        empty.wait()
        if lock.sync(execute: { cancelled }) { return nil }
        defer { nextEmpty = (nextEmpty + 1) % slotCount }
        return nextEmpty
    }

    /// Producer: `slot` holds `frames` frames (0: the end of the input).
    func publish(_ slot: Int, frames count: Int) {
        frames[slot] = count
        filled.signal()
    }

    /// Producer: reading or decoding failed; the consumer rethrows `error` when it reaches `slot`.
    func publish(_ slot: Int, error: Error) {
        lock.sync { errors[slot] = error }
        publish(slot, frames: 0)
    }

    /// Consumer: the next filled slot and its frame count (0 at the end), waiting for it; rethrows the
    /// producer's error.
    func takeFilled() throws -> (slot: Int, frames: Int) {
        filled.wait()
        let slot = nextFilled
        nextFilled = (nextFilled + 1) % slotCount
        if let error = lock.sync(execute: { errors[slot] }) { throw error }
        return (slot, frames[slot])
    }

    /// Consumer: `slot` may be filled again.
    func release(_ slot: Int) { empty.signal() }

    /// Consumer: stop the producer (it sees this at its next claim; one extra signal wakes it if it waits).
    func cancel() {
        lock.sync { cancelled = true }
        empty.signal()
    }
}

/// Hands a non-Sendable reference to one other thread when the code guarantees the two never touch the same
/// state at once (here: the producer uses only the input side of the renderer, the consumer only the output).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
