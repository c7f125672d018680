/// Turns the debounced plug and microphone signals into jack states.
///
/// A plug's contacts do not close together: the plug switch usually changes first and the microphone
/// ring a few tens of milliseconds later, while the plug is still travelling. So when the board can sense
/// a microphone, an insertion is not reported at once but decided once, as one event carrying the plug's
/// timestamp (no headphones-then-headset pair of route changes). Without a microphone signal an insertion
/// is `headphones` at once. Pulling the plug is reported at once. A microphone change while the plug stays
/// in (a mic plugged into an adapter) is its own event.
///
/// The decision rule, with the plug's first edge at P (the plug has already held for its own debounce
/// time, or its change would not be here):
/// - it is made at P + `microphoneSettle` from the microphone's debounced level, unless the microphone line
///   is then still moving (an edge less than its debounce time ago, even one back at the old level; the
///   detector says so with `microphoneLine(quietAt:)`): then it waits until the line has been quiet for
///   its debounce time, and decides from the level it settled at;
/// - it never waits past P + `microphoneSettleLimit`: a line still chattering then is decided from its
///   debounced level, and a later settled change is its own event;
/// - a microphone edge after the decision (first touching at P + 151 ms with the default 150) is a later,
///   separate change, as the adapter case. An edge at exactly the decision time is counted in.
///
/// Where the times come from: Linux's GPIO jack detection (sound/soc/soc-jack.c `gpio_handler`) queues one
/// detection `debounce_time` after an edge and `snd_soc_jack_gpio_detect` then reports the whole jack at
/// once, with a `jack_status_check` deciding headset or headphones (sound/soc/samsung/midas_wm1811.c: the
/// "Headset Jack" gpio, debounce_time 150, reads the mic to decide); 150 ms is those machine drivers'
/// debounce (also sound/soc/tegra/tegra_wm8903.c's headphone detect). The TS3A227E accessory switch offers
/// insertion debounces of 2 to 150 ms before its slow 1 s and 2 s settings (ti,ts3a227e.yaml
/// `ti,debounce-insertion-ms`, datasheet 9.6.5), so the default limit gives a late microphone one more
/// 150 ms window: 300 ms after the plug.
///
/// Time comes only from the timestamps given; `settle(at:)` reports a pending decision once its deadline
/// has passed, like `Debouncer`.
public struct JackStateMachine: Hashable, Sendable {
    public let sensesMicrophone: Bool
    public let microphoneSettle: Duration
    /// The latest a decision waits for a microphone line that is still settling, from the plug's change.
    public let microphoneSettleLimit: Duration
    /// The state last reported.
    public private(set) var state: JackState
    private var plugged: Bool
    private var microphone: Bool
    /// The time of an insertion whose headset-or-headphones decision is pending.
    private var insertedAt: Timestamp?
    /// When the microphone line will have had no edge for its debounce time (`Debouncer.quietAt`).
    private var microphoneQuietAt: Timestamp?

    /// A machine that starts from the signals' current (debounced) levels, without an event. The limit
    /// defaults to twice `microphoneSettle`.
    public init(plugged: Bool, microphone: Bool, sensesMicrophone: Bool,
                microphoneSettle: Duration = .milliseconds(150), microphoneSettleLimit: Duration? = nil) {
        precondition(microphoneSettle >= .zero, "a settle time is not negative")
        self.sensesMicrophone = sensesMicrophone
        self.microphoneSettle = microphoneSettle
        self.microphoneSettleLimit = max(microphoneSettleLimit ?? microphoneSettle * 2, microphoneSettle)
        self.plugged = plugged
        self.microphone = microphone
        state = !plugged ? .unplugged : sensesMicrophone && microphone ? .headset : .headphones
    }

    /// When a pending insertion will be decided; nil when none is pending.
    public var deadline: Timestamp? {
        guard let insertedAt else { return nil }
        let earliest = insertedAt + microphoneSettle
        guard let quiet = microphoneQuietAt, quiet > earliest else { return earliest }
        return min(quiet, insertedAt + microphoneSettleLimit)
    }

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

    /// The microphone line will have had no edge for its debounce time at `quietAt` (its last edge plus
    /// the debounce time; nil: unknown). A pending insertion decided at or after it waits for it, within
    /// the limit.
    public mutating func microphoneLine(quietAt: Timestamp?) {
        microphoneQuietAt = quietAt
    }

    /// Decides a pending insertion once its deadline has passed by `now`.
    public mutating func settle(at now: Timestamp) -> JackEvent? {
        guard let insertedAt, let deadline, now >= deadline else { return nil }
        self.insertedAt = nil
        return report(microphone ? .headset : .headphones, at: insertedAt)
    }

    private mutating func report(_ new: JackState, at timestamp: Timestamp) -> JackEvent? {
        guard new != state else { return nil }
        defer { state = new }
        return JackEvent(timestamp: timestamp, state: new, previous: state)
    }
}
