/// Hands items to a callback one at a time, in the order they were posted, whichever threads post them.
///
/// Post under your own lock (so the order matches the order of your state changes), then `drain()` after
/// letting go of it: the callback never runs under a caller's lock, a callback that posts again is queued
/// behind the current item, and only one thread delivers at once.
final class SerialDelivery<Item: Sendable>: @unchecked Sendable {
    private let deliver: @Sendable (Item) -> Void
    private let condition = Condition()
    // Guarded by `condition`:
    private var queue: [Item] = []
    private var delivering = false

    init(_ deliver: @escaping @Sendable (Item) -> Void) {
        self.deliver = deliver
    }

    func post(_ item: Item) {
        condition.locked { queue.append(item) }
    }

    func post(_ items: [Item]) {
        guard !items.isEmpty else { return }
        condition.locked { queue.append(contentsOf: items) }
    }

    /// Delivers queued items unless another thread is already doing so (it will deliver them).
    func drain() {
        while true {
            let next: Item? = condition.locked {
                guard !delivering, !queue.isEmpty else { return nil }
                delivering = true
                return queue.removeFirst()
            }
            guard let next else { return }
            deliver(next)
            condition.locked { delivering = false }
        }
    }
}
