/// The SGTL5000's registers as data (NXP datasheet "Register descriptions"; addresses, fields and reset
/// values as the Linux kernel's sound/soc/codecs/sgtl5000.h and its regmap defaults list them). Addresses
/// are 16 bits and even, values 16 bits, both big-endian on the wire (`.reg16Value16`). The chip can be
/// read back; CHIP_ID and ANA_STATUS are read-only and change by themselves (volatile), the rest are cached.
///
/// The chip has no reset register and no reset pin: `SGTL5000.reset()` writes the registers the driver uses
/// back to these values. Only the DAP registers the driver touches (EQ selection, graphic EQ, PEQ coefficient
/// port, main channel) are listed; the AVC, surround and bass-enhance blocks stay at their power-on values.
public enum SGTL5000Register {
    public static let chipID: RegisterAddress = 0x0000          // CHIP_ID (RO): PARTID 0xA0, REVID
    public static let digitalPower: RegisterAddress = 0x0002    // CHIP_DIG_POWER
    public static let clockControl: RegisterAddress = 0x0004    // CHIP_CLK_CTRL
    public static let i2sControl: RegisterAddress = 0x0006      // CHIP_I2S_CTRL
    public static let sourceSelect: RegisterAddress = 0x000A    // CHIP_SSS_CTRL
    public static let adcDACControl: RegisterAddress = 0x000E   // CHIP_ADCDAC_CTRL
    public static let dacVolume: RegisterAddress = 0x0010       // CHIP_DAC_VOL
    public static let padStrength: RegisterAddress = 0x0014     // CHIP_PAD_STRENGTH
    public static let adcAnalogVolume: RegisterAddress = 0x0020 // CHIP_ANA_ADC_CTRL
    public static let headphoneVolume: RegisterAddress = 0x0022 // CHIP_ANA_HP_CTRL
    public static let analogControl: RegisterAddress = 0x0024   // CHIP_ANA_CTRL
    public static let regulatorControl: RegisterAddress = 0x0026 // CHIP_LINREG_CTRL
    public static let referenceControl: RegisterAddress = 0x0028 // CHIP_REF_CTRL
    public static let micControl: RegisterAddress = 0x002A      // CHIP_MIC_CTRL
    public static let lineOutControl: RegisterAddress = 0x002C  // CHIP_LINE_OUT_CTRL
    public static let lineOutVolume: RegisterAddress = 0x002E   // CHIP_LINE_OUT_VOL
    public static let analogPower: RegisterAddress = 0x0030     // CHIP_ANA_POWER
    public static let pllControl: RegisterAddress = 0x0032      // CHIP_PLL_CTRL
    public static let clockTopControl: RegisterAddress = 0x0034 // CHIP_CLK_TOP_CTRL
    public static let analogStatus: RegisterAddress = 0x0036    // CHIP_ANA_STATUS (RO)
    public static let analogTest2: RegisterAddress = 0x003A     // CHIP_ANA_TEST2
    public static let shortControl: RegisterAddress = 0x003C    // CHIP_SHORT_CTRL
    public static let dapControl: RegisterAddress = 0x0100      // DAP_CONTROL
    public static let dapPEQ: RegisterAddress = 0x0102          // DAP_PEQ: how many PEQ filters run
    public static let dapAudioEQ: RegisterAddress = 0x0108      // DAP_AUDIO_EQ: PEQ / tone / graphic EQ
    public static let dapCoefficientAccess: RegisterAddress = 0x010C // DAP_FILTER_COEF_ACCESS
    public static let dapB0MSB: RegisterAddress = 0x010E        // DAP_COEF_WR_B0_MSB
    public static let dapB0LSB: RegisterAddress = 0x0110        // DAP_COEF_WR_B0_LSB
    /// DAP_AUDIO_EQ_BASS_BAND0...4 (115, 330, 990, 3000, 9900 Hz); bands 0 and 4 are bass and treble in
    /// tone-control mode.
    public static let eqBands: [RegisterAddress] = [0x0116, 0x0118, 0x011A, 0x011C, 0x011E]
    public static let dapMainChannel: RegisterAddress = 0x0120  // DAP_MAIN_CHAN: 0x8000 = 100 %
    public static let dapMixChannel: RegisterAddress = 0x0122   // DAP_MIX_CHAN
    public static let dapB1MSB: RegisterAddress = 0x012C        // DAP_COEF_WR_B1_MSB
    public static let dapB1LSB: RegisterAddress = 0x012E
    public static let dapB2MSB: RegisterAddress = 0x0130
    public static let dapB2LSB: RegisterAddress = 0x0132
    public static let dapA1MSB: RegisterAddress = 0x0134
    public static let dapA1LSB: RegisterAddress = 0x0136
    public static let dapA2MSB: RegisterAddress = 0x0138
    public static let dapA2LSB: RegisterAddress = 0x013A

