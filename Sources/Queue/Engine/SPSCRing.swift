import Synchronization

/// A fixed-capacity ring between exactly one producer thread and one consumer thread, without locks: the
/// one way control reaches the render thread (commands in) and the render thread reports back (completions,
/// events out). Elements are plain values (numbers, payload-free enums, small structs of them), so nothing
/// is retained, released or allocated on either side; all memory is allocated at init.
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

    /// Elements waiting (exact from either side's own point of view; a snapshot from anywhere else).
    public var count: Int { tail.load(ordering: .acquiring) &- head.load(ordering: .acquiring) }
    public var isEmpty: Bool { count == 0 }
}
