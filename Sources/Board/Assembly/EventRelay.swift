import Synchronization

/// Passes events on to a handler set later: a device made at assembly time reports to whoever the
/// appliance names once it runs. Events before a handler is set are dropped.
public final class EventRelay<Event: Sendable>: Sendable {
    private let handler = Mutex<(@Sendable (Event) -> Void)?>(nil)

    public init() {}

    public func setHandler(_ handler: @escaping @Sendable (Event) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    public func send(_ event: Event) {
        handler.withLock { $0 }?(event)
    }
}