    /// The coefficient port, MSB and LSB register per coefficient, in the order b0, b1, b2, a1, a2.
    public static let coefficientPorts: [(msb: RegisterAddress, lsb: RegisterAddress)] = [
        (dapB0MSB, dapB0LSB), (dapB1MSB, dapB1LSB), (dapB2MSB, dapB2LSB), (dapA1MSB, dapA1LSB), (dapA2MSB, dapA2LSB),
    ]

    /// CHIP_ID of production parts: part 0xA0, revision 0x11 (what Linux logs as "sgtl5000 revision 0x11").
    public static let productionChipID: RegisterValue = 0xA011
    /// The part number in CHIP_ID bits 15:8.
    public static let partID: RegisterValue = 0xA0

    private static func reg(_ address: RegisterAddress, _ name: String, reset: RegisterValue = 0,
                            access: RegisterAccess = .readWrite, volatile: Bool = false,
                            _ fields: [RegisterField]) -> RegisterDefinition {
        RegisterDefinition(address, name, width: 16, reset: reset, access: access, volatile: volatile, fields: fields)
    }

    private static func coefficient(_ address: RegisterAddress, _ name: String, msb: Bool) -> RegisterDefinition {
        reg(address, name, msb ? [RegisterField("COEF_19_4", bits: 0...15)] : [RegisterField("COEF_3_0", bits: 0...3)])
    }

