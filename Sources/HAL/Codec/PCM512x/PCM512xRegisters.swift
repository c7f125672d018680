/// The TI PCM512x's registers as data (datasheet SLAS763 "Register maps"; addresses and reset values as
/// the Linux kernel's sound/soc/codecs/pcm512x.h and its regmap defaults list them).
///
/// The chip is paged: register 0 of every page selects the page, and registers 1...127 mean different
/// things on each page. Here a register is named by a virtual address `page * 256 + register`, the same
/// in the `RegisterMap`, the driver's `RegisterCache` and the simulated chip; `PagedRegisterBus` turns
/// it into a page-select write plus the transfer. Page 0 holds reset, standby, mute, the clock tree,
/// the PLL, the I2S format and the digital volume; page 1 the analog gain and output stage.
public enum PCM512xRegister {
    /// Register 0 on every page: which page the other addresses mean. Stored once, at 0x000.
    public static let pageSelect: RegisterAddress = 0x000

    // Page 0
    public static let reset: RegisterAddress = 0x001            // RSTM, RSTR
    public static let power: RegisterAddress = 0x002            // RQST standby, RQPD power down
    public static let mute: RegisterAddress = 0x003             // RQML, RQMR soft mute
    public static let pll: RegisterAddress = 0x004              // PLCK lock flag, PLLE enable
    public static let dsp: RegisterAddress = 0x007              // DEMP de-emphasis, SDSL
    public static let gpioEnable: RegisterAddress = 0x008       // G6OE...G1OE
    public static let clockOutputs: RegisterAddress = 0x009     // BCKP, BCKO, LRKO
    public static let masterModeReset: RegisterAddress = 0x00C  // RBCK, RLRK
    public static let pllReference: RegisterAddress = 0x00D     // SREF: SCK, BCK or a GPIO
    public static let dacClockSource: RegisterAddress = 0x00E   // SDAC
    public static let synchronize: RegisterAddress = 0x013      // RQSY
    public static let pllP: RegisterAddress = 0x014             // P - 1
    public static let pllJ: RegisterAddress = 0x015             // J
    public static let pllDHigh: RegisterAddress = 0x016         // D bits 13...8
    public static let pllDLow: RegisterAddress = 0x017          // D bits 7...0
    public static let pllR: RegisterAddress = 0x018             // R - 1
    public static let dspDivider: RegisterAddress = 0x01B       // DDSP - 1
    public static let dacDivider: RegisterAddress = 0x01C       // DDAC - 1
    public static let ncpDivider: RegisterAddress = 0x01D       // DNCP - 1
    public static let osrDivider: RegisterAddress = 0x01E       // DOSR - 1
    public static let bckDivider: RegisterAddress = 0x020       // DBCK - 1 (clock provider mode)
    public static let lrckDivider: RegisterAddress = 0x021      // DLRK - 1
    public static let speedMode: RegisterAddress = 0x022        // FSSP
    public static let idacHigh: RegisterAddress = 0x023         // DSP clocks per sample, bits 15...8
    public static let idacLow: RegisterAddress = 0x024          // bits 7...0
    public static let errorDetect: RegisterAddress = 0x025      // IDFS IDBK IDSK IDCH IDCM DCAS IPLK
    public static let i2sFormat: RegisterAddress = 0x028        // AFMT, ALEN
    public static let i2sShift: RegisterAddress = 0x029
    public static let dacRouting: RegisterAddress = 0x02A       // AUPL, AUPR
    public static let dspProgram: RegisterAddress = 0x02B
    public static let clockMissing: RegisterAddress = 0x02C
    public static let autoMuteTime: RegisterAddress = 0x03B     // ATML, ATMR
    public static let volumeControl: RegisterAddress = 0x03C    // PCTL: left/right ganged or not
    public static let leftVolume: RegisterAddress = 0x03D       // 0 = +24 dB ... 48 = 0 dB ... 254 = -103 dB, 255 mute
    public static let rightVolume: RegisterAddress = 0x03E
    public static let volumeRamp: RegisterAddress = 0x03F       // VNDF VNDS VNUF VNUS
    public static let emergencyRamp: RegisterAddress = 0x040    // VEDF VEDS
    public static let autoMute: RegisterAddress = 0x041         // ACTL, AMLE, AMRE
    public static let gpioOutput1: RegisterAddress = 0x050      // ...0x055 for GPIO6: GxSL
    public static let gpioControl: RegisterAddress = 0x056      // output level of each register-driven GPIO
    public static let gpioInvert: RegisterAddress = 0x057
    public static let overflow: RegisterAddress = 0x05A
    public static let rateDetect1: RegisterAddress = 0x05B      // ...0x05E
    public static let clockStatus: RegisterAddress = 0x05F
    public static let analogMuteMonitor: RegisterAddress = 0x06C
    public static let gpioInput: RegisterAddress = 0x077
    public static let digitalMuteMonitor: RegisterAddress = 0x078

