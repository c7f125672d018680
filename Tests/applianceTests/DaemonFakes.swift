import HAL
import Queue
@testable import appliance

/// Small stand-ins for the subsystems and the board, recording what the daemon asks of them, in order.
final class CallLog {
    var calls: [String] = []
}

final class FakePlayer: PlayerControl {
    let log: CallLog
    var isPlaying = false
    init(log: CallLog) { self.log = log }
    var statusLines: [String] { ["player: \(isPlaying ? "playing" : "stopped")"] }
    func perform(_ command: PlayerCommand) -> ConsoleReply {
        log.calls.append("player \(command)")
        if case .play = command { isPlaying = true }
        return .ok()
    }
    func stopPlayback() -> ConsoleReply {
        log.calls.append("player stop")
        guard isPlaying else { return .error(.state, "nothing is playing") }
        isPlaying = false
        return .ok(["stopped"])
    }
    func handle(_ event: RemoteControlEvent) -> Bool { log.calls.append("player \(event)"); return true }
    func pauseForRouteChange() { log.calls.append("player pause for route") }
    func shutdown() { log.calls.append("player shutdown") }
}

final class FakeRecorder: RecorderControl {
    let log: CallLog
    var isRecording = false
    init(log: CallLog) { self.log = log }
    var statusLines: [String] { ["recorder: \(isRecording ? "recording" : "idle")"] }
    func perform(_ command: RecorderCommand) -> ConsoleReply {
        log.calls.append("recorder \(command)")
        if case .start = command { isRecording = true }
        return .ok()
    }
    func stopRecording() -> ConsoleReply {
        log.calls.append("recorder finalize")
        isRecording = false
        return .ok(["recording finalized"])
    }
    func handle(_ event: RemoteControlEvent) -> Bool { false }
    func shutdown() { log.calls.append("recorder shutdown") }
}

final class FakeAudio: AudioControl {
    let log: CallLog
    let settings: LiveSettings
    init(log: CallLog, settings: LiveSettings) {
        self.log = log
        self.settings = settings
    }
    var statusLines: [String] { ["volume: \(settings.value.volumeDB["speaker"] ?? 0) dB"] }
    func perform(_ command: AudioCommand) -> ConsoleReply {
        log.calls.append("audio \(command)")
        if case .volume(.decibels(let db)) = command { settings.update { $0.volumeDB["speaker"] = db } }
        return .ok()
    }
    func handle(_ event: RemoteControlEvent) -> Bool { false }
    func nudgeVolume(steps: Int) {}
    func shutdown() { log.calls.append("audio shutdown") }
}

final class FakeBoard: DaemonBoard {
    let log: CallLog
    let name: String
    let isSimulated: Bool
    var checks: [SelfTestCheck] = []
    init(log: CallLog, name: String = "simulated", isSimulated: Bool = true) {
        self.log = log
        self.name = name
        self.isSimulated = isSimulated
    }
    var descriptionLines: [String] { ["board: \(name)"] }
    var statsLines: [String] { ["xruns: 0"] }
    func powerUp() throws(DaemonError) { log.calls.append("board power up") }
    func powerDown() -> String? { log.calls.append("board power down"); return nil }
    func simulateJack(_ state: JackState) throws(DaemonError) {
        guard isSimulated else { throw .denied("jack is simulated on the simulated board only") }
        log.calls.append("jack \(state)")
    }
    func simulateButton(_ name: String, _ gesture: SimulatedGesture) throws(DaemonError) {
        guard name == "play" else { throw .notFound("no button '\(name)'") }
        log.calls.append("button \(name) \(gesture)")
    }
    func selfTest() -> [SelfTestCheck] { checks }
}
