import HAL
import Queue

/// What every part of the running appliance offers the daemon: status lines, timers, and an orderly end.
/// All calls come on the control loop's thread.
protocol Subsystem: AnyObject {
    /// Lines for `status` (a few, `name: value`).
    var statusLines: [String] { get }
    /// When `tick` wants to run next, if ever.
    var nextDeadline: Timestamp? { get }
    /// Whether `tick` only polls (looks at a device's health): nothing is lost when it runs late.
    var ticksOnlyPoll: Bool { get }
    func tick(now: Timestamp)
    /// Shutdown: finish what must be finished (a recording finalized, positions saved) and release devices.
    func shutdown()
}

extension Subsystem {
    var nextDeadline: Timestamp? { nil }
    var ticksOnlyPoll: Bool { false }
    func tick(now: Timestamp) {}
}

/// The player (Player/): the media directory, playlists and the output queue.
protocol PlayerControl: Subsystem {
    func perform(_ command: PlayerCommand) -> ConsoleReply
    /// `stop` and the remote's stop.
    func stopPlayback() -> ConsoleReply
    /// A remote-control event meant for the transport (play/pause, next, previous, seeking); false when it
    /// is not one the player handles.
    func handle(_ event: RemoteControlEvent) -> Bool
    /// The route policy says the headphones were pulled: pause, as a phone does, keeping the position.
    func pauseForRouteChange()
    var isPlaying: Bool { get }
}

/// The recorder (Recorder/): the recordings directory and the input queue.
protocol RecorderControl: Subsystem {
    func perform(_ command: RecorderCommand) -> ConsoleReply
    /// Finalizes the recording, if one runs.
    func stopRecording() -> ConsoleReply
    /// The record button (`toggleRecord`) and the marker gesture.
    func handle(_ event: RemoteControlEvent) -> Bool
    var isRecording: Bool { get }
}

/// Volume, mute, EQ, route and input (Audio/): the codec's gain stages and EQ, the route policy.
protocol AudioControl: Subsystem {
    func perform(_ command: AudioCommand) -> ConsoleReply
    /// Volume keys and the encoder.
    func handle(_ event: RemoteControlEvent) -> Bool
    /// Encoder detents: +N up, -N down.
    func nudgeVolume(steps: Int)
}
