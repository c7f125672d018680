import HAL

/// Why a session call was refused. The coordinator's state is unchanged by a refused call.
public enum SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownSession(SessionID)
    case duplicateSession(SessionID)
    /// Options given to a category that does not take them.
    case optionsNotAllowed(category: SessionCategory, options: SessionCategoryOptions)
    /// The appliance has taken the device (an alarm, an announcement): no session may activate until it ends.
    case deviceTaken(by: String)
    /// An appliance interruption of this name is already in progress / is not in progress.
    case interruptionInProgress(String)
    case noSuchInterruption(String)
    /// A recording session silences all other output while it is active.
    case outputSilencedByRecording(SessionID)
    /// The input port is not available now (nothing plugged in, or the board has none).
    case inputUnavailable(CodecInput)
    /// A capture session with no input port to record from.
    case noInput
    /// The devices a session uses share no sample rate (each device's offer listed).
    case noCommonSampleRate([String])
    case invalidPreference(String)

    public var description: String {
        switch self {
        case .unknownSession(let id):
            "no session \(id): register it first"
        case .duplicateSession(let id):
            "a session \(id) is already registered: each session needs its own name"
        case .optionsNotAllowed(let category, let options):
            "category \(category) takes no options (\(options)): mixWithOthers and duckOthers are for playback and "
                + "playAndRecord (ambient always mixes)"
        case .deviceTaken(let source):
            "the device is taken by \(source): activate again when its interruption ends"
        case .interruptionInProgress(let source):
            "an interruption by \(source) is already in progress"
        case .noSuchInterruption(let source):
            "no interruption by \(source) is in progress"
        case .outputSilencedByRecording(let recorder):
            "session \(recorder) is recording and silences all other output: use playAndRecord for it to let others play"
        case .inputUnavailable(let port):
            "input \(port) is not available now: choose one of the available inputs"
        case .noInput:
            "no input to record from: the board has no microphone or line in, and no headset is plugged in"
        case .noCommonSampleRate(let devices):
            "the devices share no sample rate: " + devices.joined(separator: "; ")
        case .invalidPreference(let what):
            "\(what): a preferred sample rate and IO buffer duration must be positive"
        }
    }
}
