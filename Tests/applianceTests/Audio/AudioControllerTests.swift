import Board
import Codec8_24
import Foundation
import HAL
import Queue
import Synchronization
import Testing
import TestSupport
@testable import appliance

/// What the controller's hooks were asked to do, in order.
final class AudioHookLog: @unchecked Sendable {
    private let entries = Mutex<[String]>([])
    private let gains = Mutex<[Fixed824]>([])
    var playing = false
    /// What `isOutputActive` answers (true: as if never told, the amplifier stays on with the speaker).
    var outputActive = true

    func note(_ entry: String) { entries.withLock { $0.append(entry) } }
    func gain(_ gain: Fixed824) { gains.withLock { $0.append(gain) } }
    var log: [String] { entries.withLock { $0 } }
    var fineGains: [Fixed824] { gains.withLock { $0 } }
    var events: [String] { log.filter { $0.hasPrefix("EVENT ") } }

    func hooks(fineGain: ((Fixed824) -> Void)? = nil) -> AudioHooks {
        var hooks = AudioHooks()
        hooks.setFineGain = { gain in self.gain(gain); fineGain?(gain) }
        hooks.setPreset = { self.note("preset \($0.name)") }
        hooks.setAmplifier = { self.note("amplifier \($0)") }
        hooks.systemSounds = { self.note("sounds \($0)") }
        hooks.pausePlayback = { self.note("pause") }
        hooks.isPlaying = { self.playing }
        hooks.isOutputActive = { self.outputActive }
        hooks.event = { self.note($0.line) }
        return hooks
    }
}

/// A stereo source holding one level, for the mute ramp.
final class ConstantLevelSource: RenderSource {
    let renderChannels = 2
    let level: Fixed824
    init(level: Fixed824) { self.level = level }
    func prepare(engineRate: Int, maximumFrames: Int) throws {}
    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        buffer.update(repeating: level, count: frames * 2)
        return true
    }
}

/// The controller on a board's simulated codec, checked at the chip's registers. Register values are read
/// off the WM8960 datasheet's register map (Rev 4.4, "Register map" and the per-register tables):
/// - R2/R3 (headphone) and R40/R41 (speaker) volume, bits 6:0: 0x7F = +6 dB, 1 dB steps, 0x30 = -73 dB,
///   0x00-0x2F analogue mute; bit 7 zero-cross, bit 8 the update latch;
/// - R10/R11 DAC digital volume, bits 7:0: 0xFF = 0 dB, 0.5 dB steps, 0x00 digital mute;
/// - R0/R1 input PGA, bits 5:0: 0x00 = -17.25 dB, 0.75 dB steps, 0x3F = +30 dB; bit 6 zero-cross;
/// - R26 power 2: bits 6/5 LOUT1/ROUT1 (headphones), bits 4/3 SPKL/SPKR; R49 bits 7:6 SPK_OP_EN;
/// - R32 ADCL signal path: bit 8 LMN1 (LINPUT1), bit 7 LMP3 (LINPUT3), bit 3 LMIC2B (PGA to boost mixer).
@Suite("Audio controller")
struct AudioControllerTests {
    struct Rig {
        let clock: ManualClock
        let codec: BoardCodec
        let controller: AudioController
        let settings: LiveSettings
        let log: AudioHookLog

        func register(_ address: RegisterAddress) -> RegisterValue { codec.model?.bus.registerValue(address) ?? 0xFFFF }
        /// A volume register's 7-bit level field.
        func level(_ address: RegisterAddress) -> RegisterValue { register(address) & 0x7F }
    }

    static let pcm = PCMCapabilities(formats: [.s16LE, .s24LE], channels: 1...2, rates: 8000...96_000,
                                     standardRates: [44_100, 48_000], periodFrames: 16...4096, bufferFrames: 32...16_384,
                                     canPause: false, canResume: false)

    /// The datasheet's speaker/headphone volume code for `dB` (0x7F = +6 dB, 1 dB a step).
    static func outputCode(_ dB: Int) -> RegisterValue { RegisterValue(0x7F - (6 - dB)) }

