/// How presses are grouped into gestures, per button.
///
/// Defaults are Android's, the most widely deployed published values for the same decisions
/// (AOSP frameworks/base core/java/android/view/ViewConfiguration.java):
/// - `multiClickWindow` 300 ms: DEFAULT_MULTI_PRESS_TIMEOUT, "between the first tap's up event and the
///   second tap's down event for an interaction to be considered part of the same multi-press";
/// - `holdThreshold` 400 ms: DEFAULT_LONG_PRESS_TIMEOUT (400 since Android 12, 500 before), also the
///   DEFAULT_KEY_REPEAT_TIMEOUT_MS before a held key starts repeating;
/// - `repeatInterval` 50 ms: DEFAULT_KEY_REPEAT_DELAY_MS, the time between key repeats.
/// Apple's headset remote publishes no numbers; its gestures (double-press-and-hold to seek) fit these.
public struct GestureTiming: Hashable, Sendable {
    /// From a release to the next press that still counts as part of the same multi-click.
    public var multiClickWindow: Duration
    /// From a press until it counts as a hold (and the hold began).
    public var holdThreshold: Duration
    /// Between hold repeats, the first one interval after the hold began.
    public var repeatInterval: Duration
    /// The most presses counted (1...3). When a release reaches it the click is reported at once, with no
    /// wait for the window: a volume key (1) clicks on release.
    public var maxClicks: Int

    public init(multiClickWindow: Duration = .milliseconds(300), holdThreshold: Duration = .milliseconds(400),
                repeatInterval: Duration = .milliseconds(50), maxClicks: Int = 3) {
        self.multiClickWindow = multiClickWindow
        self.holdThreshold = holdThreshold
        self.repeatInterval = repeatInterval
        self.maxClicks = maxClicks
    }

    /// Android's defaults, counting up to triple clicks (the headset remote's centre button).
    public static let standard = GestureTiming()
    /// A key that only clicks and repeats (volume keys): clicks report on release.
    public static let singleClick = GestureTiming(maxClicks: 1)
}
