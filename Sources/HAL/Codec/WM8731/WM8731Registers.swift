/// The WM8731's registers as data (datasheet "Register map"; addresses and reset values as the Linux
/// kernel's sound/soc/codecs/wm8731.h and its regmap defaults list them): R0-R9 and the R15 reset command.
/// The control port is write-only, so the driver keeps a `RegisterCache` of these values.
public enum WM8731Register {
    public static let leftLineIn: RegisterAddress = 0          // R0  LINVOL
    public static let rightLineIn: RegisterAddress = 1         // R1  RINVOL
    public static let leftHeadphone: RegisterAddress = 2       // R2  LHPOUT
    public static let rightHeadphone: RegisterAddress = 3      // R3  RHPOUT
    public static let analogPath: RegisterAddress = 4          // R4  APANA
    public static let digitalPath: RegisterAddress = 5         // R5  APDIGI
    public static let powerDown: RegisterAddress = 6           // R6  PWR
    public static let interfaceFormat: RegisterAddress = 7     // R7  IFACE
    public static let sampling: RegisterAddress = 8            // R8  SRATE
    public static let active: RegisterAddress = 9              // R9  ACTIVE
    public static let reset: RegisterAddress = 15              // R15 RESET (write 0)

    /// Every register, with its reset value: line inputs 0 dB muted, headphones 0 dB, bypass on and the
    /// mic muted, DAC soft-muted, everything but the oscillator and CLKOUT powered down, 24-bit I2S. Fields
    /// carry the datasheet register map's names; unused bits (such as bit 8 of R4-R9 and bits 6:5 of R0/R1)
    /// have none.
    public static let map = RegisterMap([
        RegisterDefinition(0, "Left Line In", width: 9, reset: 0x097, fields: [
            RegisterField("LRINBOTH", bit: 8), RegisterField("LINMUTE", bit: 7), RegisterField("LINVOL", bits: 0...4)]),
        RegisterDefinition(1, "Right Line In", width: 9, reset: 0x097, fields: [
            RegisterField("RLINBOTH", bit: 8), RegisterField("RINMUTE", bit: 7), RegisterField("RINVOL", bits: 0...4)]),
        RegisterDefinition(2, "Left Headphone Out", width: 9, reset: 0x079, fields: [
            RegisterField("LRHPBOTH", bit: 8), RegisterField("LZCEN", bit: 7), RegisterField("LHPVOL", bits: 0...6)]),
        RegisterDefinition(3, "Right Headphone Out", width: 9, reset: 0x079, fields: [
            RegisterField("RLHPBOTH", bit: 8), RegisterField("RZCEN", bit: 7), RegisterField("RHPVOL", bits: 0...6)]),
        RegisterDefinition(4, "Analogue Audio Path Control", width: 9, reset: 0x00A, fields: [
            RegisterField("SIDEATT", bits: 6...7), RegisterField("SIDETONE", bit: 5), RegisterField("DACSEL", bit: 4),
            RegisterField("BYPASS", bit: 3), RegisterField("INSEL", bit: 2), RegisterField("MUTEMIC", bit: 1),
            RegisterField("MICBOOST", bit: 0)]),
        RegisterDefinition(5, "Digital Audio Path Control", width: 9, reset: 0x008, fields: [
            RegisterField("HPOR", bit: 4), RegisterField("DACMU", bit: 3), RegisterField("DEEMP", bits: 1...2),
            RegisterField("ADCHPD", bit: 0)]),
        RegisterDefinition(6, "Power Down Control", width: 9, reset: 0x09F, fields: [
            RegisterField("POWEROFF", bit: 7), RegisterField("CLKOUTPD", bit: 6), RegisterField("OSCPD", bit: 5),
            RegisterField("OUTPD", bit: 4), RegisterField("DACPD", bit: 3), RegisterField("ADCPD", bit: 2),
            RegisterField("MICPD", bit: 1), RegisterField("LINEINPD", bit: 0)]),
        RegisterDefinition(7, "Digital Audio Interface Format", width: 9, reset: 0x00A, fields: [
            RegisterField("BCLKINV", bit: 7), RegisterField("MS", bit: 6), RegisterField("LRSWAP", bit: 5),
            RegisterField("LRP", bit: 4), RegisterField("IWL", bits: 2...3), RegisterField("FORMAT", bits: 0...1)]),
        RegisterDefinition(8, "Sampling Control", width: 9, reset: 0x000, fields: [
            RegisterField("CLKODIV2", bit: 7), RegisterField("CLKIDIV2", bit: 6), RegisterField("SR", bits: 2...5),
            RegisterField("BOSR", bit: 1), RegisterField("USB/NORMAL", bit: 0)]),
        RegisterDefinition(9, "Active Control", width: 9, reset: 0x000, fields: [RegisterField("ACTIVE", bit: 0)]),
        RegisterDefinition(15, "Reset", width: 9, reset: 0x000, access: .writeOnly, fields: [
            RegisterField("RESET", bits: 0...8)]),
    ])
}

