import HAL

/// One session's handle: the calls an AVAudioSession client makes, forwarded to the manager.
public final class AudioSession: Sendable {
    public let id: SessionID
    private let manager: AudioSessionManager

    init(id: SessionID, manager: AudioSessionManager) {
        self.id = id
        self.manager = manager
    }

    public func setCategory(_ category: SessionCategory, options: SessionCategoryOptions = []) throws(SessionError) {
        try manager.run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in
            try c.setCategory(id, category, options: options)
        }
    }

    public func setActive(_ active: Bool, notifyOthersOnDeactivation: Bool = false) throws(SessionError) {
        try manager.run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in
            try c.setActive(id, active, notifyOthersOnDeactivation: notifyOthersOnDeactivation)
        }
    }

    public func setPreferredSampleRate(_ rate: Int?) throws(SessionError) {
        try manager.run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in try c.setPreferredSampleRate(id, rate) }
    }

    public func setPreferredIOBufferDuration(_ duration: Duration?) throws(SessionError) {
        try manager.run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in
            try c.setPreferredIOBufferDuration(id, duration)
        }
    }

    public func setPreferredInput(_ port: CodecInput?) throws(SessionError) {
        try manager.run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in try c.setPreferredInput(id, port) }
    }

    public func overrideOutputToSpeaker(_ speaker: Bool) throws(SessionError) {
        try manager.run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in try c.overrideOutputToSpeaker(id, speaker) }
    }

    /// Tears the session down; nothing more is delivered to it.
    public func remove() throws(SessionError) {
        try manager.run { (c: inout SessionCoordinator) throws(SessionError) -> [SessionAction] in try c.remove(id) }
    }

    public var state: SessionState? { try? manager.coordinator.state(of: id) }
    public var currentRoute: AudioRoute { manager.coordinator.currentRoute }
    /// The device's current settings: this session's granted preferences while it rules the hardware,
    /// otherwise whatever the device runs at.
    public var hardware: HardwareSettings { manager.coordinator.hardware }
    public var availableInputs: [CodecInput] { manager.coordinator.availableInputs }
}
