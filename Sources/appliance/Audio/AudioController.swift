import Board
import Codec8_24
import HAL
import Queue

/// Volume, mute, EQ, routes and input of the running appliance (`AudioControl`). It owns the audio session
/// (one `AudioSessionManager` session for the whole appliance) and carries out what it decides: routes onto
/// the codec's outputs and ADC input, system sounds, and, through `RoutePolicy`, pausing on pulled headphones,
/// per-route volume, the headphone cap and the speaker amplifier. Everything runs on the control loop's thread.
final class AudioController: AudioControl {
    static let sessionID: SessionID = "appliance"
    /// Volume keys move 5 points (2.5 dB): 20 presses from silence to the cap.
    static let keyStep = 5
    /// An encoder detent moves 2 points (1 dB): with the usual 20-24 detents a turn, one turn covers about half
    /// the scale, fine enough to set and quick enough to reach.
    static let detentStep = 2
    /// PGA gain per input when selected: an electret microphone (about -42 dBV/Pa) needs some 20-30 dB to reach a
    /// useful level; a line input arrives at line level and needs none.
    static let inputGainDB: [CodecInput: Double] = [.microphone: 24, .headsetMicrophone: 24, .line: 0]

    let codec: any AudioCodec
    let settings: LiveSettings
    let clock: any MonotonicClock
    /// From `mute` until the codec's stages mute too: the fine-gain ramp plus the samples still queued in the PCM
    /// ahead of it. Only then is the codec muted, so its step falls on silence.
    let muteDelay: Duration
    private let manager: AudioSessionManager
    private let session: AudioSession
    private let inbox: SessionActionInbox
    let hooks: AudioHooks
    /// The codec can route a headset's microphone (else a headset counts as headphones).
    private let takesHeadsetMicrophone: Bool
    private(set) var policy: RoutePolicy
    /// What is in the jack, as the session was told.
    private(set) var jack: JackState
    private(set) var routeRequest = RouteRequest.auto
    private(set) var muted = false
    /// When the codec mutes after a `mute` (the fine gain ramps first).
    private var codecMuteAt: Timestamp?
    private(set) var selectedInput: CodecInput?
    private(set) var preset = EQPreset.flat
    private(set) var eqPath: EQPath
    /// The current output's setting, as the codec split it.
    private(set) var volumeSetting: VolumeSetting?
    /// A recovery from a failed recipe is under way (`recover(after:)`): a failure inside it is not recovered again.
    var isRecovering = false

    /// `capabilities`/`hardware`: the PCMs' (the daemon opens them); `jack`: what the detector reads now.
    init(board: BoardConfig, codec: any AudioCodec, capabilities: HardwareCapabilities, hardware: HardwareSettings,
         jack: JackState, settings: LiveSettings, clock: any MonotonicClock, muteDelay: Duration = .milliseconds(100),
         hooks: AudioHooks) throws(SessionError) {
        self.codec = codec
        self.settings = settings
        self.clock = clock
        self.muteDelay = muteDelay
        self.hooks = hooks
        takesHeadsetMicrophone = codec.capabilities.inputs.contains(.headsetMicrophone)
        let jack = Self.sensed(jack, headsetMicrophone: takesHeadsetMicrophone)
        self.jack = jack
        let builtIn = codec.capabilities.inputs.filter { $0 != .headsetMicrophone && capabilities.inputs[$0] != nil }
        let coordinator = SessionCoordinator(capabilities: capabilities, builtInInputs: builtIn, boardInput: board.route.input,
                                             mainOutput: board.route.output, hardware: hardware, jack: jack)
        let inbox = SessionActionInbox()
        self.inbox = inbox
        let manager = AudioSessionManager(coordinator, perform: { inbox.append($0) })
        self.manager = manager
        let category = SessionCategory(rawValue: settings.value.category) ?? .playAndRecord
        session = try manager.session(Self.sessionID, category: category)
        policy = RoutePolicy(mainOutput: board.route.output, output: coordinator.currentRoute.outputs.first ?? board.route.output,
                             limits: board.volume, headphoneCapDB: settings.value.headphoneCapDB ?? HeadphoneSafeLevel.defaultDB,
                             remembered: settings.value.volumeDB, hasAmplifier: board.amplifier != nil)
        eqPath = codec.activeEQPath
    }

    /// A headset counts as headphones when the codec cannot take its microphone.
    private static func sensed(_ state: JackState, headsetMicrophone: Bool) -> JackState {
        state == .headset && !headsetMicrophone ? .headphones : state
    }