    static func rig(_ board: BoardConfig = SimulatedBoard.config, settings: ApplianceSettings = ApplianceSettings(),
                    jack: JackState = .unplugged, fineGain: ((Fixed824) -> Void)? = nil) throws -> Rig {
        let clock = ManualClock(skipsSleeps: true)
        let codec = try BoardCodec.simulated(board.codec, frame: board.i2s, maximumVolumeDB: board.volume.maximumDB, clock: clock)
        try codec.codec.reset()
        try codec.codec.configure(CodecStreamFormat(sampleRate: 48_000, wordLength: 24, role: board.codec.role, frame: board.i2s))
        try codec.codec.powerUp()
        let live = LiveSettings(settings)
        let log = AudioHookLog()
        let capabilities = HardwareCapabilities(output: pcm, inputs: [.microphone: pcm, .line: pcm, .headsetMicrophone: pcm])
        let controller = try AudioController(
            board: board, codec: codec.codec, capabilities: capabilities,
            hardware: HardwareSettings(sampleRate: 48_000, ioBufferFrames: 480, outputChannels: 2), jack: jack,
            settings: live, clock: clock, hooks: log.hooks(fineGain: fineGain))
        return Rig(clock: clock, codec: codec, controller: controller, settings: live, log: log)
    }

    /// board-configs/fe-pi-audio.yaml: an SGTL5000 (hardware EQ, a headset microphone input).
    static func fePi() throws -> BoardConfig { try BoardCatalog.load(path: SourceTree.root() + "/board-configs/fe-pi-audio.yaml") }

    static func jack(_ rig: Rig, _ state: JackState) {
        rig.controller.jackChanged(JackEvent(timestamp: rig.clock.now, state: state, previous: rig.controller.jackState))
    }

    @Test func bringUpPutsTheSpeakerAtTheBoardDefaultWithTheAmplifierOn() throws {
        let rig = try Self.rig()
        #expect(rig.controller.restore() == [])
        // simulated.yaml: route output speaker, default-db -20: R40/R41 at 0x7F - 26, DAC at 0 dB.
        #expect(rig.register(26) & 0x18 == 0x18 && rig.register(26) & 0x60 == 0)
        #expect(rig.register(49) & 0xC0 == 0xC0)
        #expect(rig.level(40) == Self.outputCode(-20) && rig.level(41) == Self.outputCode(-20))
        #expect(rig.register(10) & 0xFF == 0xFF && rig.register(11) & 0xFF == 0xFF)
        #expect(rig.log.log.contains("amplifier true"))
        // The microphone, +24 dB: R32 LMN1 | LMIC2B, R0 code (24 + 17.25) / 0.75 = 55 with zero-cross.
        #expect(rig.register(32) == 0x108 && rig.register(0) == 0x40 | 55)
        #expect(rig.controller.statusLines.contains("volume: 60% (-20.0 dB)"))
    }

    /// The speaker amplifier follows whether anything plays (RoutePolicy: off once the output was idle for
    /// `amplifierIdleTimeout`, 10 s, a pause in between does not switch it), learnt from `isOutputActive` with
    /// no call from the daemon: the controller's deadline is due as soon as the answer changes, so the loop
    /// ticks it in the turn after a playback started, before that playback's first period has left the PCM.
    @Test func theAmplifierGoesOffAfterTheIdleTimeoutAndComesOnWhenPlaybackStarts() throws {
        let rig = try Self.rig()
        #expect(rig.controller.restore() == [])
        #expect(rig.log.log.last(where: { $0.hasPrefix("amplifier") }) == "amplifier true")   // speaker route
        rig.log.outputActive = false                                    // nothing plays, nothing sounds
        let idle = rig.clock.now
        #expect(rig.controller.nextDeadline == idle)                    // due at once: the change is noticed
        rig.controller.tick(now: idle)
        #expect(rig.controller.nextDeadline == idle + .seconds(10))     // the 10 s idle timeout
        rig.clock.advance(by: .milliseconds(9_900))
        rig.controller.tick(now: rig.clock.now)
        #expect(rig.log.log.last(where: { $0.hasPrefix("amplifier") }) == "amplifier true")   // not yet
        rig.clock.advance(by: .milliseconds(100))
        rig.controller.tick(now: rig.clock.now)
        #expect(rig.log.log.last(where: { $0.hasPrefix("amplifier") }) == "amplifier false")
        #expect(rig.controller.nextDeadline == nil)                     // off: nothing to wait for
        rig.clock.advance(by: .seconds(60))
        rig.log.outputActive = true                                     // playback starts
        #expect(rig.controller.nextDeadline == rig.clock.now)           // ticked before the loop waits again
        rig.controller.tick(now: rig.clock.now)
        #expect(rig.log.log.last(where: { $0.hasPrefix("amplifier") }) == "amplifier true")
    }

