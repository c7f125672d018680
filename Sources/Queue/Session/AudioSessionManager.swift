import HAL
import Synchronization

/// `SessionCoordinator` behind a lock, for the appliance's threads. Each call's actions go to `perform`
/// one at a time, in order, outside the lock: a `perform` that calls back in (a listener that reactivates
/// on an interruption's end) has its actions queued after the current ones.
public final class AudioSessionManager: Sendable {
    private struct Guarded {
        var coordinator: SessionCoordinator
        var pending: [SessionAction] = []
        var draining = false
    }

    private let guarded: Mutex<Guarded>
    private let perform: @Sendable (SessionAction) -> Void

    public init(_ coordinator: SessionCoordinator, perform: @escaping @Sendable (SessionAction) -> Void) {
        guarded = Mutex(Guarded(coordinator: coordinator))
        self.perform = perform
    }

    /// A snapshot of the sessions and the device's state.
    public var coordinator: SessionCoordinator { guarded.withLock { $0.coordinator } }

    /// Registers a session and returns its handle.
    public func session(_ id: SessionID, category: SessionCategory = .default,
                        options: SessionCategoryOptions = []) throws(SessionError) -> AudioSession {
        try run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in
            try c.register(id, category: category, options: options)
            return []
        }
        return AudioSession(id: id, manager: self)
    }

    /// Feed the jack detector's events here (`JackDetector`'s `onEvent`).
    public func jackChanged(_ event: JackEvent) {
        try? run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in c.jackChanged(event) }
    }

    public func wokeFromSleep(jack: JackState) {
        try? run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in c.wokeFromSleep(jack: jack) }
    }

    public func beginInterruption(_ source: String) throws(SessionError) {
        try run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in try c.beginInterruption(source) }
    }

    public func endInterruption(_ source: String, shouldResume: Bool) throws(SessionError) {
        try run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in
            try c.endInterruption(source, shouldResume: shouldResume)
        }
    }

    public func cancelInterruption(_ source: String) throws(SessionError) {
        try run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in try c.cancelInterruption(source) }
    }

    /// Applies `body` to the coordinator and performs its actions (and any queued meanwhile) in order.
    func run(_ body: (inout SessionCoordinator) throws(SessionError) -> [SessionAction]) throws(SessionError) {
        let drains = try guarded.withLock { (g: inout Guarded) throws(SessionError) -> Bool in
            g.pending += try body(&g.coordinator)
            guard !g.draining else { return false }
            g.draining = true
            return true
        }
        guard drains else { return }
        while let action = guarded.withLock({ (g: inout Guarded) -> SessionAction? in
            guard !g.pending.isEmpty else {
                g.draining = false
                return nil
            }
            return g.pending.removeFirst()
        }) {
            perform(action)
        }
    }
}
