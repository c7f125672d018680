import Codec8_24
import HAL

/// What `AudioController` drives outside the codec, given by the daemon at bring-up. All are called on the
/// control loop's thread.
struct AudioHooks {
    /// The codec volume's fine remainder for the 8.24 chain (the daemon passes `RenderEngine.setFineGain`);
    /// zero ramps the output to silence without a click.
    var setFineGain: (Fixed824) -> Void = { _ in }
    /// The software EQ's preset (`RenderEngine.setPreset`): the preset when it runs in software, flat when
    /// the codec's own EQ runs it.
    var setPreset: (EQPreset) -> Void = { _ in }
    /// The speaker amplifier's control line (true: amplifier running), for boards that have one.
    var setAmplifier: (Bool) -> Void = { _ in }
    /// Whether system sounds may mix in (the session's category decides).
    var systemSounds: (Bool) -> Void = { _ in }
    /// The headphones were pulled while playing: pause (`PlayerControl.pauseForRouteChange`).
    var pausePlayback: () -> Void = {}
    /// Whether the player is playing now (`PlayerControl.isPlaying`).
    var isPlaying: () -> Bool = { false }
    /// Whether anything may sound now (the player plays, a system sound sounds), asked on the loop before each
    /// wait: the speaker amplifier follows it, off after `RoutePolicy.amplifierIdleTimeout` of silence. The
    /// default, always true, keeps the amplifier on whenever the speaker is the route.
    var isOutputActive: () -> Bool = { true }
    /// Asynchronous `EVENT` lines.
    var event: EventSink = { _ in }
    /// The codec brought up again as at start (the board's reset, clocks, output, power-up), after a recipe
    /// failed half-way; returns why it could not be, nil when it was. Nil: the board cannot, and a failed
    /// recipe leaves the codec reset instead.
    var bringUpCodec: (() -> String?)?
    /// A fault lived through, for `stats`.
    var countFault: (FaultCounters.Fault) -> Void = { _ in }

    init() {}
}
