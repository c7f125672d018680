import HAL

/// The appliance's audio sessions (player, recorder, alarm, ...) and the policy between them, as one pure
/// value: every call returns the `SessionAction`s the appliance must carry out, in order. Nothing here does
/// I/O or reads a clock; `AudioSessionManager` wraps it for threads.
///
/// The rules, from the 2008 talk (shared/reference/core-audio-iphone-2008.md 1.9-1.14, behaviours 1-16)
/// and AVAudioSession (core-audio-2014-2017.md A.1.6):
/// - Activating a non-mixable session interrupts every other active non-mixable one (a recording session
///   also every session with output): their audio is stopped first, then they are told
///   (`interruptionBegan`). Mixable sessions sound together; `duckOthers` lowers the others while active.
/// - Deactivating never resumes anyone. With `notifyOthersOnDeactivation` the sessions it interrupted get
///   `interruptionEnded(shouldResume: true)`; without, they are simply left inactive.
/// - The appliance can take the device itself (`beginInterruption`): every active session is stopped and
///   told; `endInterruption` tells them it ended (with the appliance's shouldResume) only if it finished
///   normally and only sessions still registered; `cancelInterruption` ends it silently.
/// - A session's preferred sample rate and IO buffer duration are applied when it becomes active (and when
///   it changes them while active), as the nearest the devices grant; while inactive it reads the device's
///   existing settings.
/// - Jack changes give exactly one route change each, with the reason and the previous route, after the
///   codec was re-routed; a preferred input that is gone falls back to the default one.
public struct SessionCoordinator: Hashable, Sendable {
    struct Client: Hashable, Sendable {
        var id: SessionID
        var policy: CategoryPolicy
        var state: SessionState = .inactive
        var preferences = HardwarePreferences()
        var preferredInput: CodecInput?
        var overridesToSpeaker = false
        /// The order of its latest activation: the latest active session's preferences rule the hardware.
        var activation = 0
        var isActive: Bool { state == .active }
    }

    public let capabilities: HardwareCapabilities
    /// The inputs the board always has (onboard microphone, line in).
    public let builtInInputs: [CodecInput]
    /// The board file's input, when it names one.
    public let boardInput: CodecInput?
    /// Where sound goes with nothing in the jack: the speaker amplifier, or the line out of a board without one.
    public let mainOutput: CodecOutput
    /// What the hardware runs at now: what every session reads, active or not.
    public private(set) var hardware: HardwareSettings
    public private(set) var jack: JackState
    public private(set) var currentRoute: AudioRoute
    public private(set) var systemSoundsAllowed = true
    /// Appliance interruptions in progress, oldest first.
    public private(set) var interruptions: [String] = []
    private var clients: [Client] = []
    private var ducked: Set<SessionID> = []
    private var captureOpen = false
    private var activations = 0

    /// `hardware` is the device's existing state; `jack` what the jack detector reports now. The ports are
    /// HAL's codec outputs and inputs, so a route maps straight onto the codec driver's `select` calls.
    /// `boardInput`: the board file's input (`route.input`), the one used while no session prefers another and
    /// no headset microphone is in.
    public init(capabilities: HardwareCapabilities, builtInInputs: [CodecInput], boardInput: CodecInput? = nil,
                mainOutput: CodecOutput = .speaker, hardware: HardwareSettings, jack: JackState = .unplugged) {
        self.capabilities = capabilities
        self.builtInInputs = CodecInput.allCases.filter { $0 != .headsetMicrophone && builtInInputs.contains($0) }
        self.boardInput = boardInput
        self.mainOutput = mainOutput
        self.hardware = hardware
        self.jack = jack
        currentRoute = AudioRoute(outputs: [jack.isPlugged ? .headphones : mainOutput])
    }

    // MARK: Queries

    public var sessions: [SessionID] { clients.map(\.id) }

    public func state(of id: SessionID) throws(SessionError) -> SessionState { clients[try index(of: id)].state }

    public func policy(of id: SessionID) throws(SessionError) -> CategoryPolicy { clients[try index(of: id)].policy }

    public func preferences(of id: SessionID) throws(SessionError) -> HardwarePreferences { clients[try index(of: id)].preferences }

    public func isDucked(_ id: SessionID) -> Bool { ducked.contains(id) }

    /// The inputs that could be used now: the board's own, and the headset's microphone while one is in.
    public var availableInputs: [CodecInput] {
        CodecInput.allCases.filter { builtInInputs.contains($0) || ($0 == .headsetMicrophone && jack.hasMicrophone) }
    }