    // Page 1
    public static let outputAmplitude: RegisterAddress = 0x101
    public static let analogGain: RegisterAddress = 0x102       // LAGN, RAGN: 0 dB or -6 dB
    public static let undervoltage: RegisterAddress = 0x105
    public static let analogMute: RegisterAddress = 0x106
    public static let analogBoost: RegisterAddress = 0x107      // AGBL, AGBR: +0.8 dB
    public static let vcom: RegisterAddress = 0x108
    public static let vcomPower: RegisterAddress = 0x109

    /// The output-select register of GPIO `n` (1...6).
    public static func gpioOutput(_ n: Int) -> RegisterAddress { gpioOutput1 + RegisterAddress(n - 1) }

    /// The page of a virtual address, and the register within the page.
    public static func page(of address: RegisterAddress) -> Int { Int(address >> 8) }

    private static func reg(_ address: RegisterAddress, _ name: String, reset: RegisterValue = 0,
                            fields: [RegisterField] = []) -> RegisterDefinition {
        RegisterDefinition(address, name, width: 8, reset: reset, fields: fields)
    }

    private static func status(_ address: RegisterAddress, _ name: String,
                               fields: [RegisterField] = []) -> RegisterDefinition {
        RegisterDefinition(address, name, width: 8, reset: 0, access: .readOnly, volatile: true, fields: fields)
    }

