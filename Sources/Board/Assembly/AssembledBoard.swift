import HAL

/// How to put a board together.
public struct BoardAssemblyOptions: Sendable {
    public var timing: BoardTiming
    /// Run on the twins whatever the board file says (nil: the board file decides; only the simulated board
    /// runs on twins).
    public var simulated: Bool?
    /// An ALSA PCM to play and record through instead of the board's (`--pcm default`).
    public var pcm: String?
    /// On the simulated sound card: what plays comes back on capture (`selftest`).
    public var loopback: Bool
    /// A fault for tests: the simulated GPIO chip is not there, as on a kernel without the board's GPIO
    /// driver (`GPIOError.chipNotFound`, what `LinuxGPIO` throws then).
    public var gpioChipMissing = false

    public init(timing: BoardTiming = .realTime, simulated: Bool? = nil, pcm: String? = nil, loopback: Bool = false,
                gpioChipMissing: Bool = false) {
        self.timing = timing
        self.simulated = simulated
        self.pcm = pcm
        self.loopback = loopback
        self.gpioChipMissing = gpioChipMissing
    }
}

/// A board at run time: everything the appliance drives, put together from a validated `BoardConfig`. The
/// codec (its simulated twin on the simulated board, /dev/i2c-N otherwise), the GPIO lines, the PCMs (opened
/// when needed), the jack detector, the amplifier line and the LEDs. Nothing here decides anything: the
/// daemon's subsystems tell it what to do.
///
/// Wiring, in the daemon: `board.onJackEvent { event in loop.post { ... } }`, a loop timer on `nextDeadline`
/// that calls `tick()` (it also keeps the simulated board's clock at real time), `powerUp(sampleRate:)`,
/// `amplifier?.set(on:)` from the route policy, `pcms.openPlayback(_:)` / `openCapture(_:)` for the queues.
///
/// Threading: made and used on the control loop's thread. The jack detector's events arrive on whichever
/// thread settles them (the loop's, when it calls `tick`); hop onto the loop there.
public final class AssembledBoard {
    public let config: BoardConfig
    /// True when the board runs on twins (no hardware is touched).
    public let isSimulated: Bool
    public let codec: BoardCodec
    public let gpio: BoardGPIO
    public let pcms: BoardPCMs
    /// Nil when the board cannot sense its jack.
    public let jack: JackDetector?
    public let amplifier: AmplifierLine?
    public let leds: BoardLEDs
    private let jackEvents = EventRelay<JackEvent>()

    /// Opens the codec's bus, requests the lines (amplifier off, LEDs dark) and starts watching the jack.
    /// Nothing is written to the codec yet: `powerUp(sampleRate:)` does that.
    public init(config: BoardConfig, options: BoardAssemblyOptions = BoardAssemblyOptions()) throws(BoardDeviceError) {
        self.config = config
        let simulated = options.simulated ?? config.isSimulated
        isSimulated = simulated
        let codec = try Self.codec(config, simulated: simulated)
        self.codec = codec
        let gpio = try BoardGPIO(config: config, simulated: simulated, timing: options.timing,
                                 chipMissing: options.gpioChipMissing)
        self.gpio = gpio
        let pcmClock: any MonotonicClock
        switch options.timing {
        case .realTime: pcmClock = SystemClock.shared
        case .manual(let clock): pcmClock = clock
        }
        var names = config.pcm
        if simulated, options.pcm == nil {
            names = PCMNames(playback: BoardPCMs.simulatedName, capture: config.pcm.capture.map { _ in BoardPCMs.simulatedName })
        }
        pcms = BoardPCMs(names, override: options.pcm, loopback: options.loopback, clock: pcmClock)
        if let amplifier = config.amplifier {
            self.amplifier = try AmplifierLine(amplifier, gpio: gpio)
        } else {
            amplifier = nil
        }
        leds = try BoardLEDs(config.leds, gpio: gpio, simulated: simulated)
        if let sensing = config.jackSensing(chip: gpio.chip) {
            let relay = jackEvents
            do {
                jack = try JackDetector(sensing: sensing, gpio: gpio.controller, bus: codec.bus, clock: gpio.clock) { event in
                    relay.send(event)
                }
            } catch {
                throw .jack(error)
            }
        } else {
            jack = nil
        }
    }

