import Codec8_24

/// The board's supply rails, which decide how the SGTL5000 powers itself (datasheet "Power supply
/// configuration" and "Reference voltage and bias current"): the internal VDDD regulator when VDDD is not
/// supplied, the charge pump's source, and the analog and line-out reference levels.
public struct SGTL5000Supplies: Hashable, Sendable {
    public var vddaMillivolts: Int
    public var vddioMillivolts: Int
    /// VDDD comes from the board; otherwise the chip's linear regulator makes it (1.2 V).
    public var externalVDDD: Bool

    public init(vddaMillivolts: Int = 3300, vddioMillivolts: Int = 3300, externalVDDD: Bool = false) {
        self.vddaMillivolts = vddaMillivolts
        self.vddioMillivolts = vddioMillivolts
        self.externalVDDD = externalVDDD
    }

    /// The Fe-Pi Audio Z V2: VDDA and VDDIO from the Pi's 3.3 V, VDDD from the chip's own regulator.
    public static let fePi = SGTL5000Supplies()

    /// Both rails above 3.1 V: the charge pump must be assigned to VDDIO by hand; both below: the charge
    /// pump runs (from the internal oscillator); otherwise the chip chooses.
    public var bothRailsHigh: Bool { vddaMillivolts > 3100 && vddioMillivolts > 3100 }
    public var needsChargePump: Bool { vddaMillivolts < 3100 && vddioMillivolts < 3100 }

    /// CHIP_LINREG_CTRL: D_PROGRAMMING 8 (1.6 V - 8 x 50 mV = 1.2 V) for the internal VDDD, and the manual
    /// charge-pump assignment to VDDIO when both rails are high.
    public var regulatorControl: RegisterValue {
        (externalVDDD ? 0 : 8)
            | (bothRailsHigh ? SGTL5000Bits.chargePumpOverride | SGTL5000Bits.chargePumpFromVDDIO : 0)
    }

    /// VAG_VAL: VDDA / 2 in 25 mV steps from 0.8 V, at most 1.575 V (code 31).
    public var vagCode: Int { Self.code(vddaMillivolts / 2, maximum: 31) }
    /// LO_VAGCNTRL: VDDIO / 2 in 25 mV steps from 0.8 V, at most 1.675 V (code 35).
    public var lineOutVAGCode: Int { Self.code(vddioMillivolts / 2, maximum: 35) }

    /// The LO_VOL code for unity line level, `(int)(40 log10(VAG / LO_VAGCNTRL) + 15)` (datasheet).
    public var lineOutNominalCode: Int {
        let vag = 0.8 + 0.025 * Double(vagCode)
        let lineOut = 0.8 + 0.025 * Double(lineOutVAGCode)
        return Int(2 * Decibels.decibels(vag / lineOut) + 15)
    }

    static func code(_ millivolts: Int, maximum: Int) -> Int {
        millivolts <= 800 ? 0 : Swift.min(maximum, (millivolts - 800) / 25)
    }
}