    /// Every register the driver, the twin or a dump touches, with its reset value: standby off but no
    /// clocks configured (the chip sets its dividers itself, DCAS = 0), 24-bit I2S, both channels at
    /// 0 dB digital and 0 dB analog, unmuted, auto-mute on both channels, volume ramps of 1 dB a sample.
    public static let map = RegisterMap([
        reg(pageSelect, "Page Select"),
        reg(reset, "Reset", fields: [RegisterField("RSTM", bit: 4), RegisterField("RSTR", bit: 0)]),
        reg(power, "Power", fields: [RegisterField("RQST", bit: 4), RegisterField("RQPD", bit: 0)]),
        reg(mute, "Mute", fields: [RegisterField("RQML", bit: 4), RegisterField("RQMR", bit: 0)]),
        // PLCK is a status bit the chip sets, so the cache never answers for this register.
        RegisterDefinition(pll, "PLL", width: 8, reset: 0x01, volatile: true,
                           fields: [RegisterField("PLCK", bit: 4), RegisterField("PLLE", bit: 0)]),
        reg(0x006, "SPI MISO Function"),
        reg(dsp, "De-emphasis and SDOUT", fields: [RegisterField("DEMP", bit: 4), RegisterField("SDSL", bit: 0)]),
        reg(gpioEnable, "GPIO Output Enable", fields: (1...6).reversed().map { RegisterField("G\($0)OE", bit: $0 - 1) }),
        reg(clockOutputs, "BCK/LRCK Configuration",
            fields: [RegisterField("BCKP", bit: 5), RegisterField("BCKO", bit: 4), RegisterField("LRKO", bit: 0)]),
        reg(0x00A, "DSP GPIO Input"),
        reg(masterModeReset, "Master Mode BCK/LRCK Reset", reset: 0x7C,
            fields: [RegisterField("RBCK", bit: 1), RegisterField("RLRK", bit: 0)]),
        reg(pllReference, "PLL Reference", fields: [RegisterField("SREF", bits: 4...6)]),
        reg(dacClockSource, "DAC Clock Source", fields: [RegisterField("SDAC", bits: 4...6)]),
        reg(0x010, "GPIO Source for DAC Clock", fields: [RegisterField("GREF", bits: 0...2)]),
        reg(0x012, "GPIO Source for PLL Reference", fields: [RegisterField("GREF", bits: 0...2)]),
        reg(synchronize, "Synchronize", reset: 0x10, fields: [RegisterField("RQSY", bit: 0)]),
        reg(pllP, "PLL P", fields: [RegisterField("PPDV", bits: 0...3)]),
        reg(pllJ, "PLL J", fields: [RegisterField("PJDV", bits: 0...5)]),
        reg(pllDHigh, "PLL D MSB", fields: [RegisterField("PDDV", bits: 0...5)]),
        reg(pllDLow, "PLL D LSB", fields: [RegisterField("PDDV", bits: 0...7)]),
        reg(pllR, "PLL R", fields: [RegisterField("PRDV", bits: 0...3)]),
        reg(dspDivider, "DSP Clock Divider", fields: [RegisterField("DDSP", bits: 0...6)]),
        reg(dacDivider, "DAC Clock Divider", fields: [RegisterField("DDAC", bits: 0...6)]),
        reg(ncpDivider, "NCP Clock Divider", fields: [RegisterField("DNCP", bits: 0...6)]),
        reg(osrDivider, "OSR Clock Divider", fields: [RegisterField("DOSR", bits: 0...6)]),
        reg(bckDivider, "Master Mode BCK Divider", fields: [RegisterField("DBCK", bits: 0...6)]),
        reg(lrckDivider, "Master Mode LRCK Divider", fields: [RegisterField("DLRK", bits: 0...7)]),
        reg(speedMode, "FS Speed Mode", fields: [RegisterField("FSSP", bits: 0...1)]),
        reg(idacHigh, "IDAC MSB", reset: 0x01),
        reg(idacLow, "IDAC LSB"),
        reg(errorDetect, "Error Detection", fields: [
            RegisterField("IDFS", bit: 6), RegisterField("IDBK", bit: 5), RegisterField("IDSK", bit: 4),
            RegisterField("IDCH", bit: 3), RegisterField("IDCM", bit: 2), RegisterField("DCAS", bit: 1),
            RegisterField("IPLK", bit: 0),
        ]),
        reg(i2sFormat, "I2S Configuration", reset: 0x02,
            fields: [RegisterField("AFMT", bits: 4...5), RegisterField("ALEN", bits: 0...1)]),
        reg(i2sShift, "I2S Shift"),
        reg(dacRouting, "DAC Data Path", reset: 0x11,
            fields: [RegisterField("AUPL", bits: 4...5), RegisterField("AUPR", bits: 0...1)]),
        reg(dspProgram, "DSP Program", reset: 0x01, fields: [RegisterField("PSEL", bits: 0...4)]),
        reg(clockMissing, "Clock Missing Detection", fields: [RegisterField("CMDP", bits: 0...2)]),
        reg(autoMuteTime, "Auto Mute Time",
            fields: [RegisterField("ATML", bits: 4...6), RegisterField("ATMR", bits: 0...2)]),
        reg(volumeControl, "Digital Volume Control", fields: [RegisterField("PCTL", bits: 0...1)]),
        reg(leftVolume, "Left Digital Volume", reset: 0x30),
        reg(rightVolume, "Right Digital Volume", reset: 0x30),
        reg(volumeRamp, "Digital Volume Ramp", reset: 0x22, fields: [
            RegisterField("VNDF", bits: 6...7), RegisterField("VNDS", bits: 4...5),
            RegisterField("VNUF", bits: 2...3), RegisterField("VNUS", bits: 0...1),
        ]),
        reg(emergencyRamp, "Emergency Volume Ramp",
            fields: [RegisterField("VEDF", bits: 6...7), RegisterField("VEDS", bits: 4...5)]),
        reg(autoMute, "Auto Mute Enables", reset: 0x07,
            fields: [RegisterField("ACTL", bit: 2), RegisterField("AMLE", bit: 1), RegisterField("AMRE", bit: 0)]),
        reg(0x050, "GPIO1 Output Selection", fields: [RegisterField("G1SL", bits: 0...4)]),
        reg(0x051, "GPIO2 Output Selection", fields: [RegisterField("G2SL", bits: 0...4)]),
        reg(0x052, "GPIO3 Output Selection", fields: [RegisterField("G3SL", bits: 0...4)]),
        reg(0x053, "GPIO4 Output Selection", fields: [RegisterField("G4SL", bits: 0...4)]),
        reg(0x054, "GPIO5 Output Selection", fields: [RegisterField("G5SL", bits: 0...4)]),
        reg(0x055, "GPIO6 Output Selection", fields: [RegisterField("G6SL", bits: 0...4)]),
        reg(gpioControl, "GPIO Output Control", fields: (1...6).reversed().map { RegisterField("GOUT\($0)", bit: $0 - 1) }),
        reg(gpioInvert, "GPIO Output Inversion", fields: (1...6).reversed().map { RegisterField("GINV\($0)", bit: $0 - 1) }),
        status(overflow, "DSP Overflow"),
        status(0x05B, "Detected FS and SCK Ratio"),
        status(0x05C, "Detected BCK Ratio MSB"),
        status(0x05D, "Detected BCK Ratio LSB"),
        status(0x05E, "Clock Error Status"),
        status(clockStatus, "Clock Status"),
        status(analogMuteMonitor, "Analog Mute Monitor"),
        status(gpioInput, "GPIO Input"),
        status(digitalMuteMonitor, "Auto Mute Flags"),
        reg(outputAmplitude, "Output Amplitude Type"),
        reg(analogGain, "Analog Gain", fields: [RegisterField("LAGN", bit: 4), RegisterField("RAGN", bit: 0)]),
        reg(undervoltage, "Undervoltage Protection"),
        reg(analogMute, "Analog Mute Control"),
        reg(analogBoost, "Analog Gain Boost", fields: [RegisterField("AGBL", bit: 4), RegisterField("AGBR", bit: 0)]),
        reg(vcom, "VCOM Control"),
        reg(vcomPower, "VCOM Power", reset: 0x01),
    ])

