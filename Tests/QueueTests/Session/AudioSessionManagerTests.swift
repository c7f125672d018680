import HAL
import Synchronization
import Testing
@testable import Queue

@Suite("Audio session manager")
struct AudioSessionManagerTests {
    typealias F = SessionFixture

    final class Log: Sendable {
        private let items = Mutex<[String]>([])
        func append(_ line: String) { items.withLock { $0.append(line) } }
        var all: [String] { items.withLock { $0 } }
    }

    /// A player that does what 1.9 asks of a client: on begin it marks itself stopped (its queue was
    /// already stopped by the time it is told), on an end with shouldResume it reactivates itself. Its
    /// reactivation, made from inside the delivery, comes after the action being delivered.
    @Test func actionsArePerformedInOrderAndAListenerMayCallBackIn() throws {
        let log = Log()
        let player = Mutex<AudioSession?>(nil)
        let manager = AudioSessionManager(F.coordinator()) { action in
            log.append(action.description)
            if case .notify(_, .interruptionEnded(shouldResume: true)) = action {
                try? player.withLock { $0 }?.setActive(true)
                log.append("player reactivated")
            }
        }
        let session = try manager.session("player", category: .playback)
        player.withLock { $0 = session }
        try session.setActive(true)
        try manager.beginInterruption("alarm")
        #expect(session.state == .interrupted(by: [.appliance("alarm")]))
        try manager.endInterruption("alarm", shouldResume: true)
        #expect(log.all == ["stop audio of player", "tell player: interruption began",
                            "tell player: interruption ended (should resume)", "player reactivated"])
        #expect(session.state == .active)
        #expect(throws: SessionError.duplicateSession("player")) { try manager.session("player") }
        try session.remove()
        #expect(session.state == nil)
        #expect(throws: SessionError.unknownSession("player")) { try session.setActive(true) }
    }

    @Test func theHandleReadsTheDevicesState() throws {
        let manager = AudioSessionManager(F.coordinator(jack: .headset)) { _ in }
        let recorder = try manager.session("recorder", category: .record)
        #expect(recorder.hardware == F.initial)
        #expect(recorder.availableInputs == [.microphone, .line, .headsetMicrophone])
        try recorder.setPreferredSampleRate(16000)
        try recorder.setPreferredIOBufferDuration(.milliseconds(10))
        try recorder.setPreferredInput(.line)
        try recorder.setActive(true)
        #expect(recorder.hardware == HardwareSettings(sampleRate: 16000, ioBufferFrames: 160, outputChannels: 2, inputChannels: 2))
        #expect(recorder.currentRoute == AudioRoute(outputs: [.headphones], inputs: [.line]))
        try recorder.setCategory(.playAndRecord)
        try recorder.overrideOutputToSpeaker(true)
        #expect(recorder.currentRoute == AudioRoute(outputs: [.speaker], inputs: [.line]))
        manager.jackChanged(JackEvent(timestamp: .zero, state: .unplugged, previous: .headset))
        manager.wokeFromSleep(jack: .unplugged)
        try manager.beginInterruption("codec recovery")
        try manager.cancelInterruption("codec recovery")
        #expect(recorder.state == .inactive)
    }
}
