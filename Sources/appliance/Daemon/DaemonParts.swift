/// The subsystems a running appliance is made of. Each is optional so the daemon runs (and answers `ERR`
/// for what is missing) whatever a build or a board provides; `others` are subsystems with no commands of
/// their own (buttons, system sounds) that still report status, tick and shut down.
struct DaemonParts {
    var board: any DaemonBoard
    var player: (any PlayerControl)?
    var recorder: (any RecorderControl)?
    var audio: (any AudioControl)?
    var others: [any Subsystem] = []
    /// `help [CMD]`'s answer (the console's help text).
    var help: ((String?) -> ConsoleReply)?
    /// `sounds [NAME]`.
    var sounds: ((String?) -> ConsoleReply)?
    /// Stops the audio engine, after the subsystems shut down and before the codec powers down.
    var stopAudio: () -> Void = {}
    /// Faults met and lived through, for `stats`; the parts that meet them count here.
    var faults = FaultCounters()

    /// Every subsystem, in shutdown order: the recorder first (its file finalized), then the player, the audio
    /// controls, the rest.
    var subsystems: [any Subsystem] {
        var all: [any Subsystem] = []
        if let recorder { all.append(recorder) }
        if let player { all.append(player) }
        if let audio { all.append(audio) }
        return all + others
    }
}