    /// The input the ADC mux is set to: the latest active capture session's preference while that port is
    /// available, else the headset microphone when plugged (what plugging it in means), else the board file's
    /// input, else the board's microphone or line.
    public var selectedInput: CodecInput? {
        let available = availableInputs
        let preferred = clients.filter { $0.isActive && $0.policy.usesInput && $0.preferredInput != nil }
            .max { $0.activation < $1.activation }?.preferredInput
        if let preferred, available.contains(preferred) { return preferred }
        if available.contains(.headsetMicrophone) { return .headsetMicrophone }
        if let boardInput, available.contains(boardInput) { return boardInput }
        return [.microphone, .line].first(where: available.contains)
    }

    // MARK: Sessions

    /// Adds a session, inactive, in `category` (soloAmbient unless given).
    public mutating func register(_ id: SessionID, category: SessionCategory = .default,
                                  options: SessionCategoryOptions = []) throws(SessionError) {
        guard !clients.contains(where: { $0.id == id }) else { throw .duplicateSession(id) }
        clients.append(Client(id: id, policy: try CategoryPolicy(category, options: options)))
    }

    /// Sets a session's category. While active it takes effect at once (interrupting others if it became
    /// non-mixable), with a `categoryChange` route change if the route changes.
    public mutating func setCategory(_ id: SessionID, _ category: SessionCategory,
                                     options: SessionCategoryOptions = []) throws(SessionError) -> [SessionAction] {
        try transaction { (s: inout Self) throws(SessionError) -> [SessionAction] in
            let i = try s.index(of: id)
            s.clients[i].policy = try CategoryPolicy(category, options: options)
            guard s.clients[i].isActive else { return [] }
            return try s.takeDevice(i)
        }
    }

    /// Activates or deactivates a session.
    public mutating func setActive(_ id: SessionID, _ active: Bool,
                                   notifyOthersOnDeactivation: Bool = false) throws(SessionError) -> [SessionAction] {
        try transaction { (s: inout Self) throws(SessionError) -> [SessionAction] in
            let i = try s.index(of: id)
            return active ? try s.activate(i) : s.deactivate(i, notifyOthers: notifyOthersOnDeactivation)
        }
    }

    /// Tears a session down: deactivated if active (others are not notified), and nothing more is
    /// delivered to it, an interruption's end included.
    public mutating func remove(_ id: SessionID) throws(SessionError) -> [SessionAction] {
        try transaction { (s: inout Self) throws(SessionError) -> [SessionAction] in
            let i = try s.index(of: id)
            var actions = s.deactivate(i, notifyOthers: false)
            actions += s.release(.session(id), notify: false)
            s.clients.remove(at: i)
            s.ducked.remove(id)
            // Torn down: nothing more is said to it (its queues are still stopped).
            return actions.filter { if case .notify(id, _) = $0 { false } else { true } }
        }
    }

    public mutating func setPreferredSampleRate(_ id: SessionID, _ rate: Int?) throws(SessionError) -> [SessionAction] {
        if let rate, rate <= 0 { throw .invalidPreference("preferred sample rate \(rate) Hz") }
        return try setPreferences(id) { $0.sampleRate = rate }
    }

    public mutating func setPreferredIOBufferDuration(_ id: SessionID, _ duration: Duration?) throws(SessionError) -> [SessionAction] {
        if let duration, duration <= .zero { throw .invalidPreference("preferred IO buffer duration \(duration)") }
        return try setPreferences(id) { $0.ioBufferDuration = duration }
    }

    /// Chooses the input a capture session wants (nil: the default). Only an available port can be chosen;
    /// one that later disappears falls back to the default while it is gone.
    public mutating func setPreferredInput(_ id: SessionID, _ port: CodecInput?) throws(SessionError) -> [SessionAction] {
        if let port, !availableInputs.contains(port) { throw .inputUnavailable(port) }
        return try transaction { (s: inout Self) throws(SessionError) -> [SessionAction] in
            let i = try s.index(of: id)
            s.clients[i].preferredInput = port
            return s.clients[i].isActive ? s.reconcile(.override) : []
        }
    }

    /// Forces the output to the main output (speaker or line out) while this session is active, even with
    /// headphones in (AVAudioSession's overrideOutputAudioPort(.speaker)); false gives the jack back its say.
    public mutating func overrideOutputToSpeaker(_ id: SessionID, _ speaker: Bool) throws(SessionError) -> [SessionAction] {
        try transaction { (s: inout Self) throws(SessionError) -> [SessionAction] in
            let i = try s.index(of: id)
            s.clients[i].overridesToSpeaker = speaker
            return s.reconcile(.override)
        }
    }

    // MARK: Appliance interruptions

    /// The appliance takes the device (an alarm, an announcement): every active session is stopped, then
    /// told. No session can activate until it ends.
    public mutating func beginInterruption(_ source: String) throws(SessionError) -> [SessionAction] {
        guard !interruptions.contains(source) else { throw .interruptionInProgress(source) }
        interruptions.append(source)
        let actions = interrupt(Array(clients.indices), by: .appliance(source))
        return actions + reconcile(.categoryChange)
    }