    /// Every register the chip has that this driver knows, with reset values and named fields.
    public static let map = RegisterMap([
        reg(chipID, "CHIP_ID", reset: productionChipID, access: .readOnly, volatile: true, [
            RegisterField("PARTID", bits: 8...15), RegisterField("REVID", bits: 0...7)]),
        reg(digitalPower, "CHIP_DIG_POWER", [
            RegisterField("ADC_POWERUP", bit: 6), RegisterField("DAC_POWERUP", bit: 5),
            RegisterField("DAP_POWERUP", bit: 4), RegisterField("I2S_OUT_POWERUP", bit: 1),
            RegisterField("I2S_IN_POWERUP", bit: 0)]),
        reg(clockControl, "CHIP_CLK_CTRL", reset: 0x0008, [
            RegisterField("RATE_MODE", bits: 4...5), RegisterField("SYS_FS", bits: 2...3),
            RegisterField("MCLK_FREQ", bits: 0...1)]),
        reg(i2sControl, "CHIP_I2S_CTRL", reset: 0x0010, [
            RegisterField("SCLKFREQ", bit: 8), RegisterField("MS", bit: 7), RegisterField("SCLK_INV", bit: 6),
            RegisterField("DLEN", bits: 4...5), RegisterField("I2S_MODE", bits: 2...3),
            RegisterField("LRALIGN", bit: 1), RegisterField("LRPOL", bit: 0)]),
        reg(sourceSelect, "CHIP_SSS_CTRL", reset: 0x0010, [
            RegisterField("DAP_MIX_LRSWAP", bit: 14), RegisterField("DAP_LRSWAP", bit: 13),
            RegisterField("DAC_LRSWAP", bit: 12), RegisterField("I2S_LRSWAP", bit: 10),
            RegisterField("DAP_MIX_SELECT", bits: 8...9), RegisterField("DAP_SELECT", bits: 6...7),
            RegisterField("DAC_SELECT", bits: 4...5), RegisterField("I2S_SELECT", bits: 0...1)]),
        reg(adcDACControl, "CHIP_ADCDAC_CTRL", reset: 0x020C, [
            RegisterField("VOL_BUSY_DAC_RIGHT", bit: 13), RegisterField("VOL_BUSY_DAC_LEFT", bit: 12),
            RegisterField("VOL_RAMP_EN", bit: 9), RegisterField("VOL_EXPO_RAMP", bit: 8),
            RegisterField("DAC_MUTE_RIGHT", bit: 3), RegisterField("DAC_MUTE_LEFT", bit: 2),
            RegisterField("ADC_HPF_FREEZE", bit: 1), RegisterField("ADC_HPF_BYPASS", bit: 0)]),
        reg(dacVolume, "CHIP_DAC_VOL", reset: 0x3C3C, [
            RegisterField("DAC_VOL_RIGHT", bits: 8...15), RegisterField("DAC_VOL_LEFT", bits: 0...7)]),
        reg(padStrength, "CHIP_PAD_STRENGTH", reset: 0x015F, [
            RegisterField("I2S_LRCLK", bits: 8...9), RegisterField("I2S_SCLK", bits: 6...7),
            RegisterField("I2S_DOUT", bits: 4...5), RegisterField("CTRL_DATA", bits: 2...3),
            RegisterField("CTRL_CLK", bits: 0...1)]),
        reg(adcAnalogVolume, "CHIP_ANA_ADC_CTRL", [
            RegisterField("ADC_VOL_M6DB", bit: 8), RegisterField("ADC_VOL_RIGHT", bits: 4...7),
            RegisterField("ADC_VOL_LEFT", bits: 0...3)]),
        reg(headphoneVolume, "CHIP_ANA_HP_CTRL", reset: 0x1818, [
            RegisterField("HP_VOL_RIGHT", bits: 8...14), RegisterField("HP_VOL_LEFT", bits: 0...6)]),
        reg(analogControl, "CHIP_ANA_CTRL", reset: 0x0111, [
            RegisterField("MUTE_LO", bit: 8), RegisterField("SELECT_HP", bit: 6), RegisterField("EN_ZCD_HP", bit: 5),
            RegisterField("MUTE_HP", bit: 4), RegisterField("SELECT_ADC", bit: 2), RegisterField("EN_ZCD_ADC", bit: 1),
            RegisterField("MUTE_ADC", bit: 0)]),
        reg(regulatorControl, "CHIP_LINREG_CTRL", [
            RegisterField("VDDC_MAN_ASSN", bit: 6), RegisterField("VDDC_ASSN_OVRD", bit: 5),
            RegisterField("D_PROGRAMMING", bits: 0...3)]),
        reg(referenceControl, "CHIP_REF_CTRL", [
            RegisterField("VAG_VAL", bits: 4...8), RegisterField("BIAS_CTRL", bits: 1...3),
            RegisterField("SMALL_POP", bit: 0)]),
        reg(micControl, "CHIP_MIC_CTRL", [
            RegisterField("BIAS_RESISTOR", bits: 8...9), RegisterField("BIAS_VOLT", bits: 4...6),
            RegisterField("GAIN", bits: 0...1)]),
        reg(lineOutControl, "CHIP_LINE_OUT_CTRL", [
            RegisterField("OUT_CURRENT", bits: 8...11), RegisterField("LO_VAGCNTRL", bits: 0...5)]),
        reg(lineOutVolume, "CHIP_LINE_OUT_VOL", reset: 0x0404, [
            RegisterField("LO_VOL_RIGHT", bits: 8...12), RegisterField("LO_VOL_LEFT", bits: 0...4)]),
        reg(analogPower, "CHIP_ANA_POWER", reset: 0x7060, [
            RegisterField("DAC_MONO", bit: 14), RegisterField("LINREG_SIMPLE_POWERUP", bit: 13),
            RegisterField("STARTUP_POWERUP", bit: 12), RegisterField("VDDC_CHRGPMP_POWERUP", bit: 11),
            RegisterField("PLL_POWERUP", bit: 10), RegisterField("LINREG_D_POWERUP", bit: 9),
            RegisterField("VCOAMP_POWERUP", bit: 8), RegisterField("VAG_POWERUP", bit: 7),
            RegisterField("ADC_MONO", bit: 6), RegisterField("REFTOP_POWERUP", bit: 5),
            RegisterField("HEADPHONE_POWERUP", bit: 4), RegisterField("DAC_POWERUP", bit: 3),
            RegisterField("CAPLESS_HEADPHONE_POWERUP", bit: 2), RegisterField("ADC_POWERUP", bit: 1),
            RegisterField("LINEOUT_POWERUP", bit: 0)]),
        reg(pllControl, "CHIP_PLL_CTRL", reset: 0x5000, [
            RegisterField("INT_DIVISOR", bits: 11...15), RegisterField("FRAC_DIVISOR", bits: 0...10)]),
        reg(clockTopControl, "CHIP_CLK_TOP_CTRL", [
            RegisterField("ENABLE_INT_OSC", bit: 11), RegisterField("INPUT_FREQ_DIV2", bit: 3)]),
        reg(analogStatus, "CHIP_ANA_STATUS", access: .readOnly, volatile: true, [
            RegisterField("LRSHORT_STS", bit: 9), RegisterField("CSHORT_STS", bit: 8),
            RegisterField("PLL_IS_LOCKED", bit: 4)]),
        reg(analogTest2, "CHIP_ANA_TEST2", [RegisterField("MONO_DAC", bit: 12)]),
        reg(shortControl, "CHIP_SHORT_CTRL", [
            RegisterField("LVLADJR", bits: 12...14), RegisterField("LVLADJL", bits: 8...10),
            RegisterField("LVLADJC", bits: 4...6), RegisterField("MODE_LR", bits: 2...3),
            RegisterField("MODE_CM", bits: 0...1)]),
        reg(dapControl, "DAP_CONTROL", [RegisterField("MIX_EN", bit: 4), RegisterField("DAP_EN", bit: 0)]),
        reg(dapPEQ, "DAP_PEQ", [RegisterField("EN", bits: 0...2)]),
        reg(dapAudioEQ, "DAP_AUDIO_EQ", [RegisterField("EN", bits: 0...1)]),
        reg(dapCoefficientAccess, "DAP_FILTER_COEF_ACCESS", [RegisterField("WR", bit: 8), RegisterField("INDEX", bits: 0...7)]),
        coefficient(dapB0MSB, "DAP_COEF_WR_B0_MSB", msb: true),
        coefficient(dapB0LSB, "DAP_COEF_WR_B0_LSB", msb: false),
        reg(eqBands[0], "DAP_AUDIO_EQ_BASS_BAND0", reset: 0x002F, [RegisterField("VOLUME", bits: 0...6)]),
        reg(eqBands[1], "DAP_AUDIO_EQ_BAND1", reset: 0x002F, [RegisterField("VOLUME", bits: 0...6)]),
        reg(eqBands[2], "DAP_AUDIO_EQ_BAND2", reset: 0x002F, [RegisterField("VOLUME", bits: 0...6)]),
        reg(eqBands[3], "DAP_AUDIO_EQ_BAND3", reset: 0x002F, [RegisterField("VOLUME", bits: 0...6)]),
        reg(eqBands[4], "DAP_AUDIO_EQ_TREBLE_BAND4", reset: 0x002F, [RegisterField("VOLUME", bits: 0...6)]),
        reg(dapMainChannel, "DAP_MAIN_CHAN", reset: 0x8000, [RegisterField("VOL", bits: 0...15)]),
        reg(dapMixChannel, "DAP_MIX_CHAN", [RegisterField("VOL", bits: 0...15)]),
        coefficient(dapB1MSB, "DAP_COEF_WR_B1_MSB", msb: true),
        coefficient(dapB1LSB, "DAP_COEF_WR_B1_LSB", msb: false),
        coefficient(dapB2MSB, "DAP_COEF_WR_B2_MSB", msb: true),
        coefficient(dapB2LSB, "DAP_COEF_WR_B2_LSB", msb: false),
        coefficient(dapA1MSB, "DAP_COEF_WR_A1_MSB", msb: true),
        coefficient(dapA1LSB, "DAP_COEF_WR_A1_LSB", msb: false),
        coefficient(dapA2MSB, "DAP_COEF_WR_A2_MSB", msb: true),
        coefficient(dapA2LSB, "DAP_COEF_WR_A2_LSB", msb: false),
    ])
}

