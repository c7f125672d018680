import HAL

/// One console line, parsed: what the user asked for, its arguments checked for form (a number is a number,
/// a preset name is one of the presets) but not for state (whether something is playing). The same grammar
/// serves the serial console, stdin and the control socket (`appliance ctl`).
enum ConsoleCommand: Hashable, Sendable {
    /// `help [CMD]`
    case help(String?)
    /// `status`
    case status
    case player(PlayerCommand)
    case recorder(RecorderCommand)
    case audio(AudioCommand)
    /// `stop`: ends whatever runs, a recording first (finalized), then playback.
    case stop
    /// `sounds [NAME]`: lists the system sounds, or plays one over whatever plays.
    case sounds(String?)
    /// `button NAME click|double|triple|hold`: a simulated press of a board button, as its gesture.
    case button(name: String, gesture: SimulatedGesture)
    /// `jack in [headset]|out`: a simulated plug on the simulated board.
    case jack(JackState)
    /// `board`: what the board file says and what came up.
    case board
    /// `stats`: xruns, buffer fill, worst render time, actual vs nominal rate, I2C retries.
    case stats
    /// `selftest`: codec on I2C, a tone out, and back in where the board loops output to input.
    case selftest
    /// `events on|off`: stream asynchronous `EVENT` lines on this connection.
    case events(Bool)
    /// `shutdown`: finish the recording, save settings, power down and exit 0.
    case shutdown
}

/// The gestures `button` can simulate.
enum SimulatedGesture: String, Hashable, Sendable, CaseIterable {
    case click, double, triple, hold
}

/// Transport and media-directory commands.
enum PlayerCommand: Hashable, Sendable {
    /// `play [PATH]`: a file, or a directory as a playlist (relative to the media directory); no path plays
    /// the media directory, or resumes when paused.
    case play(String?)
    case pause
    case resume
    case next
    case previous
    /// `seek SECONDS|+SECONDS|-SECONDS|MM:SS`
    case seek(SeekTarget)
    /// `ls [DIR]`: the media directory (or a folder in it) and the recordings.
    case list(String?)
    /// `rm PATH`: a file in the media or recordings directory.
    case remove(String)
    /// `repeat [off|one|all]`: shows the mode without an argument.
    case repeatMode(RepeatMode?)
    /// `shuffle [on|off]`
    case shuffle(Bool?)
    /// `replaygain [off|track|album]`, `replaygain preamp NdB`: shows without an argument.
    case replayGain(ReplayGainChange?)
}

/// What `replaygain` sets.
enum ReplayGainChange: Hashable, Sendable {
    case mode(ReplayGainMode)
    /// dB added to the tagged gain (before the peak limit), within `AppliedReplayGain.preampRange`.
    case preamp(Double)
}

enum SeekTarget: Hashable, Sendable {
    case absolute(seconds: Double)
    case relative(seconds: Double)
}

enum RepeatMode: String, Hashable, Sendable, CaseIterable, Codable {
    case off, one, all
}

/// Recording commands.
enum RecorderCommand: Hashable, Sendable {
    /// `record [--format wav|caf|aiff|flac|opus|alac] [--bits 16|24|32] [--rate HZ] [--channels 1|2]
    /// [--bitrate N] [--seconds N] [--safety] [--vox [DBFS]] [--split-minutes N] [--split-mb N]`
    case start(RecordOptions)
    /// `mark [NAME]`: a marker at the current position of the recording.
    case mark(String?)
    /// `meter [on|off]`: input (and output) levels once, or as `EVENT meter` lines while on.
    case meter(Bool?)
}

/// What `record` may override; nil fields take the settings' (or board's) defaults.
struct RecordOptions: Hashable, Sendable {
    var container: String?
    var bits: Int?
    var rate: Int?
    var channels: Int?
    var seconds: Double?
    var safetyTrack: Bool?
    /// Voice-activated: the threshold in dBFS given with `--vox`.
    var voxThresholdDB: Double?
    /// Voice-activated at the saved threshold (`--vox` without a value; settings.recording.voxThresholdDB).
    var voxAtSavedThreshold = false
    var splitSeconds: Double?
    var splitBytes: Int64?
    /// Bits per second for Opus.
    var bitRate: Int?

    init(container: String? = nil, bits: Int? = nil, rate: Int? = nil, channels: Int? = nil, seconds: Double? = nil,
         safetyTrack: Bool? = nil, voxThresholdDB: Double? = nil, voxAtSavedThreshold: Bool = false,
         splitSeconds: Double? = nil, splitBytes: Int64? = nil, bitRate: Int? = nil) {
        self.bitRate = bitRate
        self.container = container
        self.bits = bits
        self.rate = rate
        self.channels = channels
        self.seconds = seconds
        self.safetyTrack = safetyTrack
        self.voxThresholdDB = voxThresholdDB
        self.voxAtSavedThreshold = voxAtSavedThreshold
        self.splitSeconds = splitSeconds
        self.splitBytes = splitBytes
    }
}

/// Volume, EQ, route and input commands.
enum AudioCommand: Hashable, Sendable {
    /// `vol`: shows; `vol 40`, `vol +5`, `vol -5`, `vol -12dB`.
    case volume(VolumeChange?)
    /// `mute [on|off]`: toggles without an argument.
    case mute(Bool?)
    /// `eq`, `eq show`: the active preset and where it runs; `eq list`; `eq PRESET`.
    case eq(EQRequest)
    /// `route`: the current route; `route speaker|headphones|auto` overrides the output.
    case route(RouteRequest?)
    /// `input`: shows; `input mic|line|headset`.
    case input(InputChoice?)
}

enum VolumeChange: Hashable, Sendable {
    /// 0...100, the user's scale (mapped onto the board's dB range).
    case percent(Int)
    /// +N / -N percent points.
    case step(Int)
    case decibels(Double)
}

enum EQRequest: Hashable, Sendable {
    case show
    case list
    case preset(String)
}

enum RouteRequest: String, Hashable, Sendable, CaseIterable {
    case speaker, headphones, auto
}

enum InputChoice: String, Hashable, Sendable, CaseIterable {
    case mic, line, headset
}
