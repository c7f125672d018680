import Foundation
import Testing
@testable import Board
import HAL

/// Collects what a callback hands over, from any thread.
final class Collected<Value: Sendable>: @unchecked Sendable {
    private let condition = Condition()
    private var values: [Value] = []
    func append(_ value: Value) { condition.locked { values.append(value) } }
    var all: [Value] { condition.locked { values } }
}

@Suite("Assembled board")
struct AssembledBoardTests {
    /// The simulated board on a manual clock, as the tests drive it.
    func simulatedBoard(_ config: BoardConfig = SimulatedBoard.config, loopback: Bool = false)
        throws -> (AssembledBoard, ManualClock) {
        let clock = ManualClock(start: .zero + .seconds(100))
        let board = try AssembledBoard(config: config, options: BoardAssemblyOptions(timing: .manual(clock), loopback: loopback))
        return (board, clock)
    }

    @Test func theSimulatedBoardComesUpOnItsTwins() throws {
        let (board, _) = try simulatedBoard()
        #expect(board.isSimulated)
        #expect(board.gpio.simulated != nil && board.gpio.pump == nil)     // manual timing: no pump
        #expect(board.codec.model != nil)
        #expect(board.pcms.isSimulated)
        #expect(board.jack?.state == .unplugged)
        #expect(board.amplifier?.isOn == false)
        // Powered up on the board file's route and level (speaker, default-db -20), references on.
        try board.powerUp(sampleRate: 48_000)
        let state = try #require(board.codec.model?.describeState(streamRate: 48_000))
        #expect(state.contains("speaker: powered at -20.0 dB") && state.contains("DAC: powered") && state.contains("VREF on"),
                "\(state)")
        try board.amplifier?.set(on: true)
        try board.powerDown()
        let off = try #require(board.codec.model?.describeState(streamRate: nil))
        #expect(off.contains("speaker: off") && off.contains("DAC: off") && off.contains("VREF off"), "\(off)")
        #expect(board.amplifier?.isOn == false)       // the amplifier goes off first
    }

    /// The board file's jack: switch on line 4 (50 ms debounce), microphone on line 5 (the 50 ms default). A
    /// headset goes in at P: the plug line chatters for 8 ms, the microphone closes 20 ms later. The decision
    /// comes once, at P + 150 ms (Linux's machine drivers decide headset or headphones 150 ms after the plug:
    /// sound/soc/samsung/midas_wm1811.c debounce_time 150), stamped P. Pulling it at Q is reported once the
    /// plug line has held for its 50 ms debounce after its last bounce (Q + 8 ms + 50 ms), stamped Q.
    @Test func aSimulatedPlugIsDebouncedByTheRealJackDetector() throws {
        let (board, clock) = try simulatedBoard()
        let events = Collected<JackEvent>()
        board.onJackEvent { events.append($0) }
        let gpio = try #require(board.gpio.simulated)
        let inserted = clock.now
        try board.simulateJack(.headset)
        gpio.advance(to: inserted + .milliseconds(150) - .nanoseconds(1))
        try board.tick()
        #expect(events.all.isEmpty)
        gpio.advance(to: inserted + .milliseconds(150))
        try board.tick()
        #expect(events.all == [JackEvent(timestamp: inserted, state: .headset, previous: .unplugged)])

        gpio.advance(by: .seconds(1))
        let pulled = clock.now
        try board.simulateJack(.unplugged)
        gpio.advance(to: pulled + .milliseconds(58) - .nanoseconds(1))
        try board.tick()
        #expect(events.all.count == 1)
        gpio.advance(to: pulled + .milliseconds(58))
        try board.tick()
        #expect(events.all.last == JackEvent(timestamp: pulled, state: .unplugged, previous: .headset))
        #expect(events.all.count == 2)
    }

    /// A loop that ticks the board only at `nextDeadline` (no polling) still sees a pull: the deadlines
    /// include the jack line's debounce. Expected: reported by the bounce's end (the last toggle of
    /// ContactBounce.jackPlug, the simulation's input, 8 ms) plus the board file's debounce-ms (50), within
    /// 20 ms.
    @Test func aPullIsReportedByFollowingTheBoardsDeadlinesAlone() throws {
        let (board, clock) = try simulatedBoard()
        let events = Collected<JackEvent>()
        board.onJackEvent { events.append($0) }
        let gpio = try #require(board.gpio.simulated)
        try board.simulateJack(.headphones)
        gpio.advance(by: .milliseconds(400))
        try board.tick()
        #expect(events.all.count == 1)
        let pulled = clock.now
        let bounceEnd = try board.simulateJack(.unplugged)
        gpio.advance(to: bounceEnd)   // the contacts settle by themselves; from here only deadlines
        try board.tick()
        var ticks = 0
        while events.all.count < 2, let deadline = board.nextDeadline, ticks < 100 {
            gpio.advance(to: max(deadline, clock.now))
            try board.tick()
            ticks += 1
        }
        #expect(events.all.last == JackEvent(timestamp: pulled, state: .unplugged, previous: .headphones))
        #expect(clock.now <= pulled + .milliseconds(8 + 50 + 20), "\(clock.now - pulled)")
    }

    @Test func headphonesWithoutAMicrophoneAreHeadphones() throws {
        let (board, clock) = try simulatedBoard()
        let events = Collected<JackEvent>()
        board.onJackEvent { events.append($0) }
        let inserted = clock.now
        try board.simulateJack(.headphones)
        board.gpio.simulated?.advance(by: .milliseconds(400))
        try board.tick()
        #expect(events.all == [JackEvent(timestamp: inserted, state: .headphones, previous: .unplugged)])
    }

    /// The amplifier line's pin for each control and polarity, off at start and on when told. An enable line
    /// is asserted to run the amplifier, a mute line asserted to silence it (IQaudio's GPIO22 mute); the
    /// asserted level is the `active` one. So, closed form: pin high = (asserted == active-high).
    @Test(arguments: [(AmplifierControl.enable, ActiveLevel.high), (.enable, .low), (.mute, .high), (.mute, .low)])
    func theAmplifierLineFollowsItsPolarity(control: AmplifierControl, active: ActiveLevel) throws {
        var config = SimulatedBoard.config
        config.amplifier = AmplifierConfig(line: 22, active: active, control: control)
        let (board, _) = try simulatedBoard(config)
        let amplifier = try #require(board.amplifier)
        func expectedPin(on: Bool) -> Bool {
            let asserted = control == .enable ? on : !on
            return asserted == (active == .high)
        }
        #expect(try board.gpio.pinLevel(22) == expectedPin(on: false))
        try amplifier.set(on: true)
        #expect(try board.gpio.pinLevel(22) == expectedPin(on: true))
        #expect(amplifier.isOn)
        try board.powerDown()
        #expect(try board.gpio.pinLevel(22) == expectedPin(on: false))
    }

    @Test func aGPIOLEDDrivesItsPinAtItsActiveLevel() throws {
        var config = SimulatedBoard.config
        let (board, _) = try simulatedBoard(config)
        #expect(try board.gpio.pinLevel(26) == false)          // status: line 26, active high, dark at start
        try board.leds.set("status", on: true)
        #expect(try board.gpio.pinLevel(26) == true)
        #expect(try board.leds.state("status") == .gpio(on: true))
        config.leds[0] = LEDConfig(name: "status", kind: .gpio(line: 26, active: .low))
        let (lowBoard, _) = try simulatedBoard(config)
        #expect(try lowBoard.gpio.pinLevel(26) == true)        // active low: dark is high
        try lowBoard.leds.set("status", on: true)
        #expect(try lowBoard.gpio.pinLevel(26) == false)
    }

    /// APA102 datasheet, "Data transmission": start frame 32 zero bits; each LED frame 111 + 5-bit brightness,
    /// then blue, green, red; an end frame of ones (32 bits, at least n/2 clocks).
    @Test func theRingGetsAPA102FramesAndShowsThem() throws {
        #expect(APA102Frame.encode([.red, LEDColor(red: 1, green: 2, blue: 3)]) ==
                [0x00, 0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0xFF, 0x03, 0x02, 0x01, 0xFF, 0xFF, 0xFF, 0xFF])
        let (board, _) = try simulatedBoard()
        #expect(try board.leds.state("ring") == .ring([.off, .off, .off]))
        try board.leds.set("ring", pixels: [.red, .green])
        #expect(try board.leds.state("ring") == .ring([.red, .green, .off]))
        try board.leds.set("ring", color: .blue)
        #expect(try board.leds.state("ring") == .ring([.blue, .blue, .blue]))
        #expect(throws: BoardDeviceError.led("no LED 'halo' on this board (this board has: status, ring)")) {
            try board.leds.set("halo", on: true)
        }
    }

    @Test func anAPA102RingOnHardwareSaysItIsNotSupportedYet() throws {
        let config = SimulatedBoard.config
        let gpio = try BoardGPIO(config: config, simulated: true, timing: .manual(ManualClock()))
        let leds = try BoardLEDs(config.leds, gpio: gpio, simulated: false)
        guard case .unsupported(let why) = try leds.state("ring") else {
            Issue.record("a hardware ring should be unsupported")
            return
        }
        #expect(why.contains("/dev/spidev0.1") && why.contains("not supported"))
        #expect(throws: BoardDeviceError.led(why)) { try leds.set("ring", color: .red) }
    }

    /// Loopback is a wire: the capture reads back exactly the bytes played.
    @Test func loopbackBringsWhatPlaysBackOnCapture() throws {
        let (board, clock) = try simulatedBoard(loopback: true)
        let configuration = PCMConfiguration(format: .s16LE, rate: 48_000, channels: 2, periodFrames: 256, periodCount: 4,
                                             nonBlocking: true)
        let playback = try board.pcms.openPlayback(configuration)
        let capture = try board.pcms.openCapture(configuration)
        let samples: [Int16] = (0..<512).map { Int16(truncatingIfNeeded: $0 * 37) }
        let written = try samples.withUnsafeBufferPointer { try playback.write($0) }
        #expect(written == 256)
        try capture.start()
        board.gpio.simulated?.advance(by: .milliseconds(6))      // one 256-frame period is 5.33 ms at 48 kHz
        _ = clock
        var read = [Int16](repeating: -1, count: 512)
        let frames = try read.withUnsafeMutableBufferPointer { try capture.read(into: $0) }
        #expect(frames == 256)
        #expect(read == samples)
        let other = PCMConfiguration(format: .s32LE, rate: 48_000, channels: 2, periodFrames: 256, periodCount: 4)
        capture.close()
        #expect(throws: BoardDeviceError.self) { try board.pcms.openCapture(other) }
    }

    /// `--pcm NAME`: the simulated board plays through ALSA (alsa-lib's `null` PCM here).
    @Test func anOverrideSendsTheSimulatedBoardThroughALSA() throws {
        let clock = ManualClock()
        let board = try AssembledBoard(config: SimulatedBoard.config, options: BoardAssemblyOptions(timing: .manual(clock), pcm: "null"))
        let playback = try board.pcms.openPlayback(PCMConfiguration(format: .s16LE, rate: 48_000, channels: 2,
                                                                    periodFrames: 256, periodCount: 4))
        #expect(playback is ALSAPCM && playback.name == "null")
        playback.close()
        let missing = try AssembledBoard(config: SimulatedBoard.config,
                                         options: BoardAssemblyOptions(timing: .manual(clock), pcm: "nosuchpcm"))
        do {
            _ = try missing.pcms.openPlayback(PCMConfiguration(format: .s16LE, rate: 48_000, channels: 2,
                                                               periodFrames: 256, periodCount: 4))
            Issue.record("a missing PCM should not open")
        } catch {
            #expect("\(error)".contains("'nosuchpcm'") && "\(error)".contains("aplay -L"), "\(error)")
        }
    }

    /// A real board on a machine without its hardware: one message naming the device and what to check. The
    /// codec's bus is opened first: the kernel's message for it, with what to enable; then the GPIO chip.
    @Test func aMissingI2CBusOrGPIOChipIsOneClearMessage() throws {
        let config = try BoardCatalog.load(path: RepositoryFiles.boardConfigs + "/waveshare-wm8960.yaml")
        if !FileManager.default.fileExists(atPath: "/dev/i2c-1") {
            do {
                _ = try AssembledBoard(config: config)
                Issue.record("assembly should fail without /dev/i2c-1")
            } catch {
                #expect("\(error)".hasPrefix("codec on /dev/i2c-1 address 0x1a: cannot open /dev/i2c-1") &&
                        "\(error)".contains("dtparam=i2c_arm=on"), "\(error)")
            }
        }
        // The WM8960 HAT's file puts nothing on GPIO lines; with a button it needs its chip.
        var withButton = config
        withButton.buttons = Array(SimulatedBoard.config.buttons.prefix(1))
        var namedChip = withButton
        namedChip.gpioChip = .chip(.label("gpio-hat"))
        guard !FileManager.default.fileExists(atPath: "/dev/gpiochip0") else { return }   // a machine with GPIO chips
        // A board that uses no line needs no chip (the appliance's fall-back when the chip is missing).
        #expect(throws: Never.self) { _ = try BoardGPIO(config: config, simulated: false, timing: .realTime) }
        for board in [withButton, namedChip] {
            do {
                _ = try BoardGPIO(config: board, simulated: false, timing: .realTime)
                Issue.record("no GPIO chip should be found")
            } catch {
                let text = "\(error)"
                let named = board.gpioChip.isHeader ? "pinctrl-bcm2711" : "label 'gpio-hat' not found"
                #expect(text.hasPrefix("the GPIO chip (") && text.contains(named) && text.contains("No GPIO chips found"), "\(text)")
            }
        }
    }

    /// A real board's file on a laptop: every device on its twin, the lines on a simulated header chip.
    @Test(arguments: ["respeaker-2mic", "waveshare-wm8960", "iqaudio-dacplus"])
    func aRealBoardsFileRunsOnTwinsWhenAsked(name: String) throws {
        let config = try BoardCatalog.load(path: RepositoryFiles.boardConfigs + "/\(name).yaml")
        let board = try AssembledBoard(config: config, options: BoardAssemblyOptions(timing: .manual(ManualClock()), simulated: true))
        #expect(board.isSimulated && board.codec.model != nil && board.pcms.isSimulated)
        #expect(board.pcms.captureName == config.pcm.capture.map { _ in "simulated" })
        #expect(board.gpio.chip == .label("pinctrl-bcm2711"))
        try board.powerUp()
        if let amplifier = config.amplifier {
            try board.amplifier?.set(on: true)
            #expect(try board.gpio.pinLevel(amplifier.line) == (AmplifierLine.asserted(on: true, amplifier.control) == (amplifier.active == .high)))
        }
    }

    /// `board` on the console: what came up, and its state now.
    @Test func theReportSaysWhatCameUpAndItsState() throws {
        let (board, _) = try simulatedBoard()
        #expect(board.reportLines.contains("jack: unplugged"))
        #expect(board.reportLines.contains("amplifier: off (enable on GPIO22 active-high)"))
        #expect(board.reportLines.contains("pcm: playback simulated, capture simulated"))
        try board.simulateJack(.headphones)
        board.gpio.simulated?.advance(by: .milliseconds(400))
        try board.tick()
        try board.amplifier?.set(on: true)
        #expect(board.reportLines.contains("jack: headphones"))
        #expect(board.reportLines.contains("amplifier: on (enable on GPIO22 active-high)"))
        #expect(board.reportLines.contains("led status: gpio GPIO26 active-high, off"))
    }

    /// The pump: edges keep the times they were scheduled at, however late the loop pumps.
    @Test func thePumpDeliversScheduledEdgesAtTheirOwnTimes() throws {
        let system = ManualClock(start: .zero + .seconds(50))       // stands in for the system clock
        let gpio = SimulatedGPIO(clock: ManualClock(start: system.now), chips: [SimulatedGPIO.Chip(label: "sim", lineCount: 8)])
        let pump = SimulatedClockPump(gpio: gpio, source: system)
        let changes = Collected<DebouncedChange>()
        let inputs = DebouncedInputs(clock: gpio.clock) { changes.append($0) }
        let line = try inputs.request(.offset(3), on: .label("sim"), from: gpio,
                                      DebouncedLineConfig(debounce: .milliseconds(20), activeLow: true, bias: .pullUp))
        #expect(pump.nextDeadline == nil)
        let pressed = system.now + .milliseconds(10)
        gpio.schedule(line.id, level: false, at: pressed)
        gpio.schedule(line.id, level: true, at: pressed + .milliseconds(1))
        gpio.schedule(line.id, level: false, at: pressed + .milliseconds(2))
        pump.expectChanges(until: pressed + .milliseconds(2))
        #expect(pump.nextDeadline == system.now + pump.interval)
        system.advance(by: .milliseconds(500))          // the loop was busy: one late pump
        pump.pump()
        inputs.settle()
        #expect(changes.all.map(\.timestamp) == [pressed])
        #expect(changes.all.map(\.lastEdge) == [pressed + .milliseconds(2)])
        #expect(gpio.clock.now == system.now)
        #expect(pump.nextDeadline == nil)
    }
}
