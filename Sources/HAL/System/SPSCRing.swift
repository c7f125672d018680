import Synchronization

/// A fixed-capacity ring between exactly one producer thread and one consumer thread, without locks: the
/// one way control reaches the render thread (commands in) and the render thread reports back (completions,
/// events out). Elements are plain values (numbers, payload-free enums, small structs of them), so nothing
/// is retained, released or allocated on either side; all memory is allocated at init. It lives in HAL (not
/// Queue) so the Board's simulated devices can use it too (the loopback cable is a ring of bytes).
///
/// The producer owns `tail`, the consumer owns `head`; each publishes its index with release ordering and
/// reads the other's with acquire, so an element is fully written before the consumer can see it.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    /// Slots, a power of two (so an index maps to a slot with a mask).
    public let capacity: Int
    private let mask: Int
    /// The next element to read (written by the consumer only).
    private let head = Atomic<Int>(0)
    /// The next slot to write (written by the producer only).
    private let tail = Atomic<Int>(0)

    /// A ring holding at least `minimumCapacity` elements (rounded up to a power of two).
    public init(minimumCapacity: Int) {
        precondition(minimumCapacity > 0, "a ring needs at least one slot")
        var slots = 1
        while slots < minimumCapacity { slots <<= 1 }
        capacity = slots
        mask = slots - 1
        storage = .allocate(capacity: slots)
    }

    deinit { storage.deallocate() }

    /// Producer: appends `element`; false (and nothing written) when the ring is full.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        guard t &- head.load(ordering: .acquiring) < capacity else { return false }
        (storage + (t & mask)).initialize(to: element)
        tail.store(t &+ 1, ordering: .releasing)
        return true
    }

    /// Consumer: the oldest element, or nil when the ring is empty.
    public func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        guard h != tail.load(ordering: .acquiring) else { return nil }
        let element = storage[h & mask]
        head.store(h &+ 1, ordering: .releasing)
        return element
    }

    /// Producer: appends as many of `elements` as fit, in order, with at most two block copies; returns how
    /// many (0 when the ring is full). A consumer sees all of them at once or none.
    @discardableResult
    public func push(contentsOf elements: UnsafeBufferPointer<Element>) -> Int {
        guard let source = elements.baseAddress else { return 0 }
        let t = tail.load(ordering: .relaxed)
        let n = min(elements.count, capacity - (t &- head.load(ordering: .acquiring)))
        guard n > 0 else { return 0 }
        let slot = t & mask
        let first = min(n, capacity - slot)
        (storage + slot).initialize(from: source, count: first)
        storage.initialize(from: source + first, count: n - first)
        tail.store(t &+ n, ordering: .releasing)
        return n
    }

    /// Consumer: moves the oldest elements into `target`, as many as are waiting and fit, with at most two
    /// block copies; returns how many.
    @discardableResult
    public func pop(into target: UnsafeMutableBufferPointer<Element>) -> Int {
        guard let destination = target.baseAddress else { return 0 }
        let h = head.load(ordering: .relaxed)
        let n = min(target.count, tail.load(ordering: .acquiring) &- h)
        guard n > 0 else { return 0 }
        let slot = h & mask
        let first = min(n, capacity - slot)
        destination.update(from: storage + slot, count: first)
        (destination + first).update(from: storage, count: n - first)
        head.store(h &+ n, ordering: .releasing)
        return n
    }

    /// Consumer: drops the oldest elements up to the producer's position `pushed` (a `pushed` value read
    /// earlier), keeping whatever came after it; for a consumer told to forget what came before a mark.
    public func discard(upTo pushed: Int) {
        let h = head.load(ordering: .relaxed)
        let stale = pushed &- h
        guard stale > 0, stale <= capacity else { return }
        head.store(pushed, ordering: .releasing)
    }

    /// How many elements were ever pushed (the producer's position; wraps), for `discard(upTo:)`.
    public var pushed: Int { tail.load(ordering: .acquiring) }

    /// Elements waiting (exact from either side's own point of view; a snapshot from anywhere else).
    public var count: Int { tail.load(ordering: .acquiring) &- head.load(ordering: .acquiring) }
    public var isEmpty: Bool { count == 0 }
}
