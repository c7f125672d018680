import Synchronization

/// The lock-free path of EQ cascades between the control side and the render side of an output chain.
///
/// A cascade is a class instance: the control side makes it (allocation) and must also free it, so the
/// render side only ever borrows. Each direction is one atomic slot holding an `Unmanaged` reference's bits
/// (0: empty); a reference in a slot is a +1 that the slot owns.
/// - Control -> render (`offer` / `take`): one waiting cascade; a newer offer replaces one not yet taken,
///   and the replaced one is released on the control side.
/// - Render -> control (`giveBack` / `collect`): one retired cascade; the render side puts one there only
///   when the slot is empty and keeps it otherwise, the control side releases it at its next call.
final class PresetHandover: @unchecked Sendable {
    private let incoming = Atomic<UInt>(0)
    private let retired = Atomic<UInt>(0)

    init() {}

    deinit {
        Self.release(incoming.exchange(0, ordering: .acquiring))
        Self.release(retired.exchange(0, ordering: .acquiring))
    }

    /// Control side: offers `cascade` to the render side, replacing (and releasing) an offer not yet taken.
    func offer(_ cascade: BiquadCascade) {
        collect()
        let bits = UInt(bitPattern: Unmanaged.passRetained(cascade).toOpaque())
        Self.release(incoming.exchange(bits, ordering: .acquiringAndReleasing))
    }

    /// Control side: releases the cascade the render side handed back, if any.
    func collect() {
        Self.release(retired.exchange(0, ordering: .acquiring))
    }

    /// Render side: the offered cascade, if any (one atomic load when there is none).
    func take() -> BiquadCascade? {
        guard incoming.load(ordering: .relaxed) != 0 else { return nil }
        let bits = incoming.exchange(0, ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<BiquadCascade>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Render side: hands `cascade` back for the control side to release; false (nothing done) while the
    /// previous one is still waiting there. Only the render side fills the slot, so the check cannot race.
    func giveBack(_ cascade: BiquadCascade) -> Bool {
        guard retired.load(ordering: .acquiring) == 0 else { return false }
        let bits = UInt(bitPattern: Unmanaged.passRetained(cascade).toOpaque())
        retired.store(bits, ordering: .releasing)
        return true
    }

    private static func release(_ bits: UInt) {
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return }
        Unmanaged<BiquadCascade>.fromOpaque(pointer).release()
    }
}
