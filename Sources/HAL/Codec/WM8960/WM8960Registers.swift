/// The WM8960's registers as data (datasheet "Register map"; addresses and reset values as the Linux
/// kernel's sound/soc/codecs/wm8960.h and regmap defaults list them). Registers 12-14, 30-31, 35-36 and
/// 50 do not exist. The chip cannot be read back, so the driver keeps a `RegisterCache` of these values.
public enum WM8960Register {
    public static let leftInputVolume: RegisterAddress = 0      // R0  LINVOL
    public static let rightInputVolume: RegisterAddress = 1     // R1  RINVOL
    public static let leftHeadphone: RegisterAddress = 2        // R2  LOUT1
    public static let rightHeadphone: RegisterAddress = 3       // R3  ROUT1
    public static let clocking1: RegisterAddress = 4            // R4  CLOCK1
    public static let dacControl1: RegisterAddress = 5          // R5  ADC & DAC control 1
    public static let dacControl2: RegisterAddress = 6          // R6  ADC & DAC control 2
    public static let audioInterface1: RegisterAddress = 7      // R7  IFACE1
    public static let clocking2: RegisterAddress = 8            // R8  CLOCK2
    public static let audioInterface2: RegisterAddress = 9      // R9  IFACE2
    public static let leftDACVolume: RegisterAddress = 10       // R10 LDAC
    public static let rightDACVolume: RegisterAddress = 11      // R11 RDAC
    public static let reset: RegisterAddress = 15               // R15 RESET (any write)
    public static let additionalControl1: RegisterAddress = 23  // R23
    public static let additionalControl2: RegisterAddress = 24  // R24
    public static let power1: RegisterAddress = 25              // R25
    public static let power2: RegisterAddress = 26              // R26
    public static let antiPop1: RegisterAddress = 28            // R28
    public static let antiPop2: RegisterAddress = 29            // R29
    public static let leftInputPath: RegisterAddress = 32       // R32 ADCL signal path
    public static let rightInputPath: RegisterAddress = 33      // R33 ADCR signal path
    public static let leftOutputMixer: RegisterAddress = 34     // R34
    public static let rightOutputMixer: RegisterAddress = 37    // R37
    public static let leftSpeaker: RegisterAddress = 40         // R40 LOUT2
    public static let rightSpeaker: RegisterAddress = 41        // R41 ROUT2
    public static let power3: RegisterAddress = 47              // R47
    public static let additionalControl4: RegisterAddress = 48  // R48
    public static let classDControl1: RegisterAddress = 49      // R49
    public static let pll1: RegisterAddress = 52                // R52 PLLN
    public static let pllK1: RegisterAddress = 53               // R53 PLLK[23:16]
    public static let pllK2: RegisterAddress = 54               // R54 PLLK[15:8]
    public static let pllK3: RegisterAddress = 55               // R55 PLLK[7:0]