    /// The interruption finished normally: the sessions it interrupted (and no other interrupter holds)
    /// are told, with `shouldResume` as the appliance decides.
    public mutating func endInterruption(_ source: String, shouldResume: Bool) throws(SessionError) -> [SessionAction] {
        guard let at = interruptions.firstIndex(of: source) else { throw .noSuchInterruption(source) }
        interruptions.remove(at: at)
        return release(.appliance(source), notify: true, shouldResume: shouldResume)
    }

    /// The interruption ended without finishing normally: its sessions are left inactive, untold.
    public mutating func cancelInterruption(_ source: String) throws(SessionError) -> [SessionAction] {
        guard let at = interruptions.firstIndex(of: source) else { throw .noSuchInterruption(source) }
        interruptions.remove(at: at)
        return release(.appliance(source), notify: false)
    }

    // MARK: Hardware events

    /// The jack detector's change (HAL `JackDetector`/`JackStateMachine`): one route change per change of
    /// what is available, `newDeviceAvailable` when something was added (headphones, a headset's
    /// microphone), `oldDeviceUnavailable` when something went, with the route before it.
    public mutating func jackChanged(_ event: JackEvent) -> [SessionAction] {
        let before = Self.devices(jack)
        jack = event.state
        let after = Self.devices(jack)
        let reason: RouteChangeReason
        if !after.subtracting(before).isEmpty {
            reason = .newDeviceAvailable
        } else if !before.subtracting(after).isEmpty {
            reason = .oldDeviceUnavailable
        } else {
            return []
        }
        return reconcile(reason, always: true)
    }

    /// The board woke from sleep: the codec lost its settings, so they are applied again; a route that
    /// changed meanwhile (`jack` is what the detector reads now) is reported as `wakeFromSleep`.
    public mutating func wokeFromSleep(jack: JackState) -> [SessionAction] {
        self.jack = jack
        let changes = reconcile(.wakeFromSleep)
        let rerouted = changes.contains { if case .setRoute = $0 { true } else { false } }
        return [.applyHardware(hardware)] + (rerouted ? [] : [.setRoute(currentRoute)]) + changes
    }

    // MARK: - Rules

    private func index(of id: SessionID) throws(SessionError) -> Int {
        guard let i = clients.firstIndex(where: { $0.id == id }) else { throw .unknownSession(id) }
        return i
    }

    /// Runs `body` on a copy and keeps it only if it succeeds: a refused call changes nothing.
    private mutating func transaction(_ body: (inout Self) throws(SessionError) -> [SessionAction]) throws(SessionError) -> [SessionAction] {
        var copy = self
        let actions = try body(&copy)
        self = copy
        return actions
    }

    private mutating func setPreferences(_ id: SessionID, _ change: (inout HardwarePreferences) -> Void) throws(SessionError) -> [SessionAction] {
        try transaction { (s: inout Self) throws(SessionError) -> [SessionAction] in
            let i = try s.index(of: id)
            change(&s.clients[i].preferences)
            guard s.clients[i].isActive else { return [] }
            s.activations += 1
            s.clients[i].activation = s.activations
            _ = try s.grant(for: i)
            return s.reconcile(.categoryChange)
        }
    }

    private mutating func activate(_ i: Int) throws(SessionError) -> [SessionAction] {
        if let source = interruptions.first { throw .deviceTaken(by: source) }
        guard !clients[i].isActive else { return [] }
        clients[i].state = .active
        activations += 1
        clients[i].activation = activations
        return try takeDevice(i)
    }

    /// Session `i` is active with its (possibly new) policy: checks it can be, interrupts whom it must,
    /// and brings the rest in line.
    private mutating func takeDevice(_ i: Int) throws(SessionError) -> [SessionAction] {
        let policy = clients[i].policy
        if policy.playsOutput, policy.isMixable,
           let recorder = clients.first(where: { $0.id != clients[i].id && $0.isActive && $0.policy.silencesOtherOutput }) {
            throw .outputSilencedByRecording(recorder.id)
        }
        if policy.usesInput, selectedInput == nil { throw .noInput }
        _ = try grant(for: i)
        let victims = clients.indices.filter { j in
            guard j != i, clients[j].isActive else { return false }
            return (!policy.isMixable && !clients[j].policy.isMixable) || (policy.silencesOtherOutput && clients[j].policy.playsOutput)
        }
        return interrupt(victims, by: .session(clients[i].id)) + reconcile(.categoryChange)
    }

