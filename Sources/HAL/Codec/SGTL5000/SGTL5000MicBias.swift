/// The SGTL5000's microphone bias: a voltage and a source resistor, both fixed by the board (an electret
/// capsule's needs and the board's wiring), from the board file as the kernel takes them from the device tree
/// (sound/soc/codecs/sgtl5000.c `sgtl5000_i2c_probe`: `micbias-resistor-k-ohms` 0/2/4/8, default 4;
/// `micbias-voltage-m-volts` 1250...3000 in 250 mV steps, default 1250). Datasheet CHIP_MIC_CTRL:
/// BIAS_RESISTOR[9:8] 0 = off, 1 = 2 kΩ, 2 = 4 kΩ, 3 = 8 kΩ; BIAS_VOLT[6:4] = 1.25 V + 0.25 V x code.
public struct SGTL5000MicBias: Hashable, Sendable, CustomStringConvertible {
    public var millivolts: Int
    public var kilohms: Int

    /// The voltages BIAS_VOLT can make, in mV.
    public static let voltages = Array(stride(from: 1_250, through: 3_000, by: 250))
    /// The resistors BIAS_RESISTOR can pick, in kΩ (0 turns the bias off, so it is not a setting).
    public static let resistors = [2, 4, 8]
    /// The kernel's defaults when the device tree says nothing: 1.25 V through 4 kΩ.
    public static let kernelDefault = SGTL5000MicBias(valid: 1_250, 4)

    /// Nil when the chip cannot make `millivolts` through `kilohms`.
    public init?(millivolts: Int, kilohms: Int) {
        guard Self.voltages.contains(millivolts), Self.resistors.contains(kilohms) else { return nil }
        self.init(valid: millivolts, kilohms)
    }

    private init(valid millivolts: Int, _ kilohms: Int) {
        self.millivolts = millivolts
        self.kilohms = kilohms
    }

    /// BIAS_VOLT: (mV - 1250) / 250, the kernel's value / 250 - 5.
    public var voltageCode: RegisterValue { RegisterValue((millivolts - 1_250) / 250) }
    /// BIAS_RESISTOR: 2 kΩ -> 1, 4 kΩ -> 2, 8 kΩ -> 3.
    public var resistorCode: RegisterValue { kilohms == 2 ? 1 : kilohms == 4 ? 2 : 3 }
    /// The CHIP_MIC_CTRL bits for the bias on.
    public var micControlBits: RegisterValue { resistorCode << 8 | voltageCode << 4 }

    public var description: String {
        var fraction = String(millivolts % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
        let volts = "\(millivolts / 1000).\(fraction)"
        return "\(volts) V through \(kilohms) kΩ"
    }
}
