import HAL
import Synchronization

/// The thin shell around `GestureDecoder` and `RemoteControlMapping`: takes the buttons' debounced
/// changes (from `DebouncedInputs`) and the clock's ticks, and hands each gesture, with the event it maps
/// to, to `onGesture` — outside the lock, in order.
///
/// Ticks advance the decoder only to `clock.now - edgeDelay`: a debounced edge is reported its debounce
/// time after it happened, so a hold or a closed window is decided only once no earlier edge can still
/// arrive. Call `tick()` when the clock reaches `nextDeadline` (a control loop; tests with a `ManualClock`).
public final class RemoteControlDecoder: Sendable {
    public let clock: any MonotonicClock
    public let mapping: RemoteControlMapping
    /// The longest debounce time of the buttons' lines.
    public let edgeDelay: Duration
    private let decoder: Mutex<GestureDecoder>
    private let rejected = Atomic<Int>(0)
    private let onGesture: @Sendable (ButtonGesture, RemoteControlEvent?) -> Void

    public init(buttons: [RemoteButton], mapping: RemoteControlMapping, edgeDelay: Duration, clock: any MonotonicClock,
                onGesture: @escaping @Sendable (ButtonGesture, RemoteControlEvent?) -> Void) throws(GestureDecoderError) {
        decoder = Mutex(try GestureDecoder(buttons: buttons, start: clock.now - edgeDelay))
        self.mapping = mapping
        self.edgeDelay = edgeDelay
        self.clock = clock
        self.onGesture = onGesture
    }

    /// Edges the decoder refused (a lost edge, an unknown line); each is dropped, the button carries on.
    public var rejectedEdges: Int { rejected.load(ordering: .relaxed) }

    /// When `tick()` next has something to report (the decoder's deadline plus the edge delay).
    public var nextDeadline: Timestamp? { decoder.withLock { $0.deadline }.map { $0 + edgeDelay } }

    /// A button line's debounced change.
    public func handle(_ change: DebouncedChange) {
        let fired: [ButtonGesture] = decoder.withLock { decoder in
            do {
                return try decoder.handle(change)
            } catch {
                rejected.add(1, ordering: .relaxed)
                return []
            }
        }
        deliver(fired)
    }

    /// Reports what time has decided, as of the clock's time less the edge delay.
    public func tick() {
        let horizon = clock.now - edgeDelay
        deliver(decoder.withLock { $0.advance(to: horizon) })
    }

    private func deliver(_ fired: [ButtonGesture]) {
        for gesture in fired { onGesture(gesture, mapping.event(for: gesture)) }
    }
}
