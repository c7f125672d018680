import HAL

/// One codec chip as a board assembles it: how its control port lays registers out on the wire, its register
/// map (what a dump decodes), its driver on a bus, and its simulated twin. One entry per chip, so a chip is
/// described in one place instead of a case in each assembly step.
struct CodecChipTable {
    /// The control port's layout: the hardware bus is opened with it.
    let layout: RegisterLayout
    let registerMap: RegisterMap
    /// The simulated chip at the board's bus and address, clocked as the board says.
    let model: (CodecAssemblyInputs) -> any SimulatedCodecModel
    /// The driver on `bus`.
    let driver: (any RegisterBus, CodecAssemblyInputs) -> any AudioCodec
}

/// What every chip's entry is built from: the board's `codec:` block and what the board derives from it once.
struct CodecAssemblyInputs {
    let config: CodecConfig
    let address: I2CAddress
    /// The MCLK in Hz (0 for a chip that runs from BCLK).
    let mclk: Int
    /// The board's I2S frame, which the codec's clocks must make and the models check.
    let frame: I2SFrame
    let maximumVolumeDB: Double
    let clock: any MonotonicClock

    /// A PCM512x's clock: its SCK pin from an oscillator, or its PLL from the bit clock, whose frame the
    /// board's I2S block sets (two 32-bit slots unless it says otherwise; the board check allows only slots here).
    var pcm512xClock: PCM512xClockSource {
        switch (config.clock, frame) {
        case (.mclk(let hertz), _), (.crystal(let hertz), _): .masterClock(hertz: hertz)
        case (.bclk, .slots(let count, let width)): .bitClock(bitsPerFrame: count * width)
        case (.bclk, .fixedBitClock): .bitClock64
        }
    }
}

extension CodecChip {
    /// The chip's entry.
    var table: CodecChipTable {
        switch self {
        case .wm8960: .wm8960
        case .wm8731: .wm8731
        case .sgtl5000: .sgtl5000
        case .pcm5122: .pcm5122
        }
    }
}

extension CodecChipTable {
    static var wm8960: CodecChipTable {
        CodecChipTable(
            layout: .reg7Value9, registerMap: WM8960Register.map,
            model: { WM8960Model(bus: $0.config.bus, address: $0.address, mclk: $0.mclk, frame: $0.frame, clock: $0.clock) },
            driver: { bus, inputs in
                WM8960(bus: bus, clock: inputs.clock, mclk: inputs.mclk, maximumVolumeDB: inputs.maximumVolumeDB)
            })
    }

    static var wm8731: CodecChipTable {
        CodecChipTable(
            layout: .reg7Value9, registerMap: WM8731Register.map,
            model: {
                WM8731Model(bus: $0.config.bus, address: $0.address, mclk: $0.mclk, crystal: $0.config.clock.isCrystal,
                            frame: $0.frame)
            },
            driver: { bus, inputs in
                WM8731(bus: bus, clock: inputs.clock, mclk: inputs.mclk, crystal: inputs.config.clock.isCrystal,
                       maximumVolumeDB: inputs.maximumVolumeDB)
            })
    }

    static var sgtl5000: CodecChipTable {
        CodecChipTable(
            layout: .reg16Value16, registerMap: SGTL5000Register.map,
            model: { SGTL5000Model(bus: $0.config.bus, address: $0.address, mclk: $0.mclk, frame: $0.frame) },
            driver: { bus, inputs in
                SGTL5000(bus: bus, clock: inputs.clock, mclk: inputs.mclk, micBias: inputs.config.micBias ?? .kernelDefault,
                         maximumVolumeDB: inputs.maximumVolumeDB)
            })
    }

    static var pcm5122: CodecChipTable {
        CodecChipTable(
            layout: .reg8Value8, registerMap: PCM512xRegister.map,
            model: { PCM512xModel(bus: $0.config.bus, address: $0.address, clockSource: $0.pcm512xClock, frame: $0.frame) },
            driver: { bus, inputs in
                // A dump reads through the driver's page-select wrapper, its `registers.bus`.
                PCM512x(bus: bus, clock: inputs.clock, clockSource: inputs.pcm512xClock, maximumVolumeDB: inputs.maximumVolumeDB)
            })
    }
}