/// Bit fields of the SGTL5000's registers (datasheet register descriptions), as masks.
public enum SGTL5000Bits {
    // CHIP_DIG_POWER
    public static let adcPowerUp: RegisterValue = 0x0040         // ADC_POWERUP (digital side)
    public static let dacPowerUp: RegisterValue = 0x0020         // DAC_POWERUP (digital side)
    public static let dapPowerUp: RegisterValue = 0x0010         // DAP_POWERUP
    public static let i2sOutPowerUp: RegisterValue = 0x0002      // I2S_OUT_POWERUP
    public static let i2sInPowerUp: RegisterValue = 0x0001       // I2S_IN_POWERUP
    // CHIP_CLK_CTRL
    public static let rateMode: RegisterValue = 0x0030           // RATE_MODE: SYS_FS /1, /2, /4, /6
    public static let sysFS: RegisterValue = 0x000C              // SYS_FS: 32, 44.1, 48, 96 kHz
    public static let mclkFrequency: RegisterValue = 0x0003      // MCLK_FREQ: 256, 384, 512 Fs, 3 = PLL
    // CHIP_I2S_CTRL
    public static let sclk32fs: RegisterValue = 0x0100           // SCLKFREQ: 1 = 32 Fs, 0 = 64 Fs
    public static let clockProvider: RegisterValue = 0x0080      // MS
    public static let dataLength: RegisterValue = 0x0030         // DLEN: 0 = 32, 1 = 24, 2 = 20, 3 = 16 bits
    public static let i2sMode: RegisterValue = 0x000C            // I2S_MODE: 0 I2S/LJ, 1 RJ, 2 PCM
    public static let lrAlign: RegisterValue = 0x0002            // LRALIGN: 1 = left justified
    public static let lrPolarity: RegisterValue = 0x0001         // LRPOL
    // CHIP_SSS_CTRL
    public static let dapSelect: RegisterValue = 0x00C0          // DAP_SELECT: 1 = I2S_IN
    public static let dacSelect: RegisterValue = 0x0030          // DAC_SELECT: 1 = I2S_IN, 3 = DAP
    public static let i2sOutSelect: RegisterValue = 0x0003       // I2S_SELECT: 0 = ADC
    // CHIP_ADCDAC_CTRL
    public static let volumeRamp: RegisterValue = 0x0200         // VOL_RAMP_EN
    public static let volumeExponentialRamp: RegisterValue = 0x0100 // VOL_EXPO_RAMP
    public static let dacMuteRight: RegisterValue = 0x0008       // DAC_MUTE_RIGHT
    public static let dacMuteLeft: RegisterValue = 0x0004        // DAC_MUTE_LEFT
    public static let dacMute: RegisterValue = 0x000C
    // CHIP_ANA_ADC_CTRL
    public static let adcMinus6dB: RegisterValue = 0x0100        // ADC_VOL_M6DB
    // CHIP_ANA_CTRL
    public static let lineOutMute: RegisterValue = 0x0100        // MUTE_LO
    public static let headphoneFromLineIn: RegisterValue = 0x0040 // SELECT_HP: 0 = DAC, 1 = LINEIN
    public static let headphoneZeroCross: RegisterValue = 0x0020 // EN_ZCD_HP
    public static let headphoneMute: RegisterValue = 0x0010      // MUTE_HP
    public static let adcFromLineIn: RegisterValue = 0x0004      // SELECT_ADC: 0 = MIC, 1 = LINEIN
    public static let adcZeroCross: RegisterValue = 0x0002       // EN_ZCD_ADC
    public static let adcMute: RegisterValue = 0x0001            // MUTE_ADC
    // CHIP_LINREG_CTRL
    public static let chargePumpFromVDDIO: RegisterValue = 0x0040 // VDDC_MAN_ASSN
    public static let chargePumpOverride: RegisterValue = 0x0020  // VDDC_ASSN_OVRD
    public static let vdddLevel: RegisterValue = 0x000F          // D_PROGRAMMING: 1.6 V - 50 mV x code
    // CHIP_REF_CTRL
    public static let vagLevel: RegisterValue = 0x01F0           // VAG_VAL: 0.8 V + 25 mV x code
    public static let biasControl: RegisterValue = 0x000E        // BIAS_CTRL
    public static let smallPop: RegisterValue = 0x0001           // SMALL_POP: slow VAG ramp
    // CHIP_MIC_CTRL
    public static let micBiasResistor: RegisterValue = 0x0300    // BIAS_RESISTOR: 0 = off (bias off)
    public static let micBiasVoltage: RegisterValue = 0x0070     // BIAS_VOLT: 1.25 V + 0.25 V x code
    public static let micGain: RegisterValue = 0x0003            // GAIN: 0, +20, +30, +40 dB
    // CHIP_ANA_POWER
    public static let dacStereo: RegisterValue = 0x4000          // DAC_MONO (1 = stereo)
    public static let linregSimplePowerUp: RegisterValue = 0x2000 // LINREG_SIMPLE_POWERUP
    public static let startupPowerUp: RegisterValue = 0x1000     // STARTUP_POWERUP
    public static let chargePumpPowerUp: RegisterValue = 0x0800  // VDDC_CHRGPMP_POWERUP
    public static let pllPowerUp: RegisterValue = 0x0400         // PLL_POWERUP
    public static let linregDPowerUp: RegisterValue = 0x0200     // LINREG_D_POWERUP
    public static let vcoAmpPowerUp: RegisterValue = 0x0100      // VCOAMP_POWERUP
    public static let vagPowerUp: RegisterValue = 0x0080         // VAG_POWERUP
    public static let adcStereo: RegisterValue = 0x0040          // ADC_MONO (1 = stereo)
    public static let reftopPowerUp: RegisterValue = 0x0020      // REFTOP_POWERUP
    public static let headphonePowerUp: RegisterValue = 0x0010   // HEADPHONE_POWERUP
    public static let dacAnalogPowerUp: RegisterValue = 0x0008   // DAC_POWERUP
    public static let caplessHeadphonePowerUp: RegisterValue = 0x0004 // CAPLESS_HEADPHONE_POWERUP
    public static let adcAnalogPowerUp: RegisterValue = 0x0002   // ADC_POWERUP
    public static let lineOutPowerUp: RegisterValue = 0x0001     // LINEOUT_POWERUP
    // CHIP_CLK_TOP_CTRL
    public static let internalOscillator: RegisterValue = 0x0800 // ENABLE_INT_OSC (charge pump clock)
    public static let inputFrequencyDiv2: RegisterValue = 0x0008 // INPUT_FREQ_DIV2: MCLK / 2 into the PLL
    // CHIP_ANA_STATUS
    public static let pllLocked: RegisterValue = 0x0010          // PLL_IS_LOCKED
    // DAP_CONTROL
    public static let dapEnable: RegisterValue = 0x0001          // DAP_EN
    // DAP_AUDIO_EQ
    public static let eqMode: RegisterValue = 0x0003             // EN: 0 off, 1 PEQ, 2 tone, 3 graphic EQ
    // DAP_FILTER_COEF_ACCESS
    public static let coefficientWrite: RegisterValue = 0x0100   // WR: latch the coefficient port into INDEX
}
