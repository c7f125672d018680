/// Turns the debounced plug and microphone signals into jack states.
///
/// A plug's contacts do not close together: the plug switch usually changes first and the microphone
/// ring a few tens of milliseconds later, while the plug is still travelling. So when the board can sense
/// a microphone, an insertion is not reported at once: the machine waits `microphoneSettle` after the
/// plug's change and then reports `headset` or `headphones` from the microphone's level at that moment, as
/// one event carrying the plug's timestamp (no headphones-then-headset pair of route changes). Without a
/// microphone signal an insertion is `headphones` at once. Pulling the plug is reported at once.
/// A microphone change while the plug stays in (a mic plugged into an adapter) is its own event.
///
/// Time comes only from the timestamps given; `settle(at:)` reports a pending decision once its deadline
/// has passed, like `Debouncer`.
public struct JackStateMachine: Hashable, Sendable {
    public let sensesMicrophone: Bool
    public let microphoneSettle: Duration
    /// The state last reported.
    public private(set) var state: JackState
    private var plugged: Bool
    private var microphone: Bool
    /// The time of an insertion whose headset-or-headphones decision is pending.
    private var insertedAt: Timestamp?

    /// A machine that starts from the signals' current (debounced) levels, without an event.
    public init(plugged: Bool, microphone: Bool, sensesMicrophone: Bool,
                microphoneSettle: Duration = .milliseconds(150)) {
        precondition(microphoneSettle >= .zero, "a settle time is not negative")
        self.sensesMicrophone = sensesMicrophone
        self.microphoneSettle = microphoneSettle
        self.plugged = plugged
        self.microphone = microphone
        state = !plugged ? .unplugged : sensesMicrophone && microphone ? .headset : .headphones
    }

    /// When a pending insertion will be decided; nil when none is pending.
    public var deadline: Timestamp? { insertedAt.map { $0 + microphoneSettle } }

    /// The plug switch's debounced level changed at `timestamp`.
    public mutating func plug(_ inserted: Bool, at timestamp: Timestamp) -> JackEvent? {
        guard inserted != plugged else { return nil }
        plugged = inserted
        guard inserted else {
            insertedAt = nil
            return report(.unplugged, at: timestamp)
        }
        guard sensesMicrophone else { return report(.headphones, at: timestamp) }
        insertedAt = timestamp
        return settle(at: timestamp)
    }

    /// The microphone signal's debounced level changed at `timestamp`.
    public mutating func microphone(_ present: Bool, at timestamp: Timestamp) -> JackEvent? {
        microphone = present
        // Unplugged, a floating mic line means nothing; during an insertion the deadline decides.
        guard sensesMicrophone, plugged, insertedAt == nil else { return nil }
        return report(present ? .headset : .headphones, at: timestamp)
    }

    /// Decides a pending insertion once `microphoneSettle` has passed by `now`.
    public mutating func settle(at now: Timestamp) -> JackEvent? {
        guard let insertedAt, now >= insertedAt + microphoneSettle else { return nil }
        self.insertedAt = nil
        return report(microphone ? .headset : .headphones, at: insertedAt)
    }

    private mutating func report(_ new: JackState, at timestamp: Timestamp) -> JackEvent? {
        guard new != state else { return nil }
        defer { state = new }
        return JackEvent(timestamp: timestamp, state: new, previous: state)
    }
}
