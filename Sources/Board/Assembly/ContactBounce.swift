/// How a mechanical contact chatters when it closes or opens: the toggles after the clean edge, as offsets
/// from it (an even number, so the contact ends where it went). The simulated board presses its buttons
/// and plugs its jack with these, so the same debouncer that serves the hardware has real bounce to filter.
public struct ContactBounce: Hashable, Sendable {
    public var toggles: [Duration]

    public init(toggles: [Duration]) {
        precondition(toggles.count % 2 == 0, "an even number of toggles ends on the new level")
        self.toggles = toggles
    }

    /// How long the chatter lasts.
    public var duration: Duration { toggles.last ?? .zero }

    /// A tact switch: six toggles over 3.6 ms, the 2-5 ms of chatter at each edge that tact-switch datasheets
    /// allow (Omron B3F: "Bounce: 5 ms max.") and Ganssle's measurements of 18 switches report ("A Guide to
    /// Debouncing", 2004: about 1.6 ms on average, 6.2 ms at worst); well inside the 20 ms default debounce.
    public static let tactSwitch = ContactBounce(toggles: [0.4, 1.0, 1.7, 2.5, 3.0, 3.6].map(Self.ms))

    /// A headphone plug sliding past the jack's switch: eight toggles over 8 ms, longer than a button's as the
    /// sleeve rubs the contact (the boards' jack debounce is 50 ms; Linux ASoC codecs use 150-200 ms).
    public static let jackPlug = ContactBounce(toggles: [0.8, 2.0, 3.1, 4.4, 5.2, 6.3, 7.1, 8.0].map(Self.ms))

    /// A clean edge.
    public static let none = ContactBounce(toggles: [])

    private static func ms(_ value: Double) -> Duration { .microseconds(Int64((value * 1000).rounded())) }
}
