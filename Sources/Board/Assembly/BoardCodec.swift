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
        let inputs = try assemblyInputs(config, frame: frame, maximumVolumeDB: maximumVolumeDB, clock: clock)
        let model = config.chip.table.model(inputs)
        return assembled(config.chip, on: model.bus, inputs, model: model)
    }

    /// The board's codec on /dev/i2c-N.
    public static func hardware(_ config: CodecConfig, frame: I2SFrame = .standard, maximumVolumeDB: Double,
                                clock: any MonotonicClock) throws(BoardAssemblyError) -> BoardCodec {
        guard config.control == .appliance else { throw .kernelControlled(config.chip) }
        let inputs = try assemblyInputs(config, frame: frame, maximumVolumeDB: maximumVolumeDB, clock: clock)
        let bus: I2CRegisterBus
        do {
            bus = try I2CRegisterBus(bus: config.bus, address: inputs.address, layout: config.chip.table.layout)
        } catch {
            throw .bus(error)
        }
        return assembled(config.chip, on: bus, inputs, model: nil)
    }

    /// The chip's driver on `bus`, whichever bus that is.
    private static func assembled(_ chip: CodecChip, on bus: any RegisterBus, _ inputs: CodecAssemblyInputs,
                                  model: (any SimulatedCodecModel)?) -> BoardCodec {
        let codec = chip.table.driver(bus, inputs)
        return BoardCodec(chip: chip, codec: codec, bus: codec.registers.bus, registerMap: chip.table.registerMap,
                          registers: codec.registers, model: model)
    }

    /// The address and clock from the `codec:` block, checked once for every chip.
    private static func assemblyInputs(_ config: CodecConfig, frame: I2SFrame, maximumVolumeDB: Double,
                                       clock: any MonotonicClock) throws(BoardAssemblyError) -> CodecAssemblyInputs {
        CodecAssemblyInputs(config: config, address: try i2cAddress(config), mclk: try masterClock(config), frame: frame,
                            maximumVolumeDB: maximumVolumeDB, clock: clock)
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
