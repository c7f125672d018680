import HAL

/// A board's codec, built from its `codec:` block: the driver, the bus it talks on, the chip's register map
/// (for dumps), and the simulated chip when the board runs on its twin.
public struct BoardCodec {
    public let chip: CodecChip
    public let codec: any AudioCodec
    public let bus: any RegisterBus
    public let registerMap: RegisterMap
    /// The driver's register cache: all a write-only chip's state the appliance can know.
    public let registers: RegisterCache
    /// The simulated chip, or nil on hardware.
    public let model: (any SimulatedCodecModel)?

    /// The board's codec on its simulated twin: same I2C bus number, address and clock, no hardware.
    /// `frame` is the board's I2S frame, which the models check the codec's clocks against.
    public static func simulated(_ config: CodecConfig, frame: I2SFrame = .standard, maximumVolumeDB: Double,
                                 clock: any MonotonicClock) throws(BoardAssemblyError) -> BoardCodec {
        let address = try i2cAddress(config)
        let mclk = try masterClock(config)
        let model: any SimulatedCodecModel = switch config.chip {
        case .wm8960: WM8960Model(bus: config.bus, address: address, mclk: mclk, frame: frame, clock: clock)
        case .wm8731: WM8731Model(bus: config.bus, address: address, mclk: mclk, crystal: config.clock.isCrystal, frame: frame)
        case .sgtl5000: SGTL5000Model(bus: config.bus, address: address, mclk: mclk, frame: frame)
        case .pcm5122: PCM512xModel(bus: config.bus, address: address, clockSource: pcm512xClock(config, frame: frame),
                                    frame: frame)
        }
        return driver(config, on: model.bus, mclk: mclk, frame: frame, maximumVolumeDB: maximumVolumeDB, clock: clock,
                      model: model)
    }

    /// The board's codec on /dev/i2c-N.
    public static func hardware(_ config: CodecConfig, frame: I2SFrame = .standard, maximumVolumeDB: Double,
                                clock: any MonotonicClock) throws(BoardAssemblyError) -> BoardCodec {
        guard config.control == .appliance else { throw .kernelControlled(config.chip) }
        let address = try i2cAddress(config)
        let mclk = try masterClock(config)
        let layout: RegisterLayout = switch config.chip {
        case .wm8960, .wm8731: .reg7Value9
        case .sgtl5000: .reg16Value16
        case .pcm5122: .reg8Value8
        }
        let bus: I2CRegisterBus
        do {
            bus = try I2CRegisterBus(bus: config.bus, address: address, layout: layout)
        } catch {
            throw .bus(error)
        }
        return driver(config, on: bus, mclk: mclk, frame: frame, maximumVolumeDB: maximumVolumeDB, clock: clock, model: nil)
    }

    /// The chip's driver on `bus`, whichever bus that is.
    private static func driver(_ config: CodecConfig, on bus: any RegisterBus, mclk: Int, frame: I2SFrame,
                               maximumVolumeDB: Double,
                               clock: any MonotonicClock, model: (any SimulatedCodecModel)?) -> BoardCodec {
        func assembled(_ codec: any AudioCodec, _ registers: RegisterCache, _ map: RegisterMap,
                       bus driverBus: any RegisterBus = bus) -> BoardCodec {
            BoardCodec(chip: config.chip, codec: codec, bus: driverBus, registerMap: map, registers: registers, model: model)
        }
        switch config.chip {
        case .wm8960:
            let codec = WM8960(bus: bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            return assembled(codec, codec.registers, WM8960Register.map)
        case .wm8731:
            let codec = WM8731(bus: bus, clock: clock, mclk: mclk, crystal: config.clock.isCrystal, maximumVolumeDB: maximumVolumeDB)
            return assembled(codec, codec.registers, WM8731Register.map)
        case .sgtl5000:
            let codec = SGTL5000(bus: bus, clock: clock, mclk: mclk, micBias: config.micBias ?? .kernelDefault,
                                 maximumVolumeDB: maximumVolumeDB)
            return assembled(codec, codec.registers, SGTL5000Register.map)
        case .pcm5122:
            // The driver talks through its page-select wrapper, which the dump must read through too.
            let codec = PCM512x(bus: bus, clock: clock, clockSource: pcm512xClock(config, frame: frame),
                                maximumVolumeDB: maximumVolumeDB)
            return assembled(codec, codec.registers, PCM512xRegister.map, bus: codec.pagedBus)
        }
    }

    /// A PCM512x's clock: its SCK pin from an oscillator, or its PLL from the bit clock, whose frame the board's
    /// I2S block sets (two 32-bit slots unless it says otherwise; the board check allows only slots here).
    private static func pcm512xClock(_ config: CodecConfig, frame: I2SFrame) -> PCM512xClockSource {
        switch (config.clock, frame) {
        case (.mclk(let hertz), _), (.crystal(let hertz), _): .masterClock(hertz: hertz)
        case (.bclk, .slots(let count, let width)): .bitClock(bitsPerFrame: count * width)
        case (.bclk, .fixedBitClock): .bitClock64
        }
    }

    private static func i2cAddress(_ config: CodecConfig) throws(BoardAssemblyError) -> I2CAddress {
        do {
            return try I2CAddress(config.address)
        } catch {
            throw .bus(error)
        }
    }

    /// The MCLK in Hz for chips that need one.
    private static func masterClock(_ config: CodecConfig) throws(BoardAssemblyError) -> Int {
        switch config.clock {
        case .mclk(let hertz), .crystal(let hertz): return hertz
        case .bclk:
            guard config.chip.canClockFromBCLK else { throw .needsMasterClock(config.chip) }
            return 0
        }
    }
}
