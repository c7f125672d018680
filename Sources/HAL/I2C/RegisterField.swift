/// A named bit field of a register, as the datasheet draws it, so a register dump can say
/// `DACMU=1 DEEMPH=00` instead of leaving a person to decode `0x008` by hand.
public struct RegisterField: Hashable, Sendable {
    public var name: String
    /// The lowest bit of the field.
    public var lowBit: Int
    public var width: Int

    /// A field over `bits` (`4...7`).
    public init(_ name: String, bits: ClosedRange<Int>) {
        precondition(bits.lowerBound >= 0 && bits.upperBound < 16, "a register field lies within bits 0...15")
        self.name = name
        lowBit = bits.lowerBound
        width = bits.count
    }

    /// A one-bit field.
    public init(_ name: String, bit: Int) {
        self.init(name, bits: bit...bit)
    }

    public var mask: RegisterValue { RegisterValue(truncatingIfNeeded: ((1 << width) - 1) << lowBit) }

    /// The field's value in `register`, shifted down.
    public func value(in register: RegisterValue) -> RegisterValue { (register & mask) >> RegisterValue(lowBit) }

    /// `DACMU=1`, `IWL=0b10`, `LOUT1VOL=0x79`: one bit as a digit, narrow fields in binary, wide ones in hex.
    public func describe(_ register: RegisterValue) -> String {
        let field = value(in: register)
        let text: String
        switch width {
        case 1: text = String(field)
        case 2...4:
            let digits = String(field, radix: 2)
            text = "0b" + String(repeating: "0", count: width - digits.count) + digits
        default:
            let digits = String(field, radix: 16, uppercase: true)
            let padded = (width + 3) / 4
            text = "0x" + String(repeating: "0", count: max(0, padded - digits.count)) + digits
        }
        return name + "=" + text
    }
}
