import Queue
import Synchronization

/// Where `AudioSessionManager` leaves its actions (its `perform` may be called from any thread that drives it),
/// for `AudioController` to carry out on the control loop's thread, in order, right after the call that made them.
final class SessionActionInbox: Sendable {
    private let actions = Mutex<[SessionAction]>([])

    func append(_ action: SessionAction) { actions.withLock { $0.append(action) } }

    /// The actions so far, oldest first; the inbox is empty afterwards.
    func take() -> [SessionAction] {
        actions.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }
}