    /// Registers whose reset values `PCM512x.reset()` reads back to tell a PCM512x from another chip on
    /// the address (it has no ID register): distinctive non-zero defaults spread over page 0.
    public static let identityChecks: [(register: RegisterAddress, value: RegisterValue)] = [
        (i2sFormat, 0x02), (dacRouting, 0x11), (leftVolume, 0x30), (rightVolume, 0x30),
        (volumeRamp, 0x22), (autoMute, 0x07),
    ]
}

/// Bit fields of the PCM512x's registers, as masks.
public enum PCM512xBits {
    // P0 R1 reset
    public static let resetModules: RegisterValue = 0x10        // RSTM: interpolation filter and DAC modules
    public static let resetRegisters: RegisterValue = 0x01      // RSTR: every register to its default
    // P0 R2 power
    public static let standby: RegisterValue = 0x10             // RQST
    public static let powerDown: RegisterValue = 0x01           // RQPD
    // P0 R3 mute
    public static let muteLeft: RegisterValue = 0x10            // RQML: soft mute (digital volume ramps to -inf)
    public static let muteRight: RegisterValue = 0x01           // RQMR
    public static let muteBoth: RegisterValue = 0x11
    // P0 R4 PLL
    public static let pllLocked: RegisterValue = 0x10           // PLCK (read-only flag)
    public static let pllEnable: RegisterValue = 0x01           // PLLE
    // P0 R8 GPIO output enables: GPIO n is bit n-1
    public static func gpio(_ n: Int) -> RegisterValue { 1 << RegisterValue(n - 1) }
    // P0 R13 PLL reference (SREF)
    public static let pllReference: RegisterValue = 0x70
    public static let pllFromSCK: RegisterValue = 0x00
    public static let pllFromBCK: RegisterValue = 0x10
    // P0 R14 DAC clock source (SDAC): 0 = the master clock (PLL output or SCK)
    public static let dacSource: RegisterValue = 0x70
    // P0 R34 FSSP
    public static let speedMode: RegisterValue = 0x03
    // P0 R37 error detection
    public static let ignoreFSDetect: RegisterValue = 0x40      // IDFS
    public static let ignoreBCKDetect: RegisterValue = 0x20     // IDBK
    public static let ignoreSCKDetect: RegisterValue = 0x10     // IDSK
    public static let ignoreClockHalt: RegisterValue = 0x08     // IDCH
    public static let ignoreClockMissing: RegisterValue = 0x04  // IDCM
    public static let manualDividers: RegisterValue = 0x02      // DCAS: clock divider auto-set off
    public static let ignorePLLUnlock: RegisterValue = 0x01     // IPLK
    // P0 R40 I2S
    public static let interfaceFormat: RegisterValue = 0x30     // AFMT: 00 I2S, 01 DSP, 10 right-, 11 left-justified
    public static let wordLength: RegisterValue = 0x03          // ALEN: 00 16, 01 20, 10 24, 11 32 bits
    // P0 R63 ramp: every sample (00), 1 dB a step (10), both directions
    public static let defaultRamp: RegisterValue = 0x22
    // P0 R65 auto-mute: both channels must be zero (ACTL), left and right enabled
    public static let autoMuteBoth: RegisterValue = 0x07
    // P1 R2 analog gain: 1 = -6 dB
    public static let analogGainLeft: RegisterValue = 0x10      // LAGN
    public static let analogGainRight: RegisterValue = 0x01     // RAGN
    public static let analogGainBoth: RegisterValue = 0x11
    // P0 R80...85 GPIO output selection: 0x02 = the level in R86
    public static let gpioFromRegister: RegisterValue = 0x02
    public static let gpioSelect: RegisterValue = 0x1F
}