    /// The codec: its twin (on a clock that skips the recipes' waits, so a simulated power-up costs no
    /// time), or the chip on /dev/i2c-N.
    private static func codec(_ config: BoardConfig, simulated: Bool) throws(BoardDeviceError) -> BoardCodec {
        do {
            return simulated
                ? try BoardCodec.simulated(config.codec, frame: config.i2s, maximumVolumeDB: config.volume.maximumDB,
                                           clock: ManualClock(skipsSleeps: true))
                : try BoardCodec.hardware(config.codec, frame: config.i2s, maximumVolumeDB: config.volume.maximumDB,
                                          clock: SystemClock.shared)
        } catch {
            throw .codec(device: codecDevice(config), "\(error)")
        }
    }

    /// How errors name the codec: `/dev/i2c-1 address 0x1a`.
    static func codecDevice(_ config: BoardConfig) -> String {
        "/dev/i2c-\(config.codec.bus) address \(BoardFieldReader.hex(config.codec.address))"
    }

    /// Where jack events go (set it before `tick`ing; events before that are dropped, `jack.state` has the
    /// state). Called on the thread that settles them.
    public func onJackEvent(_ handler: @escaping @Sendable (JackEvent) -> Void) {
        jackEvents.setHandler(handler)
    }

    // MARK: codec power

    /// Pop-free power-up, the driver's recipes: reset, clocks and format for `sampleRate`, the board's output
    /// route at its default level, then power (outputs stay muted until the references have charged).
    public func powerUp(sampleRate: Int = 48_000, wordLength: Int = 16) throws(BoardDeviceError) {
        let driver = codec.codec
        do {
            _ = try driver.reset()
            try driver.configure(CodecStreamFormat(sampleRate: sampleRate, wordLength: wordLength, role: config.codec.role,
                                                   frame: config.i2s))
            try driver.select(output: config.route.output)
            _ = try driver.setVolume(config.volume.defaultDB, output: config.route.output)
            try driver.powerUp()
        } catch {
            throw .codec(device: codecDevice, "\(error)")
        }
    }

    /// Pop-free power-down (the amplifier first, so it does not amplify the outputs' discharge).
    public func powerDown() throws(BoardDeviceError) {
        try amplifier?.set(on: false)
        do {
            try codec.codec.powerDown()
        } catch {
            throw .codec(device: codecDevice, "\(error)")
        }
    }

    private var codecDevice: String { Self.codecDevice(config) }

    // MARK: time

    /// One control-loop turn's worth of board time: pumps the simulated clock to real time and settles the
    /// jack (debounce, headset decision). Call it at the start of every turn and at `nextDeadline`.
    public func tick() throws(BoardDeviceError) {
        gpio.pumpToRealTime()
        do {
            try jack?.tick()
        } catch {
            throw .jack(error)
        }
    }

    /// When `tick` next has something to do: a scheduled simulated change, a jack line's debounce, a pending
    /// jack decision or status poll.
    public var nextDeadline: Timestamp? {
        [jack?.nextDeadline, jack?.debounceDeadline, gpio.pump?.nextDeadline].compactMap { $0 }.min()
    }

    // MARK: simulation

    /// Plugs headphones (or a headset) into the simulated jack, or pulls them out: the plug's switch line
    /// and the microphone's line move with a plug's contact bounce, starting now, so the real
    /// `JackDetector` debounces it and reports the change a debounce time later.
    @discardableResult
    public func simulateJack(_ state: JackState) throws(BoardDeviceError) -> Timestamp {
        guard isSimulated, let plug = config.jack.gpioLine else {
            throw .notSimulated("jack in|out")
        }
        let now = gpio.clock.now
        var end = try gpio.drive(line: plug.line, active: state.isPlugged, polarity: plug.active, at: now, bounce: .jackPlug)
        if let microphone = config.microphone.gpioLine {
            // The ring reaches the microphone contact a little after the sleeve closes the switch.
            let ringTime = state.isPlugged ? now + .milliseconds(20) : now
            end = max(end, try gpio.drive(line: microphone.line, active: state.hasMicrophone, polarity: microphone.active,
                                          at: ringTime, bounce: .jackPlug))
        }
        return end
    }

    /// Releases every line (amplifier off first).
    public func shutdown() {
        try? amplifier?.set(on: false)
        jack?.stopTimer()
        amplifier?.release()
    }
}