    /// Every register that exists, with its name, reset value and named fields. R0/R1 reset to 0x097 (PGA
    /// at 0 dB, muted) as the datasheet gives; newer kernels list 0x0A7. R15 is the reset command. Fields
    /// carry the datasheet register map's names; reserved bits have none, so the set bits of R18 (bit 8),
    /// R49 (bits 5:0) and R51 (bit 7) in their reset values belong to no field.
    public static let map = RegisterMap([
        RegisterDefinition(0, "Left Input volume", width: 9, reset: 0x097, fields: [
            RegisterField("IPVU", bit: 8), RegisterField("LINMUTE", bit: 7), RegisterField("LIZC", bit: 6),
            RegisterField("LINVOL", bits: 0...5)]),
        RegisterDefinition(1, "Right Input volume", width: 9, reset: 0x097, fields: [
            RegisterField("IPVU", bit: 8), RegisterField("RINMUTE", bit: 7), RegisterField("RIZC", bit: 6),
            RegisterField("RINVOL", bits: 0...5)]),
        RegisterDefinition(2, "LOUT1 volume", width: 9, reset: 0x000, fields: [
            RegisterField("OUT1VU", bit: 8), RegisterField("LO1ZC", bit: 7), RegisterField("LOUT1VOL", bits: 0...6)]),
        RegisterDefinition(3, "ROUT1 volume", width: 9, reset: 0x000, fields: [
            RegisterField("OUT1VU", bit: 8), RegisterField("RO1ZC", bit: 7), RegisterField("ROUT1VOL", bits: 0...6)]),
        RegisterDefinition(4, "Clocking (1)", width: 9, reset: 0x000, fields: [
            RegisterField("ADCDIV", bits: 6...8), RegisterField("DACDIV", bits: 3...5),
            RegisterField("SYSCLKDIV", bits: 1...2), RegisterField("CLKSEL", bit: 0)]),
        RegisterDefinition(5, "ADC & DAC Control (1)", width: 9, reset: 0x008, fields: [
            RegisterField("DACDIV2", bit: 7), RegisterField("ADCPOL", bits: 5...6), RegisterField("DACMU", bit: 3),
            RegisterField("DEEMPH", bits: 1...2), RegisterField("ADCHPD", bit: 0)]),
        RegisterDefinition(6, "ADC & DAC Control (2)", width: 9, reset: 0x000, fields: [
            RegisterField("DACPOL", bits: 5...6), RegisterField("DACSMM", bit: 3), RegisterField("DACMR", bit: 2),
            RegisterField("DACSLOPE", bit: 1)]),
        RegisterDefinition(7, "Audio Interface (1)", width: 9, reset: 0x00A, fields: [
            RegisterField("ALRSWAP", bit: 8), RegisterField("BCLKINV", bit: 7), RegisterField("MS", bit: 6),
            RegisterField("DLRSWAP", bit: 5), RegisterField("LRP", bit: 4), RegisterField("WL", bits: 2...3),
            RegisterField("FORMAT", bits: 0...1)]),
        RegisterDefinition(8, "Clocking (2)", width: 9, reset: 0x1C0, fields: [
            RegisterField("DCLKDIV", bits: 6...8), RegisterField("BCLKDIV", bits: 0...3)]),
        RegisterDefinition(9, "Audio Interface (2)", width: 9, reset: 0x000, fields: [
            RegisterField("ALRCGPIO", bit: 6), RegisterField("WL8", bit: 5), RegisterField("DACCOMP", bits: 3...4),
            RegisterField("ADCCOMP", bits: 1...2), RegisterField("LOOPBACK", bit: 0)]),
        RegisterDefinition(10, "Left DAC volume", width: 9, reset: 0x0FF, fields: [
            RegisterField("DACVU", bit: 8), RegisterField("LDACVOL", bits: 0...7)]),
        RegisterDefinition(11, "Right DAC volume", width: 9, reset: 0x0FF, fields: [
            RegisterField("DACVU", bit: 8), RegisterField("RDACVOL", bits: 0...7)]),
        RegisterDefinition(15, "Reset", width: 9, reset: 0x000, access: .writeOnly, fields: [
            RegisterField("RESET", bits: 0...8)]),
        RegisterDefinition(16, "3D control", width: 9, reset: 0x000, fields: [
            RegisterField("3DUC", bit: 6), RegisterField("3DLC", bit: 5), RegisterField("3DDEPTH", bits: 1...4),
            RegisterField("3DEN", bit: 0)]),
        RegisterDefinition(17, "ALC1", width: 9, reset: 0x07B, fields: [
            RegisterField("ALCSEL", bits: 7...8), RegisterField("MAXGAIN", bits: 4...6),
            RegisterField("ALCL", bits: 0...3)]),
        RegisterDefinition(18, "ALC2", width: 9, reset: 0x100, fields: [
            RegisterField("MINGAIN", bits: 4...6), RegisterField("HLD", bits: 0...3)]),
        RegisterDefinition(19, "ALC3", width: 9, reset: 0x032, fields: [
            RegisterField("ALCMODE", bit: 8), RegisterField("DCY", bits: 4...7), RegisterField("ATK", bits: 0...3)]),
        RegisterDefinition(20, "Noise Gate", width: 9, reset: 0x000, fields: [
            RegisterField("NGTH", bits: 3...7), RegisterField("NGAT", bit: 0)]),
        RegisterDefinition(21, "Left ADC volume", width: 9, reset: 0x0C3, fields: [
            RegisterField("ADCVU", bit: 8), RegisterField("LADCVOL", bits: 0...7)]),
        RegisterDefinition(22, "Right ADC volume", width: 9, reset: 0x0C3, fields: [
            RegisterField("ADCVU", bit: 8), RegisterField("RADCVOL", bits: 0...7)]),
        RegisterDefinition(23, "Additional control (1)", width: 9, reset: 0x1C0, fields: [
            RegisterField("TSDEN", bit: 8), RegisterField("VSEL", bits: 6...7), RegisterField("DMONOMIX", bit: 4),
            RegisterField("DATSEL", bits: 2...3), RegisterField("TOCLKSEL", bit: 1), RegisterField("TOEN", bit: 0)]),
        RegisterDefinition(24, "Additional control (2)", width: 9, reset: 0x000, fields: [
            RegisterField("HPSWEN", bit: 6), RegisterField("HPSWPOL", bit: 5), RegisterField("TRIS", bit: 3),
            RegisterField("LRCM", bit: 2)]),
        RegisterDefinition(25, "Pwr Mgmt (1)", width: 9, reset: 0x000, fields: [
            RegisterField("VMIDSEL", bits: 7...8), RegisterField("VREF", bit: 6), RegisterField("AINL", bit: 5),
            RegisterField("AINR", bit: 4), RegisterField("ADCL", bit: 3), RegisterField("ADCR", bit: 2),
            RegisterField("MICB", bit: 1), RegisterField("DIGENB", bit: 0)]),
        RegisterDefinition(26, "Pwr Mgmt (2)", width: 9, reset: 0x000, fields: [
            RegisterField("DACL", bit: 8), RegisterField("DACR", bit: 7), RegisterField("LOUT1", bit: 6),
            RegisterField("ROUT1", bit: 5), RegisterField("SPKL", bit: 4), RegisterField("SPKR", bit: 3),
            RegisterField("OUT3", bit: 1), RegisterField("PLL_EN", bit: 0)]),
        RegisterDefinition(27, "Additional Control (3)", width: 9, reset: 0x000, fields: [
            RegisterField("VROI", bit: 6), RegisterField("OUT3CAP", bit: 3), RegisterField("ADC_ALC_SR", bits: 0...2)]),
        RegisterDefinition(28, "Anti-pop 1", width: 9, reset: 0x000, fields: [
            RegisterField("POBCTRL", bit: 7), RegisterField("BUFDCOPEN", bit: 4), RegisterField("BUFIOEN", bit: 3),
            RegisterField("SOFT_ST", bit: 2), RegisterField("HPSTBY", bit: 0)]),
        RegisterDefinition(29, "Anti-pop 2", width: 9, reset: 0x000, fields: [
            RegisterField("DISOP", bit: 6), RegisterField("DRES", bits: 4...5)]),
        RegisterDefinition(32, "ADCL signal path", width: 9, reset: 0x100, fields: [
            RegisterField("LMN1", bit: 8), RegisterField("LMP3", bit: 7), RegisterField("LMP2", bit: 6),
            RegisterField("LMICBOOST", bits: 4...5), RegisterField("LMIC2B", bit: 3)]),
        RegisterDefinition(33, "ADCR signal path", width: 9, reset: 0x100, fields: [
            RegisterField("RMN1", bit: 8), RegisterField("RMP3", bit: 7), RegisterField("RMP2", bit: 6),
            RegisterField("RMICBOOST", bits: 4...5), RegisterField("RMIC2B", bit: 3)]),
        RegisterDefinition(34, "Left out Mix (1)", width: 9, reset: 0x050, fields: [
            RegisterField("LD2LO", bit: 8), RegisterField("LI2LO", bit: 7), RegisterField("LI2LOVOL", bits: 4...6)]),
        RegisterDefinition(37, "Right out Mix (2)", width: 9, reset: 0x050, fields: [
            RegisterField("RD2RO", bit: 8), RegisterField("RI2RO", bit: 7), RegisterField("RI2ROVOL", bits: 4...6)]),
        RegisterDefinition(38, "Mono out Mix (1)", width: 9, reset: 0x000, fields: [RegisterField("L2MO", bit: 7)]),
        RegisterDefinition(39, "Mono out Mix (2)", width: 9, reset: 0x000, fields: [RegisterField("R2MO", bit: 7)]),
        RegisterDefinition(40, "Left Speaker volume", width: 9, reset: 0x000, fields: [
            RegisterField("SPKVU", bit: 8), RegisterField("SPKLZC", bit: 7), RegisterField("SPKLVOL", bits: 0...6)]),
        RegisterDefinition(41, "Right Speaker volume", width: 9, reset: 0x000, fields: [
            RegisterField("SPKVU", bit: 8), RegisterField("SPKRZC", bit: 7), RegisterField("SPKRVOL", bits: 0...6)]),
        RegisterDefinition(42, "OUT3 volume", width: 9, reset: 0x040, fields: [RegisterField("MOUTVOL", bit: 6)]),
        RegisterDefinition(43, "Left input boost mixer", width: 9, reset: 0x000, fields: [
            RegisterField("LIN3BOOST", bits: 4...6), RegisterField("LIN2BOOST", bits: 1...3)]),
        RegisterDefinition(44, "Right input boost mixer", width: 9, reset: 0x000, fields: [
            RegisterField("RIN3BOOST", bits: 4...6), RegisterField("RIN2BOOST", bits: 1...3)]),
        RegisterDefinition(45, "Left Bypass", width: 9, reset: 0x050, fields: [
            RegisterField("LB2LO", bit: 7), RegisterField("LB2LOVOL", bits: 4...6)]),
        RegisterDefinition(46, "Right Bypass", width: 9, reset: 0x050, fields: [
            RegisterField("RB2RO", bit: 7), RegisterField("RB2ROVOL", bits: 4...6)]),
        RegisterDefinition(47, "Pwr Mgmt (3)", width: 9, reset: 0x000, fields: [
            RegisterField("LMIC", bit: 5), RegisterField("RMIC", bit: 4), RegisterField("LOMIX", bit: 3),
            RegisterField("ROMIX", bit: 2)]),
        RegisterDefinition(48, "Additional Control (4)", width: 9, reset: 0x002, fields: [
            RegisterField("GPIOPOL", bit: 7), RegisterField("GPIOSEL", bits: 4...6),
            RegisterField("HPSEL", bits: 2...3), RegisterField("TSENSEN", bit: 1), RegisterField("MBSEL", bit: 0)]),
        RegisterDefinition(49, "Class D Control (1)", width: 9, reset: 0x037, fields: [
            RegisterField("SPK_OP_EN", bits: 6...7)]),
        RegisterDefinition(51, "Class D Control (3)", width: 9, reset: 0x080, fields: [
            RegisterField("DCGAIN", bits: 3...5), RegisterField("ACGAIN", bits: 0...2)]),
        RegisterDefinition(52, "PLL (1)", width: 9, reset: 0x008, fields: [
            RegisterField("OPCLKDIV", bits: 6...8), RegisterField("SDM", bit: 5), RegisterField("PLLPRESCALE", bit: 4),
            RegisterField("PLLN", bits: 0...3)]),
        RegisterDefinition(53, "PLL (2)", width: 9, reset: 0x031, fields: [RegisterField("PLLK[23:16]", bits: 0...7)]),
        RegisterDefinition(54, "PLL (3)", width: 9, reset: 0x026, fields: [RegisterField("PLLK[15:8]", bits: 0...7)]),
        RegisterDefinition(55, "PLL (4)", width: 9, reset: 0x0E9, fields: [RegisterField("PLLK[7:0]", bits: 0...7)]),
    ])
}