    @Test func volumePercentDecibelsStepsKeysAndTheEncoder() throws {
        let rig = try Self.rig()
        rig.controller.restore()
        // 40 on Android's curve (0.5 dB a point under the 0 dB cap): 100 - 40 = 60 points = -30 dB.
        let reply = rig.controller.perform(.volume(.percent(40)))
        #expect(reply.outcome == .ok && reply.lines.first == "volume: 40% (-30.0 dB) on speaker")
        #expect(rig.level(40) == Self.outputCode(-30) && rig.level(41) == Self.outputCode(-30))
        #expect(rig.settings.value.volumeDB["speaker"] == -30)
        #expect(rig.log.events.last == "EVENT volume 40% -30.0 dB speaker")
        // -12.75 dB: the output PGA takes -12 (whole dB), the DAC -0.5 (0xFE), the 8.24 stage 10^(-0.25/20).
        _ = rig.controller.perform(.volume(.decibels(-12.75)))
        #expect(rig.level(40) == Self.outputCode(-12) && rig.register(10) & 0xFF == 0xFE)
        let fine = try #require(rig.log.fineGains.last)
        #expect(abs(fine.doubleValue - pow(10, -0.25 / 20)) < 1e-6)
        // +5 from 74 (the nearest point to -12.75) is 79: -10.5 dB.
        _ = rig.controller.perform(.volume(.step(5)))
        #expect(rig.controller.policy.level == -10.5)
        #expect(rig.controller.handle(.volumeUp) && rig.controller.policy.level == -8)
        rig.controller.nudgeVolume(steps: -3)          // 3 detents of 2 points: -3 dB
        #expect(rig.controller.policy.level == -11)
        #expect(!rig.controller.handle(.togglePlayPause))
        #expect(rig.controller.perform(.volume(.percent(101))).outcome == .error(.usage, "vol takes 0-100, +N, -N or a level in dB (-12dB)"))
    }

    @Test func nothingGoesAboveTheBoardsMaximum() throws {
        let rig = try Self.rig()
        rig.controller.restore()
        let reply = rig.controller.perform(.volume(.decibels(6)))
        #expect(reply.lines.first == "capped at the board's maximum, 0.0 dB")
        #expect(rig.level(40) == Self.outputCode(0) && rig.register(10) & 0xFF == 0xFF)
        _ = rig.controller.perform(.volume(.step(50)))
        #expect(rig.level(40) == Self.outputCode(0))
        #expect(rig.settings.value.volumeDB["speaker"] == 0)
    }

    @Test func pluggingInMovesToCappedHeadphonesAndPullingWhilePlayingPausesBeforeTheSpeaker() throws {
        let rig = try Self.rig()
        rig.controller.restore()
        _ = rig.controller.perform(.volume(.percent(40)))
        rig.log.playing = true
        Self.jack(rig, .headphones)
        // Headphones on (R26 bits 6:5), speaker off; -20 dB default above the -22 dB cap (HeadphoneSafeLevel).
        #expect(rig.register(26) & 0x60 == 0x60 && rig.register(26) & 0x18 == 0)
        #expect(rig.level(2) == Self.outputCode(-22) && rig.level(3) == Self.outputCode(-22))
        #expect(rig.log.log.last(where: { $0.hasPrefix("amplifier") }) == "amplifier false")
        #expect(!rig.log.log.contains("pause"))     // plugging in keeps playing (behaviour 2)
        #expect(rig.log.events.contains("EVENT route headphones reason=newDeviceAvailable previous=speaker"))
        let before = rig.log.log.count
        Self.jack(rig, .unplugged)
        let after = Array(rig.log.log[before...])
        // Behaviour 1: paused first, the amplifier only after the speaker is back at its own -30 dB.
        let paused = try #require(after.firstIndex(of: "pause"))
        let amplified = try #require(after.firstIndex(of: "amplifier true"))
        #expect(paused < amplified)
        #expect(rig.level(40) == Self.outputCode(-30))
        #expect(rig.settings.value.volumeDB == ["speaker": -30, "headphones": -22])
    }

