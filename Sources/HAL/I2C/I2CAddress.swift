/// A 7-bit I2C device address, as `i2cdetect` prints it (a codec's address is set by its strap pins:
/// WM8960 0x1a, SGTL5000 0x0a or 0x2a, TLV320AIC3104 0x18).
///
/// Only 0x03...0x77 are device addresses: 0x00-0x02 are the general call, CBUS and other-bus reservations
/// and 0x78-0x7f start 10-bit addressing and high-speed mode.
public struct I2CAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public static let validRange: ClosedRange<Int> = 0x03...0x77

    /// Throws `I2CError.invalidAddress` outside 0x03...0x77 (an 8-bit "write address" such as 0x34 for a
    /// WM8960 is the 7-bit address shifted left by one: pass 0x1a).
    public init(_ value: Int) throws(I2CError) {
        guard Self.validRange.contains(value) else { throw .invalidAddress(value) }
        rawValue = UInt8(value)
    }

    public static func < (lhs: I2CAddress, rhs: I2CAddress) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `0x1a`, the way i2c-tools print addresses.
    public var description: String { "0x" + I2CHex.lowercase(rawValue, digits: 2) }
}

/// One device on one bus: where a transfer went, for error messages and hints.
public struct I2CTarget: Hashable, Sendable, CustomStringConvertible {
    /// The adapter number N of `/dev/i2c-N` (1 is the Raspberry Pi's GPIO 2/3 header bus).
    public let bus: Int
    public let address: I2CAddress

    public init(bus: Int, address: I2CAddress) {
        self.bus = bus
        self.address = address
    }

    /// The character device of the bus.
    public var devicePath: String { "/dev/i2c-\(bus)" }

    /// The kernel's name for a device at this address (`1-001a`), as in `/sys/bus/i2c/devices/`.
    public var sysfsName: String { "\(bus)-" + I2CHex.lowercase(address.rawValue, digits: 4) }

    /// `i2c-1 address 0x1a`.
    public var description: String { "i2c-\(bus) address \(address)" }
}

/// Hex formatting for register numbers, values and addresses (no Foundation in HAL).
enum I2CHex {
    static func lowercase(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func uppercase(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A register number: `0x0F`, or `0x0024` when it does not fit a byte.
    static func register(_ register: RegisterAddress) -> String {
        "0x" + uppercase(register, digits: register > 0xFF ? 4 : 2)
    }

    /// A value with as many digits as the layout's values have (`0x000` for a 9-bit value).
    static func value(_ value: RegisterValue, bits: Int) -> String {
        "0x" + uppercase(value, digits: (bits + 3) / 4)
    }

    /// A register number with as many digits as the layout's registers have.
    static func register(_ register: RegisterAddress, bits: Int) -> String {
        "0x" + uppercase(register, digits: (bits + 3) / 4)
    }

    /// Bytes as `0x1e 0x00`, the way `i2ctransfer` takes them.
    static func bytes(_ bytes: [UInt8]) -> String {
        bytes.map { "0x" + lowercase($0, digits: 2) }.joined(separator: " ")
    }
}