    /// Bring-up, after the codec powered up: the saved EQ, input, mute and per-route volume, then the session
    /// activated (which routes the codec). Returns what could not be restored, one line each, for the log.
    @discardableResult
    func restore() -> [String] {
        var problems: [String] = []
        let value = settings.value
        muted = value.muted
        if let saved = EQPreset.named(value.eqPreset) {
            do throws(CodecError) { try applyPreset(saved) } catch { problems.append("eq \(value.eqPreset): \(error)") }
        } else {
            problems.append("eq: no preset '\(value.eqPreset)' (saved settings); flat instead")
            do throws(CodecError) { try applyPreset(.flat) } catch { problems.append("eq flat: \(error)") }
        }
        problems += run(policy.start(now: clock.now))
        do throws(SessionError) {
            try activate()
        } catch {
            problems.append("session: \(error)")
        }
        problems += carryOutSessionActions()
        if let name = value.input, let choice = InputChoice(rawValue: name) {
            if let refusal = choose(choice).refusal { problems.append("input \(name): \(refusal)") }
        }
        problems += syncInput()
        save()
        return problems
    }

    /// Activates the session in its category; a board with nothing to record from plays only.
    private func activate() throws(SessionError) {
        do throws(SessionError) {
            try session.setActive(true)
        } catch {
            guard error == .noInput else { throw error }
            try session.setCategory(.playback)
            try session.setActive(true)
        }
    }

    // MARK: AudioControl

    func perform(_ command: AudioCommand) -> ConsoleReply {
        switch command {
        case .volume(let change): volume(change)
        case .mute(let on): mute(on ?? !muted)
        case .eq(let request): eq(request)
        case .route(let request): route(request)
        case .input(let choice): input(choice)
        }
    }

    func handle(_ event: RemoteControlEvent) -> Bool {
        switch event {
        case .volumeUp: _ = volume(.step(Self.keyStep))
        case .volumeDown: _ = volume(.step(-Self.keyStep))
        default: return false
        }
        return true
    }

    func nudgeVolume(steps: Int) {
        guard steps != 0 else { return }
        _ = volume(.step(steps * Self.detentStep))
    }

    /// The jack detector's event (the daemon feeds `JackDetector`'s events here, on the loop).
    func jackChanged(_ event: JackEvent) {
        let state = Self.sensed(event.state, headsetMicrophone: takesHeadsetMicrophone)
        guard state != jack else { return }
        let previous = jack
        jack = state
        manager.jackChanged(JackEvent(timestamp: event.timestamp, state: state, previous: previous))
        for problem in carryOutSessionActions() + syncInput() { hooks.event(ApplianceEvent(.error, problem)) }
        save()
    }

    /// Whether anything plays, from `hooks.isOutputActive`: the speaker amplifier follows.
    func outputActivity(_ active: Bool) {
        for problem in run(policy.outputActivity(active, now: clock.now)) { hooks.event(ApplianceEvent(.error, problem)) }
    }

    var statusLines: [String] {
        ["route: \(policy.output) (\(routeRequest.rawValue))", "volume: \(volumeText)", "mute: \(muted ? "on" : "off")",
         "eq: \(preset.name) (\(eqPath.isHardware ? "hardware" : "software"))",
         "input: \(selectedInput?.rawValue ?? "none")"]
    }

    /// Asked before each wait of the loop, so a playback or system sound started in the turn before is seen
    /// at once: the tick is due now, and the amplifier comes on before the first period leaves the PCM.
    var nextDeadline: Timestamp? {
        let activityChanged = hooks.isOutputActive() != policy.outputActive
        return [codecMuteAt, policy.nextDeadline, activityChanged ? clock.now : nil].compactMap { $0 }.min()
    }

    func tick(now: Timestamp) {
        var problems: [String] = run(policy.outputActivity(hooks.isOutputActive(), now: now))
        if let at = codecMuteAt, at <= now {
            codecMuteAt = nil
            do throws(CodecError) { try applyVolume(policy.output, dB: policy.level) } catch { problems.append("mute: \(recover(after: error))") }
        }
        problems += run(policy.tick(now: now))
        for problem in problems { hooks.event(ApplianceEvent(.error, problem)) }
    }

    func shutdown() { save() }

    // MARK: Carrying out

    /// Carries out the session's actions from the last call: routes through the policy, system sounds.
    /// Returns what failed.
    func carryOutSessionActions() -> [String] {
        var change: RouteChange?
        for action in inbox.take() {
            switch action {
            case .notify(_, .routeChanged(let routeChange)):
                change = routeChange
            case .systemSounds(let allowed):
                hooks.systemSounds(allowed)
            case .stopAudio:
                // The appliance's one session was interrupted (the device taken): playback stops where it is.
                if hooks.isPlaying() { hooks.pausePlayback() }
            case .setRoute, .notify, .duck, .unduck, .applyHardware, .capture:
                // The route is carried out with its change below (the policy orders volume, output and
                // amplifier); ducking, clocks and the capture path belong to the daemon and the recorder,
                // which own the PCMs and the input queue.
                break
            }
        }
        guard let change else { return [] }
        let route = manager.coordinator.currentRoute
        let problems = run(policy.routeChanged(change, to: route, playing: hooks.isPlaying(), now: clock.now))
        hooks.event(ApplianceEvent(.route, "\(policy.output) reason=\(change.reason) previous="
                                   + change.previousRoute.outputs.map(\.rawValue).joined(separator: "+")))
        return problems
    }