    private mutating func deactivate(_ i: Int, notifyOthers: Bool) -> [SessionAction] {
        switch clients[i].state {
        case .inactive, .interrupted:
            // No longer active, but it may still hold sessions it interrupted earlier: let them go.
            clients[i].state = .inactive
            return release(.session(clients[i].id), notify: notifyOthers)
        case .active:
            clients[i].state = .inactive
            clients[i].overridesToSpeaker = false
            return reconcile(.categoryChange) + release(.session(clients[i].id), notify: notifyOthers)
        }
    }

    /// Interrupts the sessions at `indices`: those active are stopped (all first), then told; those
    /// already interrupted only note the new interrupter.
    private mutating func interrupt(_ indices: [Int], by interrupter: Interrupter) -> [SessionAction] {
        var stopped: [SessionID] = []
        for j in indices {
            switch clients[j].state {
            case .active:
                clients[j].state = .interrupted(by: [interrupter])
                stopped.append(clients[j].id)
            case .interrupted(var by):
                by.insert(interrupter)
                clients[j].state = .interrupted(by: by)
            case .inactive:
                break
            }
        }
        return stopped.map { .stopAudio($0) } + stopped.map { .notify($0, .interruptionBegan) }
    }

    /// `interrupter` lets go: sessions it was the last to hold become inactive, told if `notify`.
    private mutating func release(_ interrupter: Interrupter, notify: Bool, shouldResume: Bool = true) -> [SessionAction] {
        var actions: [SessionAction] = []
        for j in clients.indices {
            guard case .interrupted(var by) = clients[j].state, by.remove(interrupter) != nil else { continue }
            clients[j].state = by.isEmpty ? .inactive : .interrupted(by: by)
            if by.isEmpty, notify { actions.append(.notify(clients[j].id, .interruptionEnded(shouldResume: shouldResume))) }
        }
        return actions
    }

    /// The settings session `i` would be granted now.
    private func grant(for i: Int) throws(SessionError) -> HardwareSettings {
        let policy = clients[i].policy
        return try capabilities.grant(clients[i].preferences, output: policy.playsOutput,
                                      input: policy.usesInput ? selectedInput : nil, current: hardware)
    }

    /// What is available at the jack, for telling added from removed.
    private static func devices(_ jack: JackState) -> Set<String> {
        var devices: Set<String> = []
        if jack.isPlugged { devices.insert("headphones") }
        if jack.hasMicrophone { devices.insert("headset microphone") }
        return devices
    }

    /// Brings hardware, capture, route, ducking and system sounds in line with the sessions, returning the
    /// changes in the order to make them. A route change is reported with `reason`; `always`: even when the
    /// route stayed the same (a physical change always gives one).
    private mutating func reconcile(_ reason: RouteChangeReason, always: Bool = false) -> [SessionAction] {
        var actions: [SessionAction] = []
        let active = clients.filter(\.isActive)
        // Hardware: the latest activated session's preferences, as granted.
        if let owner = clients.indices.filter({ clients[$0].isActive }).max(by: { clients[$0].activation < clients[$1].activation }),
           let granted = try? grant(for: owner) {
            var settings = granted
            if !active.contains(where: \.policy.usesInput) { settings.inputChannels = 0 }
            if settings != hardware {
                hardware = settings
                actions.append(.applyHardware(settings))
            }
        } else if active.isEmpty, hardware.inputChannels != 0 {
            hardware.inputChannels = 0
        }
        let capture = active.contains(where: \.policy.usesInput)
        if capture != captureOpen {
            captureOpen = capture
            actions.append(.capture(open: capture))
        }
        let speaker = !jack.isPlugged || active.contains(where: \.overridesToSpeaker)
        let route = AudioRoute(outputs: [speaker ? mainOutput : .headphones],
                               inputs: captureOpen ? selectedInput.map { [$0] } ?? [] : [])
        if route != currentRoute || always {
            let previous = currentRoute
            if route != currentRoute { actions.append(.setRoute(route)) }
            currentRoute = route
            let change = RouteChange(reason: reason, previousRoute: previous)
            actions += clients.map { .notify($0.id, .routeChanged(change)) }
        }
        let ducking = active.contains(where: \.policy.ducksOthers)
            ? Set(active.filter { !$0.policy.ducksOthers && $0.policy.playsOutput }.map(\.id)) : []
        for client in clients where ducked.contains(client.id) && !ducking.contains(client.id) { actions.append(.unduck(client.id)) }
        for client in clients where !ducked.contains(client.id) && ducking.contains(client.id) { actions.append(.duck(client.id)) }
        ducked = ducking
        let sounds = active.allSatisfy(\.policy.allowsSystemSounds)
        if sounds != systemSoundsAllowed {
            systemSoundsAllowed = sounds
            actions.append(.systemSounds(allowed: sounds))
        }
        return actions
    }
}
