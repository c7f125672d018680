import HAL
import Testing
@testable import Queue

/// Preferred vs current hardware settings. Expected behaviour: shared/reference/core-audio-iphone-2008.md
/// 1.13 and behaviours 14-16 (applied on activation; inactive queries read the device's existing state; an
/// unsupported rate is granted as the rate in use). "Nearest" as alsa-lib's snd_pcm_hw_param_set_near
/// (src/pcm/pcm_params.c: the candidate at or above the request wins unless the one below is strictly
/// nearer). Rates offered: the simulated I2S codec's 8000, 16000, 32000, 44100, 48000, 88200, 96000 Hz.
@Suite("Session hardware settings")
struct SessionHardwareTests {
    typealias F = SessionFixture

    @Test func preferencesApplyOnlyOnActivation() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        #expect(try c.setPreferredSampleRate("player", 44100) == [])
        #expect(try c.setPreferredIOBufferDuration("player", .milliseconds(5)) == [])
        // Behaviour 14: while inactive the device keeps its existing state.
        #expect(c.hardware == F.initial)
        #expect(try c.preferences(of: "player") == HardwarePreferences(sampleRate: 44100, ioBufferDuration: .milliseconds(5)))
        let granted = HardwareSettings(sampleRate: 44100, ioBufferFrames: 221, outputChannels: 2)  // 5 ms * 44100 = 220.5 -> 221
        #expect(try c.setActive("player", true) == [.applyHardware(granted)])
        #expect(c.hardware == granted)
        // Changed while active: applied at once.
        #expect(try c.setPreferredSampleRate("player", 48000) == [.applyHardware(HardwareSettings(sampleRate: 48000, ioBufferFrames: 240, outputChannels: 2))])
    }

    @Test(arguments: [
        (22050, 16000),   // |22050-16000| = 6050 < |32000-22050| = 9950
        (46050, 48000),   // 1950 either way: set_near takes the one above
        (46049, 44100),   // 1949 below vs 1951 above
        (4000, 8000),     // below the lowest
        (192000, 96000),  // above the highest
    ])
    func anUnsupportedRateIsGrantedTheNearest(preferred: Int, granted: Int) throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        _ = try c.setPreferredSampleRate("player", preferred)
        _ = try c.setActive("player", true)
        // Behaviour 15: the request succeeds; the current rate is the one in use.
        #expect(c.hardware.sampleRate == granted)
        #expect(try c.preferences(of: "player").sampleRate == preferred)
    }

    @Test func theTalksEightKilohertzMicrophone() throws {
        // "you want 44.1 kHz, but the built-in mic only does 8 kHz" (1.13).
        var c = F.coordinator(headsetMic: F.device(rates: [8000]))
        try c.register("recorder", category: .record)
        _ = try c.setPreferredSampleRate("recorder", 44100)
        _ = try c.setActive("recorder", true)
        #expect(c.hardware.sampleRate == 44100, "the board's microphone runs at 44.1 kHz")
        let plugged = c.jackChanged(JackEvent(timestamp: .zero, state: .headset, previous: .unplugged))
        // The headset microphone only does 8 kHz, mono: a recorder that re-reads sees the new values (behaviour 4).
        #expect(plugged.first == .applyHardware(HardwareSettings(sampleRate: 8000, ioBufferFrames: 1024, outputChannels: 2, inputChannels: 1)))
        #expect(c.hardware.sampleRate == 8000 && c.hardware.inputChannels == 1)
    }

    @Test func aSmallerPreferredBufferIsGrantedWithinThePeriodRange() throws {
        var c = F.coordinator()
        try c.register("monitor", category: .playAndRecord)
        _ = try c.setPreferredIOBufferDuration("monitor", .microseconds(1333))
        _ = try c.setActive("monitor", true)
        // 1.333 ms * 48 kHz = 63.98 -> 64 frames (behaviour 16: granted and readable).
        #expect(c.hardware.ioBufferFrames == 64)
        #expect(c.hardware.ioBufferDuration == .nanoseconds(64 * 1_000_000_000 / 48000))
        #expect(c.hardware.inputChannels == 2)
        // 0.1 ms would be 5 frames: below the codec's 16-frame minimum period.
        _ = try c.setPreferredIOBufferDuration("monitor", .microseconds(100))
        #expect(c.hardware.ioBufferFrames == 16)
    }

    @Test func fullDuplexNeedsARateBothDevicesRun() throws {
        var c = F.coordinator(headsetMic: F.device(rates: [11025]), builtIn: [])
        _ = c.jackChanged(JackEvent(timestamp: .zero, state: .headset, previous: .unplugged))
        try c.register("intercom", category: .playAndRecord)
        #expect(throws: SessionError.self) { try c.setActive("intercom", true) }
        #expect(try c.state(of: "intercom") == .inactive)
        // A record-only session needs only the microphone.
        try c.register("recorder", category: .record)
        _ = try c.setActive("recorder", true)
        #expect(c.hardware.sampleRate == 11025)
    }

    @Test func aCaptureSessionWithNothingToRecordFromIsRefused() throws {
        var c = F.coordinator(builtIn: [])
        try c.register("recorder", category: .record)
        #expect(throws: SessionError.noInput) { try c.setActive("recorder", true) }
    }

    @Test func theLatestActivatedSessionRulesAndTheOthersReadItsSettings() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback, options: .mixWithOthers)
        try c.register("game", category: .ambient)
        _ = try c.setPreferredSampleRate("player", 44100)
        _ = try c.setPreferredSampleRate("game", 32000)
        _ = try c.setActive("player", true)
        #expect(c.hardware.sampleRate == 44100)
        _ = try c.setActive("game", true)
        #expect(c.hardware.sampleRate == 32000)
        // The game leaves: the player's preference rules again.
        #expect(try c.setActive("game", false).contains(.applyHardware(HardwareSettings(sampleRate: 44100, ioBufferFrames: 1024, outputChannels: 2))))
    }

    @Test func nonsensePreferencesAreRefused() throws {
        var c = F.coordinator()
        try c.register("player")
        #expect(throws: SessionError.invalidPreference("preferred sample rate 0 Hz")) { try c.setPreferredSampleRate("player", 0) }
        #expect(throws: SessionError.self) { try c.setPreferredIOBufferDuration("player", .zero) }
        // Nil goes back to no preference.
        _ = try c.setPreferredSampleRate("player", 44100)
        _ = try c.setPreferredSampleRate("player", nil)
        #expect(try c.preferences(of: "player").sampleRate == nil)
    }
}