/// Bit fields of the WM8960's registers (datasheet register descriptions), as masks.
public enum WM8960Bits {
    // R0/R1 input PGA
    public static let inputVolumeUpdate: RegisterValue = 0x100   // IPVU
    public static let inputMute: RegisterValue = 0x080           // LINMUTE
    public static let inputZeroCross: RegisterValue = 0x040      // LIZC
    public static let inputVolume: RegisterValue = 0x03F         // LINVOL: 0x00 = -17.25 dB ... 0x3F = +30 dB
    // R2/R3 headphone, R40/R41 speaker
    public static let outputVolumeUpdate: RegisterValue = 0x100  // OUT1VU / SPKVU
    public static let outputZeroCross: RegisterValue = 0x080     // LO1ZC / SPKLZC
    public static let outputVolume: RegisterValue = 0x07F        // 0x30 = -73 dB ... 0x7F = +6 dB; below mutes
    // R4 clocking 1
    public static let adcDivider: RegisterValue = 0x1C0          // ADCDIV
    public static let dacDivider: RegisterValue = 0x038          // DACDIV
    public static let sysclkDivider: RegisterValue = 0x006       // SYSCLKDIV: 00 = /1, 10 = /2
    public static let sysclkFromPLL: RegisterValue = 0x001       // CLKSEL
    // R5, R6
    public static let dacMute: RegisterValue = 0x008             // DACMU (soft mute)
    public static let dacSoftMuteMode: RegisterValue = 0x008     // R6 DACSMM: unmute ramps too
    public static let dacSlowRamp: RegisterValue = 0x004         // R6 DACMR: 32-sample steps, not 2
    // R7 audio interface
    public static let clockProvider: RegisterValue = 0x040       // MS
    public static let wordLength: RegisterValue = 0x00C          // WL: 16, 20, 24, 32
    public static let interfaceFormat: RegisterValue = 0x003     // FORMAT: 00 right, 01 left, 10 I2S
    // R8 clocking 2
    public static let bclkDivider: RegisterValue = 0x00F         // BCLKDIV
    // R10/R11 DAC volume
    public static let dacVolumeUpdate: RegisterValue = 0x100     // DACVU
    public static let dacVolume: RegisterValue = 0x0FF           // 0x00 mute, 0x01 = -127 dB ... 0xFF = 0 dB
    // R23
    public static let zeroCrossTimeout: RegisterValue = 0x001    // TOEN
    // R25 power 1
    public static let vmidSelect: RegisterValue = 0x180          // VMIDSEL: 01 = 2x50k, 10 = 2x250k, 11 = 2x5k
    public static let vmid50k: RegisterValue = 0x080
    public static let vmid250k: RegisterValue = 0x100
    public static let vref: RegisterValue = 0x040                // VREF
    public static let leftInputPGA: RegisterValue = 0x020        // AINL
    public static let rightInputPGA: RegisterValue = 0x010       // AINR
    public static let leftADC: RegisterValue = 0x008             // ADCL
    public static let rightADC: RegisterValue = 0x004            // ADCR
    public static let micBias: RegisterValue = 0x002             // MICB
    // R26 power 2
    public static let leftDAC: RegisterValue = 0x100             // DACL
    public static let rightDAC: RegisterValue = 0x080            // DACR
    public static let leftHeadphone: RegisterValue = 0x040       // LOUT1
    public static let rightHeadphone: RegisterValue = 0x020      // ROUT1
    public static let leftSpeaker: RegisterValue = 0x010         // SPKL
    public static let rightSpeaker: RegisterValue = 0x008        // SPKR
    public static let pllEnable: RegisterValue = 0x001           // PLL_EN
    // R28 anti-pop 1
    public static let outputBiasFromVGS: RegisterValue = 0x080   // POBCTRL
    public static let dcBufferOpen: RegisterValue = 0x010        // BUFDCOPEN
    public static let ioBuffers: RegisterValue = 0x008           // BUFIOEN
    public static let softStart: RegisterValue = 0x004           // SOFT_ST
    // R32/R33 input path
    public static let input1ToPGA: RegisterValue = 0x100         // LMN1
    public static let input3ToPGA: RegisterValue = 0x080         // LMP3
    public static let input2ToPGA: RegisterValue = 0x040         // LMP2
    public static let micBoost: RegisterValue = 0x030            // LMICBOOST
    public static let pgaToBoostMixer: RegisterValue = 0x008     // LMIC2B
    // R34/R37 output mixers
    public static let dacToOutputMixer: RegisterValue = 0x100    // LD2LO / RD2RO
    // R47 power 3
    public static let leftMicPower: RegisterValue = 0x020        // LMIC
    public static let rightMicPower: RegisterValue = 0x010       // RMIC
    public static let leftOutputMixer: RegisterValue = 0x008     // LOMIX
    public static let rightOutputMixer: RegisterValue = 0x004    // ROMIX
    // R48
    public static let micBiasLow: RegisterValue = 0x001          // MBSEL: 0 = 0.9 AVDD, 1 = 0.65 AVDD
    // R49
    public static let speakerOutputs: RegisterValue = 0x0C0      // SPK_OP_EN: both channels
    // R52 PLL 1
    public static let pllFractional: RegisterValue = 0x020       // SDM
    public static let pllPrescale: RegisterValue = 0x010         // PLLPRESCALE: MCLK / 2 into the PLL
    public static let pllN: RegisterValue = 0x00F                // PLLN
}