    /// Carries out the policy's actions in order; returns what failed (and carries on: an amplifier line
    /// should still switch when a codec write failed).
    func run(_ actions: [RouteAction]) -> [String] {
        var problems: [String] = []
        for action in actions {
            do throws(CodecError) {
                switch action {
                case .pausePlayback: hooks.pausePlayback()
                case .volume(let output, let dB): try applyVolume(output, dB: dB)
                case .selectOutput(let output): try codec.select(output: output)
                case .amplifier(let on): hooks.setAmplifier(on)
                }
            } catch {
                problems.append("\(action): \(recover(after: error))")
            }
        }
        return problems
    }

    /// Puts `output` at `dB` on the codec (every stage muted while muted or silent) and, for the current output,
    /// the fine remainder into the chain (zero while muted).
    func applyVolume(_ output: CodecOutput, dB: Double) throws(CodecError) {
        let silent = (muted && codecMuteAt == nil) || VolumeCurve.isSilent(dB)
        let setting = try codec.setVolume(silent ? -.infinity : dB, output: output)
        guard output == policy.output else { return }
        volumeSetting = setting
        hooks.setFineGain(muted ? .zero : setting.fineGain)
    }

    /// Selects on the codec the input the session chose, if it changed (a headset plugged or pulled, `input`).
    func syncInput() -> [String] {
        let wanted = manager.coordinator.selectedInput
        guard wanted != selectedInput else { return [] }
        guard let wanted else {
            selectedInput = nil
            return []
        }
        do throws(CodecError) {
            try codec.select(input: wanted, micBias: wanted != .line, pgaGainDB: Self.inputGainDB[wanted] ?? 0)
        } catch {
            return ["input \(wanted): \(recover(after: error))"]
        }
        selectedInput = wanted
        hooks.event(ApplianceEvent(.input, wanted.rawValue))
        return []
    }

    /// The codec forgot its input (it was reset): the next `syncInput` selects it again.
    func forgetSelectedInput() { selectedInput = nil }

    /// Runs `preset` on the codec's EQ when it can, else in the 8.24 EQ (flat there otherwise).
    func applyPreset(_ preset: EQPreset) throws(CodecError) {
        let path = try codec.apply(preset: preset)
        hooks.setPreset(path.isHardware ? .flat : preset)
        self.preset = preset
        eqPath = path
    }

    /// Everything the user set, into the settings (the daemon writes them out).
    func save() {
        let levels = policy.remembered
        let muted = muted
        let preset = preset.name
        settings.update { value in
            value.volumeDB = levels
            value.muted = muted
            value.eqPreset = preset
        }
    }

    // MARK: For the commands

    var jackState: JackState { jack }
    var sessionCoordinator: SessionCoordinator { manager.coordinator }
    var audioSession: AudioSession { session }

    /// `40% (-29.5 dB)`.
    var volumeText: String {
        let level = policy.level
        let percent = policy.curve.percent(decibels: level)
        return VolumeCurve.isSilent(level) ? "0% (off)" : "\(percent)% (\(Self.decibelText(level)))"
    }

    static func decibelText(_ dB: Double) -> String {
        let tenths = (dB * 10).rounded()
        let sign = tenths < 0 ? "-" : tenths > 0 ? "+" : ""
        let magnitude = Int(abs(tenths))
        return "\(sign)\(magnitude / 10).\(magnitude % 10) dB"
    }

    /// Mute state changes: the mute's codec step is pending until the ramp is done.
    func setMuted(_ on: Bool) throws(CodecError) {
        guard on != muted else { return }
        muted = on
        if on {
            // The chain ramps to silence first; the codec's stages follow once it has played out.
            hooks.setFineGain(.zero)
            codecMuteAt = clock.now + muteDelay
        } else {
            codecMuteAt = nil
            // The codec back at the level while the chain is still silent, then the chain ramps up.
            try applyVolume(policy.output, dB: policy.level)
        }
    }

    func setRouteRequest(_ request: RouteRequest) { routeRequest = request }

    /// Sets the current route's level (clamped to the scale); returns the level set.
    func setLevel(_ dB: Double) throws(CodecError) -> Double {
        let level = policy.setLevel(dB)
        try applyVolume(policy.output, dB: level)
        return level
    }
}