/// Bit fields of the WM8731's registers (datasheet register descriptions), as masks.
public enum WM8731Bits {
    // R0/R1 line in
    public static let lineInBoth: RegisterValue = 0x100        // LRINBOTH / RLINBOTH: write both channels
    public static let lineInMute: RegisterValue = 0x080        // LINMUTE
    public static let lineInVolume: RegisterValue = 0x01F      // LINVOL: 0x00 = -34.5 dB ... 0x17 = 0 dB ... 0x1F = +12 dB
    // R2/R3 headphone out
    public static let headphoneBoth: RegisterValue = 0x100     // LRHPBOTH / RLHPBOTH
    public static let headphoneZeroCross: RegisterValue = 0x080 // LZCEN / RZCEN
    public static let headphoneVolume: RegisterValue = 0x07F   // 0x30 = -73 dB ... 0x79 = 0 dB ... 0x7F = +6 dB; 0x2F and below mute
    // R4 analogue path
    public static let sidetoneAttenuation: RegisterValue = 0x0C0 // SIDEATT
    public static let sidetone: RegisterValue = 0x020          // SIDETONE: mic to the outputs
    public static let dacSelect: RegisterValue = 0x010         // DACSEL: DAC to the outputs
    public static let bypass: RegisterValue = 0x008            // BYPASS: line in to the outputs
    public static let inputSelect: RegisterValue = 0x004       // INSEL: 0 line in, 1 microphone to the ADC
    public static let muteMic: RegisterValue = 0x002           // MUTEMIC
    public static let micBoost: RegisterValue = 0x001          // MICBOOST: +20 dB
    // R5 digital path
    public static let storeOffset: RegisterValue = 0x010       // HPOR: keep the DC offset when the high-pass is off
    public static let dacMute: RegisterValue = 0x008           // DACMU: DAC soft mute
    public static let deemphasis: RegisterValue = 0x006        // DEEMP: 00 off, 01 32k, 10 44.1k, 11 48k
    public static let adcHighPassOff: RegisterValue = 0x001    // ADCHPD
    // R6 power down (1 = powered down)
    public static let powerOff: RegisterValue = 0x080          // POWEROFF: the whole chip, references included
    public static let clockOutDown: RegisterValue = 0x040      // CLKOUTPD
    public static let oscillatorDown: RegisterValue = 0x020    // OSCPD
    public static let outputsDown: RegisterValue = 0x010       // OUTPD: headphone and line outputs
    public static let dacDown: RegisterValue = 0x008           // DACPD
    public static let adcDown: RegisterValue = 0x004           // ADCPD
    public static let micDown: RegisterValue = 0x002           // MICPD: mic amplifier and bias
    public static let lineInDown: RegisterValue = 0x001        // LINEINPD
    // R7 interface format
    public static let bitClockInvert: RegisterValue = 0x080    // BCLKINV
    public static let clockProvider: RegisterValue = 0x040     // MS: codec drives BCLK and LRCLK
    public static let channelSwap: RegisterValue = 0x020       // LRSWAP
    public static let lrPhase: RegisterValue = 0x010           // LRP
    public static let wordLength: RegisterValue = 0x00C        // IWL: 00 16, 01 20, 10 24, 11 32 bits
    public static let format: RegisterValue = 0x003            // FORMAT: 00 right, 01 left, 10 I2S, 11 DSP
    // R8 sampling control
    public static let clockOutDivide2: RegisterValue = 0x080   // CLKODIV2
    public static let clockInDivide2: RegisterValue = 0x040    // CLKIDIV2: core clock = MCLK / 2
    public static let sampleRate: RegisterValue = 0x03C        // SR[3:0]
    public static let baseOversampling: RegisterValue = 0x002  // BOSR: 384 fs (normal) / 272 fs (USB) family
    public static let usbMode: RegisterValue = 0x001           // USB/NORMAL: 1 = 12 MHz USB mode
    // R9
    public static let activate: RegisterValue = 0x001          // ACTIVE: digital audio interface on
}
