import HAL
import Synchronization

/// What the control thread asks of a render thread about one slot: plain numbers only.
enum SlotCommand: BitwiseCopyable {
    /// Slot `k` now holds an object: start using it.
    case attach(Int)
    /// Stop using slot `k` (after a fade where there is one), then hand it back.
    case detach(Int)
}

/// What an attach found: the slot taken, or why none was.
enum SlotAttachResult: Equatable { case attached(Int), alreadyAttached, stillReleasing, full }

/// The fixed set of slots through which sources (or sinks) reach a render thread without a lock.
///
/// The control thread fills slot k while no render thread looks at it, then pushes `.attach(k)`; the render
/// thread uses the object from then on. To remove it, control pushes `.detach(k)`; the render thread stops
/// touching slot k and reports k back; only then, on the control thread, does the slot let go of the object,
/// so its last release (and deinit) never runs on the render thread. The rings' release/acquire ordering
/// makes each hand-over safe; control-side bookkeeping sits under a mutex the render thread never takes.
final class EngineSlots<Object>: @unchecked Sendable {
    /// Where each slot is, seen from the control thread.
    enum Use: Equatable { case free, attached(ObjectIdentifier), releasing(ObjectIdentifier) }

    let capacity: Int
    /// Slot k's object: written by control only while the render thread does not use slot k.
    private let objects: UnsafeMutablePointer<Object?>
    private let commands: SPSCRing<SlotCommand>
    /// Slots the render thread has let go of.
    private let released: SPSCRing<Int>
    private let uses: Mutex<[Use]>

    init(capacity: Int) {
        self.capacity = capacity
        objects = .allocate(capacity: capacity)
        objects.initialize(repeating: nil, count: capacity)
        // At most an attach and a detach in flight per slot, and one report.
        commands = SPSCRing(minimumCapacity: 2 * capacity + 2)
        released = SPSCRing(minimumCapacity: capacity + 1)
        uses = Mutex(Array(repeating: .free, count: capacity))
    }

    deinit {
        objects.deinitialize(count: capacity)
        objects.deallocate()
    }

    // MARK: control thread

    /// Puts `object` in the first free slot that `fits` and tells the render thread; nil when none is free.
    /// Throws nothing: the caller says what a full table or a second attach means.
    func attach(_ object: Object, identity: ObjectIdentifier, fits: (Int) -> Bool) -> SlotAttachResult {
        reclaim()
        return uses.withLock { uses in
            if let refusal = Self.refusal(for: identity, in: uses) { return refusal }
            guard let slot = (0..<capacity).first(where: { uses[$0] == .free && fits($0) }) else { return .full }
            objects[slot] = object
            uses[slot] = .attached(identity)
            commands.push(.attach(slot))
            return .attached(slot)
        }
    }

    /// Asks the render thread to let go of `identity`'s slot; the slot that was asked, or nil if not attached.
    @discardableResult
    func detach(_ identity: ObjectIdentifier) -> Int? {
        reclaim()
        return uses.withLock { uses in
            guard let slot = uses.firstIndex(of: .attached(identity)) else { return nil }
            uses[slot] = .releasing(identity)
            commands.push(.detach(slot))
            return slot
        }
    }

    /// Why `identity` may not be attached now (it is attached, or still fading out after a detach), or nil.
    func refusal(for identity: ObjectIdentifier) -> SlotAttachResult? {
        reclaim()
        return uses.withLock { Self.refusal(for: identity, in: $0) }
    }

    /// Attached already, or still pulled by the render thread through its fade-out (preparing it again then
    /// would change its buffers under the render thread).
    private static func refusal(for identity: ObjectIdentifier, in uses: [Use]) -> SlotAttachResult? {
        if uses.contains(.attached(identity)) { return .alreadyAttached }
        if uses.contains(.releasing(identity)) { return .stillReleasing }
        return nil
    }

    /// Frees the slots the render thread has handed back, dropping their objects here.
    func reclaim() {
        uses.withLock { uses in
            while let slot = released.pop() {
                objects[slot] = nil
                uses[slot] = .free
            }
        }
    }

    // MARK: render thread

    /// The next command, if any.
    @inline(__always)
    func nextCommand() -> SlotCommand? { commands.pop() }

    /// Slot k's object (valid between its `.attach` and the render thread's `didRelease(k)`).
    @inline(__always)
    func object(_ slot: Int) -> Object? { objects[slot] }

    /// The render thread no longer touches slot k.
    @inline(__always)
    func didRelease(_ slot: Int) { released.push(slot) }
}