    @Test func routeOverridesNeedWhatTheyName() throws {
        let rig = try Self.rig()
        rig.controller.restore()
        #expect(rig.controller.perform(.route(.headphones)).outcome
                == .error(.state, RouteRequestError.headphonesNotPlugged.description))
        Self.jack(rig, .headphones)
        let forced = rig.controller.perform(.route(.speaker))
        #expect(forced.outcome == .ok && forced.lines.first == "route: speaker (speaker)")
        #expect(rig.register(26) & 0x18 == 0x18 && rig.register(26) & 0x60 == 0)
        _ = rig.controller.perform(.route(.auto))
        #expect(rig.register(26) & 0x60 == 0x60)
    }

    @Test func inputsTheBoardHasAndTheHeadsetItCannotTake() throws {
        let rig = try Self.rig()
        rig.controller.restore()
        let line = rig.controller.perform(.input(.line))
        #expect(line.outcome == .ok && line.lines.first == "input: line")
        // Line: R32 LMP3 | LMIC2B; R0 at 0 dB: (0 + 17.25) / 0.75 = 23.
        #expect(rig.register(32) == 0x088 && rig.register(33) == 0x088 && rig.register(0) == 0x40 | 23)
        #expect(rig.settings.value.input == "line")
        #expect(rig.log.events.last == "EVENT input line")
        // The WM8960 has no input for a headset's microphone (its driver names LINPUT1 and LINPUT3 only).
        Self.jack(rig, .headset)
        guard case .error(.state, _) = rig.controller.perform(.input(.headset)).outcome else {
            Issue.record("input headset on a WM8960 must be refused"); return
        }
        #expect(rig.controller.jackState == .headphones)
    }

    @Test func aHeadsetMicrophoneReplacesTheBuiltInOneWhilePlugged() throws {
        // The Fe-Pi's SGTL5000 takes a headset's microphone on MIC_IN; its events are fed as a jack detector would.
        let rig = try Self.rig(try Self.fePi())
        rig.controller.restore()
        #expect(rig.controller.selectedInput == .microphone)
        guard case .error(.state, _) = rig.controller.perform(.input(.headset)).outcome else {
            Issue.record("input headset with nothing plugged in must be refused"); return
        }
        Self.jack(rig, .headset)
        #expect(rig.controller.selectedInput == .headsetMicrophone)
        #expect(rig.log.events.contains("EVENT input headsetMicrophone"))
        Self.jack(rig, .unplugged)
        #expect(rig.controller.selectedInput == .microphone)
    }

    @Test func eqRunsInTheCodecWhenItCanElseInSoftware() throws {
        let wm = try Self.rig()
        wm.controller.restore()
        // The WM8960 has no EQ: every preset runs in the 8.24 EQ.
        let rock = wm.controller.perform(.eq(.preset("rock")))
        #expect(rock.outcome == .ok && wm.log.log.last(where: { $0.hasPrefix("preset") }) == "preset Rock")
        #expect(wm.controller.perform(.eq(.show)).lines.last?.hasPrefix("runs in: software") == true)
        #expect(wm.settings.value.eqPreset == "Rock")
        guard case .error(.notFound, _) = wm.controller.perform(.eq(.preset("nonsense"))).outcome else {
            Issue.record("an unknown preset must be refused"); return
        }
        // The SGTL5000's DAP runs a low shelf (Bass Booster) in hardware, so the 8.24 EQ goes flat; Deep does not fit.
        let fePi = try Self.rig(try Self.fePi())
        fePi.controller.restore()
        _ = fePi.controller.perform(.eq(.preset("bass booster")))
        #expect(fePi.controller.eqPath.isHardware)
        #expect(fePi.log.log.last(where: { $0.hasPrefix("preset") }) == "preset Flat")
        _ = fePi.controller.perform(.eq(.preset("deep")))
        #expect(!fePi.controller.eqPath.isHardware)
        #expect(fePi.log.log.last(where: { $0.hasPrefix("preset") }) == "preset Deep")
    }

    /// A board file's `route.input` is what bring-up selects while the settings name no input (the system rig's
    /// board says line: with the microphone chosen instead, R25's MICB powered a bias into a line source).
    @Test func bringUpSelectsTheBoardFilesInputUntilOneIsSaved() throws {
        var board = SimulatedBoard.config
        board.route.input = .line
        let rig = try Self.rig(board)
        #expect(rig.controller.restore() == [])
        // Line, as `input line` selects it: R32 LMP3 | LMIC2B; R25 bit 1 MICB off (datasheet: mic bias enable).
        #expect(rig.register(32) == 0x088 && rig.register(33) == 0x088)
        #expect(rig.register(25) & 0x002 == 0)
        #expect(rig.controller.selectedInput == .line)
        #expect(rig.settings.value.input == nil, "the board's default is not saved as the user's choice")

        var saved = ApplianceSettings()
        saved.input = "mic"
        let chosen = try Self.rig(board, settings: saved)
        #expect(chosen.controller.restore() == [])
        #expect(chosen.controller.selectedInput == .microphone && chosen.register(32) == 0x108)
    }

    @Test func settingsComeBackAtTheNextStart() throws {
        var saved = ApplianceSettings()
        saved.volumeDB = ["speaker": -30, "headphones": -25]
        saved.eqPreset = "Jazz"
        saved.input = "line"
        let rig = try Self.rig(settings: saved)
        #expect(rig.controller.restore() == [])
        #expect(rig.level(40) == Self.outputCode(-30) && rig.register(32) == 0x088)
        #expect(rig.log.log.contains("preset Jazz"))
        Self.jack(rig, .headphones)
        #expect(rig.level(2) == Self.outputCode(-25))   // under the -22 dB cap: kept
    }

    @Test func muteRampsTheChainToSilenceThenMutesTheCodec() throws {
        let engine = try RenderEngine(manualRate: 48_000, channels: 2, maximumFrames: 480,
                                      configuration: .init(softwareEQ: false, limiter: false, dither: false,
                                                           realtimePriority: nil, locksMemory: false))
        let rig = try Self.rig(fineGain: { engine.setFineGain($0) })
        rig.controller.restore()
        let level = Fixed824(0.5)
        try engine.attach(ConstantLevelSource(level: level))
        var out = [Fixed824](repeating: .zero, count: 960)
        func render() throws -> [Fixed824] {
            try out.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 480, into: $0.baseAddress!) }
            return stride(from: 0, to: 960, by: 2).map { out[$0] }
        }
        _ = try render()
        #expect(try render().allSatisfy { $0 == level })   // -20 dB on the codec, fine gain 1.0
        #expect(rig.controller.perform(.mute(true)).lines == ["mute: on"])
        let ramp = try render()
        // The engine's 5 ms fade at 48 kHz: N = 240 frames, so a linear ramp moves level/N a frame; no larger step.
        let n = 240
        let largest = zip(ramp, [level] + ramp).map { abs(Int($1.raw) - Int($0.raw)) }.max()!
        #expect(largest <= Int(level.raw) / n + 1)
        #expect(zip(ramp.dropFirst(), ramp).allSatisfy { $0.raw <= $1.raw })
        #expect(ramp[(n - 1)...].allSatisfy { $0 == .zero })
        // The codec keeps its level until the ramp has played out, then mutes both stages.
        #expect(rig.level(40) == Self.outputCode(-20))
        let due = try #require(rig.controller.nextDeadline)
        rig.clock.advance(by: due - rig.clock.now)
        rig.controller.tick(now: rig.clock.now)
        #expect(rig.level(40) == 0 && rig.level(41) == 0 && rig.register(10) & 0xFF == 0)
        #expect(rig.settings.value.muted)
        // Unmute: the codec back first (the chain still silent), then the chain ramps up over N frames.
        _ = rig.controller.perform(.mute(false))
        #expect(rig.level(40) == Self.outputCode(-20) && rig.register(10) & 0xFF == 0xFF)
        let up = try render()
        #expect(up[0].raw <= Int32(level.raw) / Int32(n) + 1)
        #expect(zip(up.dropFirst(), up).allSatisfy { $0.raw >= $1.raw })
        #expect(up[(n - 1)...].allSatisfy { $0 == level })
    }
}

extension AudioControllerTests {
    @Test func zeroIsSilenceAndTurningTheVolumeEndsAMute() throws {
        let rig = try Self.rig()
        rig.controller.restore()
        let off = rig.controller.perform(.volume(.percent(0)))
        #expect(off.lines.first == "volume: 0% (off) on speaker")
        // Every stage muted: output PGA codes 0x00-0x2F and DAC code 0x00 mute (datasheet R40/R41, R10/R11).
        #expect(rig.level(40) < 0x30 && rig.register(10) & 0xFF == 0)
        _ = rig.controller.perform(.mute(true))
        #expect(rig.controller.muted)
        _ = rig.controller.perform(.volume(.percent(50)))   // 50 points under 100: -25 dB
        #expect(!rig.controller.muted && rig.level(40) == Self.outputCode(-25))
        #expect(rig.log.fineGains.last == .one)
        #expect(rig.log.events.last == "EVENT volume 50% -25.0 dB speaker")
    }
}
