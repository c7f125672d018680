import Testing
@testable import HAL

/// The named bit fields of the WM8960 and WM8731 register maps, checked for shape (inside the register, no
/// overlaps, most significant first), against decoded reset values from the datasheets, and against the
/// masks the drivers actually use, so a dump can never name a bit differently from the driver that set it.
@Suite("Register field tables")
struct RegisterFieldTableTests {
    static let chips = ["WM8960", "WM8731"]

    static func map(_ chip: String) -> RegisterMap {
        chip == "WM8960" ? WM8960Register.map : WM8731Register.map
    }

    /// Bits that reset to 1 but are reserved in the datasheet, so no field covers them (WM8960 R18 bit 8,
    /// R49 bits 5:0, R51 bit 7). Every other set reset bit must belong to a field.
    static let reservedResetBits: [String: [RegisterAddress: RegisterValue]] = [
        "WM8960": [18: 0x100, 49: 0x037, 51: 0x080],
        "WM8731": [:],
    ]

    @Test(arguments: chips)
    func fieldsLieInsideTheirRegisterWithoutOverlap(chip: String) {
        let map = Self.map(chip)
        #expect(map.addresses.count == (chip == "WM8960" ? 48 : 11))
        for address in map.addresses {
            let register = map[address]!
            #expect(!register.fields.isEmpty, "\(chip) R\(address) has no fields")
            var seen: RegisterValue = 0
            for field in register.fields {
                #expect(field.width >= 1 && field.lowBit >= 0 && field.lowBit + field.width <= register.width,
                        "\(chip) R\(address) \(field.name) lies outside the \(register.width)-bit register")
                #expect(seen & field.mask == 0, "\(chip) R\(address) \(field.name) overlaps another field")
                seen |= field.mask
            }
            let names = register.fields.map(\.name)
            #expect(Set(names).count == names.count, "\(chip) R\(address) repeats a field name")
            let lows = register.fields.map(\.lowBit)
            #expect(lows == lows.sorted(by: >), "\(chip) R\(address) fields are not most significant first")
        }
    }

    @Test(arguments: chips)
    func resetCommandIsOneFieldOverEveryBit(chip: String) {
        let map = Self.map(chip)
        let commands = map.addresses.filter { map[$0]!.access == .writeOnly }
        #expect(commands == [15])
        let reset = map[15]!
        #expect(reset.fields.count == 1)
        #expect(reset.fields.first?.name == "RESET")
        #expect(reset.fields.first?.mask == 0x1FF)
    }

    @Test(arguments: chips)
    func everySetResetBitBelongsToAFieldUnlessReserved(chip: String) {
        let map = Self.map(chip)
        for address in map.addresses {
            let register = map[address]!
            let covered = register.fields.reduce(RegisterValue(0)) { $0 | $1.mask }
            let uncovered = register.reset & ~covered
            #expect(uncovered == Self.reservedResetBits[chip]![address, default: 0],
                    "\(chip) R\(address) reset 0x\(String(register.reset, radix: 16)) has bits outside its fields")
        }
    }

    // MARK: Decoded examples (reset values from the datasheets' register maps)

    @Test func wm8960ResetValuesDecode() {
        let map = WM8960Register.map
        #expect(map[7]!.describeFields(0x00A) == "ALRSWAP=0 BCLKINV=0 MS=0 DLRSWAP=0 LRP=0 WL=0b10 FORMAT=0b10")
        #expect(map[0]!.describeFields(0x097) == "IPVU=0 LINMUTE=1 LIZC=0 LINVOL=0x17")
        #expect(map[5]!.describeFields(0x008) == "DACDIV2=0 ADCPOL=0b00 DACMU=1 DEEMPH=0b00 ADCHPD=0")
        #expect(map[8]!.describeFields(0x1C0) == "DCLKDIV=0b111 BCLKDIV=0b0000")
        #expect(map[17]!.describeFields(0x07B) == "ALCSEL=0b00 MAXGAIN=0b111 ALCL=0b1011")
        #expect(map[19]!.describeFields(0x032) == "ALCMODE=0 DCY=0b0011 ATK=0b0010")
        #expect(map[23]!.describeFields(0x1C0)
                == "TSDEN=1 VSEL=0b11 DMONOMIX=0 DATSEL=0b00 TOCLKSEL=0 TOEN=0")
        #expect(map[34]!.describeFields(0x050) == "LD2LO=0 LI2LO=0 LI2LOVOL=0b101")
        #expect(map[42]!.describeFields(0x040) == "MOUTVOL=1")
        #expect(map[48]!.describeFields(0x002) == "GPIOPOL=0 GPIOSEL=0b000 HPSEL=0b00 TSENSEN=1 MBSEL=0")
        #expect(map[52]!.describeFields(0x008) == "OPCLKDIV=0b000 SDM=0 PLLPRESCALE=0 PLLN=0b1000")
        #expect(map[53]!.describeFields(0x031) == "PLLK[23:16]=0x31")
        #expect(map[15]!.describeFields(0x000) == "RESET=0x000")
    }

    @Test func wm8960DriverValuesDecode() {
        let map = WM8960Register.map
        // Power 1 at playback: VMID 2x50k, VREF, both PGAs and ADCs, mic bias.
        #expect(map[25]!.describeFields(WM8960Bits.vmid50k | 0x07E)
                == "VMIDSEL=0b01 VREF=1 AINL=1 AINR=1 ADCL=1 ADCR=1 MICB=1 DIGENB=0")
        // Speaker at 0 dB (0x79), zero cross, latched by SPKVU.
        #expect(map[41]!.describeFields(0x1F9) == "SPKVU=1 SPKRZC=1 SPKRVOL=0x79")
        // 16-bit I2S with the codec driving the clocks.
        #expect(map[7]!.describeFields(0x042) == "ALRSWAP=0 BCLKINV=0 MS=1 DLRSWAP=0 LRP=0 WL=0b00 FORMAT=0b10")
    }

    @Test func wm8731ResetValuesDecode() {
        let map = WM8731Register.map
        #expect(map[6]!.describeFields(0x09F)
                == "POWEROFF=1 CLKOUTPD=0 OSCPD=0 OUTPD=1 DACPD=1 ADCPD=1 MICPD=1 LINEINPD=1")
        #expect(map[0]!.describeFields(0x097) == "LRINBOTH=0 LINMUTE=1 LINVOL=0x17")
        #expect(map[2]!.describeFields(0x079) == "LRHPBOTH=0 LZCEN=0 LHPVOL=0x79")
        #expect(map[4]!.describeFields(0x00A)
                == "SIDEATT=0b00 SIDETONE=0 DACSEL=0 BYPASS=1 INSEL=0 MUTEMIC=1 MICBOOST=0")
        #expect(map[5]!.describeFields(0x008) == "HPOR=0 DACMU=1 DEEMP=0b00 ADCHPD=0")
        #expect(map[7]!.describeFields(0x00A) == "BCLKINV=0 MS=0 LRSWAP=0 LRP=0 IWL=0b10 FORMAT=0b10")
        #expect(map[9]!.describeFields(0x000) == "ACTIVE=0")
        #expect(map[15]!.describeFields(0x000) == "RESET=0x000")
        // 44.1 kHz from 11.2896 MHz in normal mode: SR = 1000, BOSR = 0.
        #expect(map[8]!.describeFields(0x020) == "CLKODIV2=0 CLKIDIV2=0 SR=0b1000 BOSR=0 USB/NORMAL=0")
        // 48 kHz from 12 MHz in USB mode: SR = 0000, BOSR = 0, USB = 1.
        #expect(map[8]!.describeFields(0x001) == "CLKODIV2=0 CLKIDIV2=0 SR=0b0000 BOSR=0 USB/NORMAL=1")
    }

    // MARK: The drivers' masks against the tables

    /// One mask a driver uses on one register, and the datasheet fields it must be made of.
    struct DriverMask: Sendable, CustomTestStringConvertible {
        var register: RegisterAddress
        var constant: String
        var mask: RegisterValue
        var fields: [String]
        var testDescription: String { "R\(register) \(constant)" }

        init(_ register: RegisterAddress, _ constant: String, _ mask: RegisterValue, _ fields: String...) {
            self.register = register
            self.constant = constant
            self.mask = mask
            self.fields = fields
        }
    }

    /// Every mask in `WM8960Bits`, on every register the driver or its model applies it to, plus the
    /// literal masks in the driver's recipes.
    static let wm8960Masks: [DriverMask] = [
        DriverMask(0, "inputVolumeUpdate", WM8960Bits.inputVolumeUpdate, "IPVU"),
        DriverMask(0, "inputMute", WM8960Bits.inputMute, "LINMUTE"),
        DriverMask(0, "inputZeroCross", WM8960Bits.inputZeroCross, "LIZC"),
        DriverMask(0, "inputVolume", WM8960Bits.inputVolume, "LINVOL"),
        DriverMask(1, "inputVolumeUpdate", WM8960Bits.inputVolumeUpdate, "IPVU"),
        DriverMask(1, "inputMute", WM8960Bits.inputMute, "RINMUTE"),
        DriverMask(1, "inputZeroCross", WM8960Bits.inputZeroCross, "RIZC"),
        DriverMask(1, "inputVolume", WM8960Bits.inputVolume, "RINVOL"),
        DriverMask(2, "outputVolumeUpdate", WM8960Bits.outputVolumeUpdate, "OUT1VU"),
        DriverMask(2, "outputZeroCross", WM8960Bits.outputZeroCross, "LO1ZC"),
        DriverMask(2, "outputVolume", WM8960Bits.outputVolume, "LOUT1VOL"),
        DriverMask(3, "outputVolumeUpdate", WM8960Bits.outputVolumeUpdate, "OUT1VU"),
        DriverMask(3, "outputZeroCross", WM8960Bits.outputZeroCross, "RO1ZC"),
        DriverMask(3, "outputVolume", WM8960Bits.outputVolume, "ROUT1VOL"),
        DriverMask(40, "outputVolumeUpdate", WM8960Bits.outputVolumeUpdate, "SPKVU"),
        DriverMask(40, "outputZeroCross", WM8960Bits.outputZeroCross, "SPKLZC"),
        DriverMask(40, "outputVolume", WM8960Bits.outputVolume, "SPKLVOL"),
        DriverMask(41, "outputVolumeUpdate", WM8960Bits.outputVolumeUpdate, "SPKVU"),
        DriverMask(41, "outputZeroCross", WM8960Bits.outputZeroCross, "SPKRZC"),
        DriverMask(41, "outputVolume", WM8960Bits.outputVolume, "SPKRVOL"),
        DriverMask(4, "adcDivider", WM8960Bits.adcDivider, "ADCDIV"),
        DriverMask(4, "dacDivider", WM8960Bits.dacDivider, "DACDIV"),
        DriverMask(4, "sysclkDivider", WM8960Bits.sysclkDivider, "SYSCLKDIV"),
        DriverMask(4, "sysclkFromPLL", WM8960Bits.sysclkFromPLL, "CLKSEL"),
        DriverMask(4, "0x1FF (clocking recipe)", 0x1FF, "ADCDIV", "DACDIV", "SYSCLKDIV", "CLKSEL"),
        DriverMask(5, "dacMute", WM8960Bits.dacMute, "DACMU"),
        DriverMask(6, "dacSoftMuteMode", WM8960Bits.dacSoftMuteMode, "DACSMM"),
        DriverMask(6, "dacSlowRamp", WM8960Bits.dacSlowRamp, "DACMR"),
        DriverMask(7, "clockProvider", WM8960Bits.clockProvider, "MS"),
        DriverMask(7, "wordLength", WM8960Bits.wordLength, "WL"),
        DriverMask(7, "interfaceFormat", WM8960Bits.interfaceFormat, "FORMAT"),
        DriverMask(8, "bclkDivider", WM8960Bits.bclkDivider, "BCLKDIV"),
        DriverMask(10, "dacVolumeUpdate", WM8960Bits.dacVolumeUpdate, "DACVU"),
        DriverMask(10, "dacVolume", WM8960Bits.dacVolume, "LDACVOL"),
        DriverMask(11, "dacVolumeUpdate", WM8960Bits.dacVolumeUpdate, "DACVU"),
        DriverMask(11, "dacVolume", WM8960Bits.dacVolume, "RDACVOL"),
        DriverMask(23, "zeroCrossTimeout", WM8960Bits.zeroCrossTimeout, "TOEN"),
        DriverMask(25, "vmidSelect", WM8960Bits.vmidSelect, "VMIDSEL"),
        DriverMask(25, "vref", WM8960Bits.vref, "VREF"),
        DriverMask(25, "leftInputPGA", WM8960Bits.leftInputPGA, "AINL"),
        DriverMask(25, "rightInputPGA", WM8960Bits.rightInputPGA, "AINR"),
        DriverMask(25, "leftADC", WM8960Bits.leftADC, "ADCL"),
        DriverMask(25, "rightADC", WM8960Bits.rightADC, "ADCR"),
        DriverMask(25, "micBias", WM8960Bits.micBias, "MICB"),
        DriverMask(26, "leftDAC", WM8960Bits.leftDAC, "DACL"),
        DriverMask(26, "rightDAC", WM8960Bits.rightDAC, "DACR"),
        DriverMask(26, "leftHeadphone", WM8960Bits.leftHeadphone, "LOUT1"),
        DriverMask(26, "rightHeadphone", WM8960Bits.rightHeadphone, "ROUT1"),
        DriverMask(26, "leftSpeaker", WM8960Bits.leftSpeaker, "SPKL"),
        DriverMask(26, "rightSpeaker", WM8960Bits.rightSpeaker, "SPKR"),
        DriverMask(26, "pllEnable", WM8960Bits.pllEnable, "PLL_EN"),
        DriverMask(28, "outputBiasFromVGS", WM8960Bits.outputBiasFromVGS, "POBCTRL"),
        DriverMask(28, "dcBufferOpen", WM8960Bits.dcBufferOpen, "BUFDCOPEN"),
        DriverMask(28, "ioBuffers", WM8960Bits.ioBuffers, "BUFIOEN"),
        DriverMask(28, "softStart", WM8960Bits.softStart, "SOFT_ST"),
        DriverMask(32, "input1ToPGA", WM8960Bits.input1ToPGA, "LMN1"),
        DriverMask(32, "input3ToPGA", WM8960Bits.input3ToPGA, "LMP3"),
        DriverMask(32, "input2ToPGA", WM8960Bits.input2ToPGA, "LMP2"),
        DriverMask(32, "micBoost", WM8960Bits.micBoost, "LMICBOOST"),
        DriverMask(32, "pgaToBoostMixer", WM8960Bits.pgaToBoostMixer, "LMIC2B"),
        DriverMask(33, "input1ToPGA", WM8960Bits.input1ToPGA, "RMN1"),
        DriverMask(33, "input3ToPGA", WM8960Bits.input3ToPGA, "RMP3"),
        DriverMask(33, "input2ToPGA", WM8960Bits.input2ToPGA, "RMP2"),
        DriverMask(33, "micBoost", WM8960Bits.micBoost, "RMICBOOST"),
        DriverMask(33, "pgaToBoostMixer", WM8960Bits.pgaToBoostMixer, "RMIC2B"),
        DriverMask(34, "dacToOutputMixer", WM8960Bits.dacToOutputMixer, "LD2LO"),
        DriverMask(37, "dacToOutputMixer", WM8960Bits.dacToOutputMixer, "RD2RO"),
        DriverMask(47, "leftMicPower", WM8960Bits.leftMicPower, "LMIC"),
        DriverMask(47, "rightMicPower", WM8960Bits.rightMicPower, "RMIC"),
        DriverMask(47, "leftOutputMixer", WM8960Bits.leftOutputMixer, "LOMIX"),
        DriverMask(47, "rightOutputMixer", WM8960Bits.rightOutputMixer, "ROMIX"),
        DriverMask(48, "micBiasLow", WM8960Bits.micBiasLow, "MBSEL"),
        DriverMask(49, "speakerOutputs", WM8960Bits.speakerOutputs, "SPK_OP_EN"),
        DriverMask(52, "pllFractional", WM8960Bits.pllFractional, "SDM"),
        DriverMask(52, "pllPrescale", WM8960Bits.pllPrescale, "PLLPRESCALE"),
        DriverMask(52, "pllN", WM8960Bits.pllN, "PLLN"),
        DriverMask(53, "0xFF (PLL K recipe)", 0xFF, "PLLK[23:16]"),
        DriverMask(54, "0xFF (PLL K recipe)", 0xFF, "PLLK[15:8]"),
        DriverMask(55, "0xFF (PLL K recipe)", 0xFF, "PLLK[7:0]"),
    ]

    /// Every mask in `WM8731Bits`, plus the literal sampling-control mask of the configure recipe.
    static let wm8731Masks: [DriverMask] = [
        DriverMask(0, "lineInBoth", WM8731Bits.lineInBoth, "LRINBOTH"),
        DriverMask(0, "lineInMute", WM8731Bits.lineInMute, "LINMUTE"),
        DriverMask(0, "lineInVolume", WM8731Bits.lineInVolume, "LINVOL"),
        DriverMask(1, "lineInBoth", WM8731Bits.lineInBoth, "RLINBOTH"),
        DriverMask(1, "lineInMute", WM8731Bits.lineInMute, "RINMUTE"),
        DriverMask(1, "lineInVolume", WM8731Bits.lineInVolume, "RINVOL"),
        DriverMask(2, "headphoneBoth", WM8731Bits.headphoneBoth, "LRHPBOTH"),
        DriverMask(2, "headphoneZeroCross", WM8731Bits.headphoneZeroCross, "LZCEN"),
        DriverMask(2, "headphoneVolume", WM8731Bits.headphoneVolume, "LHPVOL"),
        DriverMask(3, "headphoneBoth", WM8731Bits.headphoneBoth, "RLHPBOTH"),
        DriverMask(3, "headphoneZeroCross", WM8731Bits.headphoneZeroCross, "RZCEN"),
        DriverMask(3, "headphoneVolume", WM8731Bits.headphoneVolume, "RHPVOL"),
        DriverMask(4, "sidetoneAttenuation", WM8731Bits.sidetoneAttenuation, "SIDEATT"),
        DriverMask(4, "sidetone", WM8731Bits.sidetone, "SIDETONE"),
        DriverMask(4, "dacSelect", WM8731Bits.dacSelect, "DACSEL"),
        DriverMask(4, "bypass", WM8731Bits.bypass, "BYPASS"),
        DriverMask(4, "inputSelect", WM8731Bits.inputSelect, "INSEL"),
        DriverMask(4, "muteMic", WM8731Bits.muteMic, "MUTEMIC"),
        DriverMask(4, "micBoost", WM8731Bits.micBoost, "MICBOOST"),
        DriverMask(5, "storeOffset", WM8731Bits.storeOffset, "HPOR"),
        DriverMask(5, "dacMute", WM8731Bits.dacMute, "DACMU"),
        DriverMask(5, "deemphasis", WM8731Bits.deemphasis, "DEEMP"),
        DriverMask(5, "adcHighPassOff", WM8731Bits.adcHighPassOff, "ADCHPD"),
        DriverMask(6, "powerOff", WM8731Bits.powerOff, "POWEROFF"),
        DriverMask(6, "clockOutDown", WM8731Bits.clockOutDown, "CLKOUTPD"),
        DriverMask(6, "oscillatorDown", WM8731Bits.oscillatorDown, "OSCPD"),
        DriverMask(6, "outputsDown", WM8731Bits.outputsDown, "OUTPD"),
        DriverMask(6, "dacDown", WM8731Bits.dacDown, "DACPD"),
        DriverMask(6, "adcDown", WM8731Bits.adcDown, "ADCPD"),
        DriverMask(6, "micDown", WM8731Bits.micDown, "MICPD"),
        DriverMask(6, "lineInDown", WM8731Bits.lineInDown, "LINEINPD"),
        DriverMask(7, "bitClockInvert", WM8731Bits.bitClockInvert, "BCLKINV"),
        DriverMask(7, "clockProvider", WM8731Bits.clockProvider, "MS"),
        DriverMask(7, "channelSwap", WM8731Bits.channelSwap, "LRSWAP"),
        DriverMask(7, "lrPhase", WM8731Bits.lrPhase, "LRP"),
        DriverMask(7, "wordLength", WM8731Bits.wordLength, "IWL"),
        DriverMask(7, "format", WM8731Bits.format, "FORMAT"),
        DriverMask(8, "clockOutDivide2", WM8731Bits.clockOutDivide2, "CLKODIV2"),
        DriverMask(8, "clockInDivide2", WM8731Bits.clockInDivide2, "CLKIDIV2"),
        DriverMask(8, "sampleRate", WM8731Bits.sampleRate, "SR"),
        DriverMask(8, "baseOversampling", WM8731Bits.baseOversampling, "BOSR"),
        DriverMask(8, "usbMode", WM8731Bits.usbMode, "USB/NORMAL"),
        DriverMask(8, "0x0FF (configure recipe)", 0x0FF, "CLKODIV2", "CLKIDIV2", "SR", "BOSR", "USB/NORMAL"),
        DriverMask(9, "activate", WM8731Bits.activate, "ACTIVE"),
    ]

    /// The mask must be exactly the union of the named fields: each name exists once in the register, and
    /// no other field shares a bit with the mask.
    static func check(_ entry: DriverMask, in map: RegisterMap, chip: String) {
        guard let register = map[entry.register] else {
            Issue.record("\(chip) R\(entry.register) is not in the map")
            return
        }
        var union: RegisterValue = 0
        for name in entry.fields {
            let matches = register.fields.filter { $0.name == name }
            #expect(matches.count == 1, "\(chip) R\(entry.register) has \(matches.count) fields named \(name)")
            union |= matches.first?.mask ?? 0
        }
        #expect(union == entry.mask, """
            \(chip) R\(entry.register) \(entry.constant) = 0x\(String(entry.mask, radix: 16)) but \
            \(entry.fields.joined(separator: "|")) = 0x\(String(union, radix: 16))
            """)
        let touching = register.fields.filter { $0.mask & entry.mask != 0 }.map(\.name)
        #expect(Set(touching) == Set(entry.fields),
                "\(chip) R\(entry.register) \(entry.constant) touches \(touching), expected \(entry.fields)")
    }

    @Test(arguments: wm8960Masks)
    func wm8960DriverMaskIsExactlyItsFields(_ entry: DriverMask) {
        Self.check(entry, in: WM8960Register.map, chip: "WM8960")
    }

    @Test(arguments: wm8731Masks)
    func wm8731DriverMaskIsExactlyItsFields(_ entry: DriverMask) {
        Self.check(entry, in: WM8731Register.map, chip: "WM8731")
    }

    /// Driver constants that are values of a field rather than masks must decode to the datasheet's codes.
    @Test func wm8960DriverFieldValuesMatchTheDatasheetCodes() {
        let vmidSelect = WM8960Register.map[25]!.fields.first { $0.name == "VMIDSEL" }!
        #expect(WM8960Bits.vmid50k & ~vmidSelect.mask == 0 && vmidSelect.value(in: WM8960Bits.vmid50k) == 0b01)
        #expect(WM8960Bits.vmid250k & ~vmidSelect.mask == 0 && vmidSelect.value(in: WM8960Bits.vmid250k) == 0b10)
        // The PLL recipe's SYSCLK divider literal 0b100 is SYSCLKDIV = 10 (divide by 2).
        let sysclkDivider = WM8960Register.map[4]!.fields.first { $0.name == "SYSCLKDIV" }!
        #expect(sysclkDivider.value(in: 0b100) == 0b10 && 0b100 & ~sysclkDivider.mask == 0)
    }
}
