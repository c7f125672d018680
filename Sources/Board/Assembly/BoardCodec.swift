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
    public static func simulated(_ config: CodecConfig, maximumVolumeDB: Double,
                                 clock: any MonotonicClock) throws(BoardAssemblyError) -> BoardCodec {
        let address = try i2cAddress(config)
        let mclk = try masterClock(config)
        switch config.chip {
        case .wm8960:
            let model = WM8960Model(bus: config.bus, address: address, mclk: mclk)
            let codec = WM8960(bus: model.bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: model.bus, registerMap: WM8960Register.map,
                              registers: codec.registers, model: model)
        case .wm8731:
            let model = WM8731Model(bus: config.bus, address: address, mclk: mclk)
            let codec = WM8731(bus: model.bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: model.bus, registerMap: WM8731Register.map,
                              registers: codec.registers, model: model)
        case .pcm5122:
            let model = PCM512xModel(bus: config.bus, address: address, clockSource: pcm512xClock(config))
            let codec = PCM512x(bus: model.bus, clock: clock, clockSource: model.clockSource,
                                maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: codec.pagedBus, registerMap: PCM512xRegister.map,
                              registers: codec.registers, model: model)
        case .sgtl5000:
            let model = SGTL5000Model(bus: config.bus, address: address, mclk: mclk)
            let codec = SGTL5000(bus: model.bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: model.bus, registerMap: SGTL5000Register.map,
                              registers: codec.registers, model: model)
        }
    }

    /// The board's codec on /dev/i2c-N.
    public static func hardware(_ config: CodecConfig, maximumVolumeDB: Double,
                                clock: any MonotonicClock) throws(BoardAssemblyError) -> BoardCodec {
        guard config.control == .appliance else { throw .kernelControlled(config.chip) }
        let address = try i2cAddress(config)
        let mclk = try masterClock(config)
        func open(_ layout: RegisterLayout) throws(BoardAssemblyError) -> I2CRegisterBus {
            do {
                return try I2CRegisterBus(bus: config.bus, address: address, layout: layout)
            } catch {
                throw .bus(error)
            }
        }
        switch config.chip {
        case .wm8960:
            let bus = try open(.reg7Value9)
            let codec = WM8960(bus: bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: bus, registerMap: WM8960Register.map,
                              registers: codec.registers, model: nil)
        case .wm8731:
            let bus = try open(.reg7Value9)
            let codec = WM8731(bus: bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: bus, registerMap: WM8731Register.map,
                              registers: codec.registers, model: nil)
        case .pcm5122:
            let codec = PCM512x(bus: try open(.reg8Value8), clock: clock, clockSource: pcm512xClock(config),
                                maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: codec.pagedBus, registerMap: PCM512xRegister.map,
                              registers: codec.registers, model: nil)
        case .sgtl5000:
            let bus = try open(.reg16Value16)
            let codec = SGTL5000(bus: bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            return BoardCodec(chip: config.chip, codec: codec, bus: bus, registerMap: SGTL5000Register.map,
                              registers: codec.registers, model: nil)
        }
    }

    /// A PCM512x's clock: its SCK pin from a crystal, or its PLL from the bit clock, which the Pi's I2S
    /// runs at 64 bits a frame (two 32-bit slots) for 16- and 24-bit streams alike.
    private static func pcm512xClock(_ config: CodecConfig) -> PCM512xClockSource {
        switch config.clock {
        case .mclk(let hertz): .masterClock(hertz: hertz)
        case .bclk: .bitClock64
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
        case .mclk(let hertz): return hertz
        case .bclk:
            guard config.chip.canClockFromBCLK else { throw .needsMasterClock(config.chip) }
            return 0
        }
    }
}
