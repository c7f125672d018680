import Codec8_24
import HAL
import Testing
@testable import Queue

/// Alerts, the vibrate ID and the alert line (core-audio-iphone-2008.md 1.1 and behaviour 23: an alert also
/// vibrates when vibrate is on; the vibrate ID only vibrates and makes no audio; a normal sound is silent
/// when muted). The line is a simulated GPIO output, timed by a manual clock.
@Suite("System sound alerts")
struct AlertTests {
    let clock = ManualClock()
    let gpio: SimulatedGPIO
    let line: any GPIOOutputLine

    init() throws {
        gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "pinctrl-bcm2711", lineCount: 8,
                                                                   lineNames: [5: "BUZZER"])])
        line = try gpio.requestOutput(.name("BUZZER"), on: .label("pinctrl-bcm2711"), GPIOOutputConfig())
    }

    func player() -> (SystemSoundPlayer, VoicePuller) {
        let player = SystemSoundPlayer(sampleRate: 48_000, clock: clock, indicator: GPIOAlertIndicator(line: line),
                                       pulse: .milliseconds(400))
        return (player, VoicePuller(player.voices))
    }

    /// An alert sounds and turns the line on; the line goes off when the pulse's 400 ms are up, not before.
    @Test func anAlertPulsesTheLine() throws {
        let (player, puller) = player()
        let sound = player.register(.alert)
        #expect(gpio.level(line.id) == false)
        try player.playAlert(sound)
        #expect(gpio.level(line.id) == true)
        #expect(puller.render(4_096).contains { $0 != .zero })
        clock.advance(by: .milliseconds(399))
        #expect(try player.service() == Timestamp.zero + .milliseconds(400))
        #expect(gpio.level(line.id) == true)
        clock.advance(by: .milliseconds(1))
        #expect(try player.service() == nil)
        #expect(gpio.level(line.id) == false)
    }

    /// A second alert during a pulse extends it: the line stays on, without an off-on flicker.
    @Test func aSecondAlertExtendsThePulse() throws {
        let (player, _) = player()
        let sound = player.register(.click)
        try player.playAlert(sound)
        clock.advance(by: .milliseconds(300))
        try player.playAlert(sound)
        clock.advance(by: .milliseconds(200))
        #expect(try player.service() == Timestamp.zero + .milliseconds(700))
        #expect(gpio.level(line.id) == true)
        clock.advance(by: .milliseconds(200))
        try player.service()
        #expect(gpio.level(line.id) == false)
    }

    /// A normal play never touches the line.
    @Test func aNormalSoundDoesNotPulse() throws {
        let (player, puller) = player()
        try player.play(player.register(.click))
        #expect(puller.render(512).contains { $0 != .zero })
        #expect(gpio.level(line.id) == false)
    }

    /// The vibrate ID pulses and makes no audio; its completion still comes once.
    @Test func vibrateOnlyMakesNoAudio() throws {
        let (player, puller) = player()
        let log = CompletionLog()
        try player.play(.vibrate, completion: log.handler)
        #expect(gpio.level(line.id) == true)
        #expect(player.playsInProgress == 0)
        #expect(puller.render(4_096).allSatisfy { $0 == .zero })
        clock.advance(by: .milliseconds(400))
        try player.service()
        #expect(gpio.level(line.id) == false)
        #expect(log.all == [SystemSoundCompletion(sound: .vibrate, outcome: .silent, lastFrame: nil)])
    }

    /// Muted, an alert makes no audio but still pulses (mute silences sounds, not the line).
    @Test func muteKeepsTheAlertPulse() throws {
        let (player, puller) = player()
        let sound = player.register(.alert)
        try player.setMuted(true)
        try player.playAlert(sound)
        #expect(gpio.level(line.id) == true)
        #expect(puller.render(4_096).allSatisfy { $0 == .zero })
    }

    /// With vibrate off, an alert only sounds and the vibrate ID does nothing; turning vibrate off ends a
    /// pulse in progress.
    @Test func vibrateOffMeansNoPulse() throws {
        let (player, puller) = player()
        let sound = player.register(.alert)
        try player.playAlert(sound)
        #expect(gpio.level(line.id) == true)
        try player.setVibrate(false)
        #expect(gpio.level(line.id) == false)
        try player.playAlert(sound)
        try player.play(.vibrate)
        #expect(gpio.level(line.id) == false)
        #expect(puller.render(4_096).contains { $0 != .zero })
    }

    /// A line that fails is reported with the GPIO error, and the sound still plays.
    @Test func aFailedLineIsReportedAndTheSoundPlays() throws {
        let (player, puller) = player()
        let sound = player.register(.alert)
        line.release()
        do throws(SystemSoundError) {
            try player.playAlert(sound)
            Issue.record("expected an indicator error")
        } catch {
            guard case .indicator(.released) = error else { Issue.record("got \(error)"); return }
        }
        #expect(puller.render(4_096).contains { $0 != .zero })
    }
}

/// The pulse state machine on its own: time passed in, actions out.
@Suite("Alert pulse")
struct AlertPulseTests {
    @Test func onThenOffAfterItsDuration() {
        var pulse = AlertPulse(duration: .milliseconds(100))
        let t0 = Timestamp(nanoseconds: 5_000_000)
        #expect(pulse.settle(at: t0) == nil)
        #expect(pulse.trigger(at: t0) == .on)
        #expect(pulse.deadline == t0 + .milliseconds(100))
        #expect(pulse.trigger(at: t0 + .milliseconds(50)) == nil)           // extended, not restarted
        #expect(pulse.settle(at: t0 + .milliseconds(149)) == nil)
        #expect(pulse.settle(at: t0 + .milliseconds(150)) == .off)
        #expect(!pulse.isOn && pulse.settle(at: t0 + .seconds(1)) == nil)
        #expect(pulse.trigger(at: t0 + .seconds(2)) == .on)
        #expect(pulse.cancel() == .off && pulse.cancel() == nil)
    }

    /// The play rules as the reference states them: (audio, pulse) for each setting.
    @Test func playPlans() {
        let sound = SystemSoundID(rawValue: 0x1000)
        let normal = SystemSoundSettings()
        #expect(normal.plan(alert: false, sound: sound) == (true, false))
        #expect(normal.plan(alert: true, sound: sound) == (true, true))
        #expect(normal.plan(alert: false, sound: .vibrate) == (false, true))
        let muted = SystemSoundSettings(muted: true)
        #expect(muted.plan(alert: false, sound: sound) == (false, false))
        #expect(muted.plan(alert: true, sound: sound) == (false, true))
        let noVibrate = SystemSoundSettings(vibrate: false)
        #expect(noVibrate.plan(alert: true, sound: sound) == (true, false))
        #expect(noVibrate.plan(alert: true, sound: .vibrate) == (false, false))
        let disallowed = SystemSoundSettings(allowed: false)
        #expect(disallowed.plan(alert: true, sound: sound) == (false, true))
    }
}
