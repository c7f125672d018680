/// A register number on a codec's control port (7, 8 or 16 bits wide, depending on the layout).
public typealias RegisterAddress = UInt16

/// A register's value (8, 9 or 16 bits wide, depending on the layout).
public typealias RegisterValue = UInt16

/// How a chip lays out a register number and its value in the bytes of one transfer. Codec drivers name
/// their layout as data; the bus turns it into transfers, the same on real hardware and in the twin.
public enum RegisterLayout: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 8-bit register, 8-bit value: `[reg, value]`; read back with a repeated-start read of one byte.
    /// SMBus "byte data", so it works on SMBus-only adapters and i2c-stub.
    case reg8Value8
    /// 7-bit register, 9-bit value in two bytes: `[reg << 1 | value bit 8, value bits 7...0]` (WM8960,
    /// WM8731, WM8750). These chips cannot be read: keep a `RegisterCache`.
    /// On the wire it is SMBus "write byte data" with command `reg << 1 | bit 8`.
    case reg7Value9
    /// 16-bit register, 16-bit value, both big-endian: `[reg hi, reg lo, value hi, value lo]`; reads write
    /// the two register bytes, then a repeated start reads two (SGTL5000). SMBus has no transfer with a
    /// two-byte command, so this layout uses plain I2C messages (I2C_RDWR) and needs an adapter with
    /// I2C_FUNC_I2C (every SoC controller; not i2c-stub).
    case reg16Value16
    /// 8-bit register, 8-bit value, and the chip advances the register after each byte, so one read of N
    /// bytes from `reg` returns registers reg...reg+N-1 (many TI, AKM and Cirrus parts). Block reads use
    /// SMBus "I2C block read" (at most 32 bytes a transfer, so longer reads are split).
    case reg8Value8AutoIncrement

    /// Bits in a register number.
    public var registerBits: Int {
        switch self {
        case .reg8Value8, .reg8Value8AutoIncrement: 8
        case .reg7Value9: 7
        case .reg16Value16: 16
        }
    }

    /// Bits in a value.
    public var valueBits: Int {
        switch self {
        case .reg8Value8, .reg8Value8AutoIncrement: 8
        case .reg7Value9: 9
        case .reg16Value16: 16
        }
    }

    public var maxRegister: RegisterAddress { RegisterAddress(truncatingIfNeeded: (1 << registerBits) - 1) }
    public var maxValue: RegisterValue { RegisterValue(truncatingIfNeeded: (1 << valueBits) - 1) }

    /// Whether registers can be read back at all (the 7+9 chips have no read protocol).
    public var isReadable: Bool { self != .reg7Value9 }

    /// Whether one transfer can read consecutive registers.
    public var supportsBlockReads: Bool { self == .reg8Value8AutoIncrement }

    /// The most bytes one SMBus I2C-block transfer carries; longer block reads are split.
    public static let maxBlockTransfer = 32

    public var description: String {
        switch self {
        case .reg8Value8: "8-bit register + 8-bit value"
        case .reg7Value9: "7-bit register + 9-bit value"
        case .reg16Value16: "16-bit register + 16-bit value"
        case .reg8Value8AutoIncrement: "8-bit register + 8-bit value, auto-increment"
        }
    }

    // MARK: Validation (before any byte goes out)

    public func validate(register: RegisterAddress) throws(I2CError) {
        guard register <= maxRegister else { throw .registerOutOfRange(register, layout: self) }
    }

    public func validate(value: RegisterValue, register: RegisterAddress) throws(I2CError) {
        guard value <= maxValue else { throw .valueOutOfRange(value, register: register, layout: self) }
    }

    /// A block read of `count` registers from `register` must stay inside the register space.
    public func validateBlock(from register: RegisterAddress, count: Int) throws(I2CError) {
        try validate(register: register)
        guard count >= 1, Int(register) + count - 1 <= Int(maxRegister) else {
            throw .blockOutOfRange(from: register, count: count, layout: self)
        }
    }

    // MARK: Encoding (what goes on the wire)

    /// The transfer that writes `value` to `register` (both already validated).
    public func writeTransfer(register: RegisterAddress, value: RegisterValue) -> I2CWireTransfer {
        switch self {
        case .reg8Value8, .reg8Value8AutoIncrement:
            return .smbusWriteByteData(command: UInt8(register), value: UInt8(value))
        case .reg7Value9:
            return .smbusWriteByteData(command: UInt8(register << 1 | value >> 8),
                                       value: UInt8(truncatingIfNeeded: value))
        case .reg16Value16:
            return .write([UInt8(register >> 8), UInt8(truncatingIfNeeded: register),
                           UInt8(value >> 8), UInt8(truncatingIfNeeded: value)])
        }
    }

    /// The transfer that reads `register`, or nil for a write-only layout.
    public func readTransfer(register: RegisterAddress) -> I2CWireTransfer? {
        switch self {
        case .reg8Value8, .reg8Value8AutoIncrement:
            return .smbusReadByteData(command: UInt8(register))
        case .reg7Value9:
            return nil
        case .reg16Value16:
            return .writeThenRead([UInt8(register >> 8), UInt8(truncatingIfNeeded: register)], count: 2)
        }
    }

    /// The transfers that read `count` registers from `register`: chunks of at most 32 bytes, each
    /// starting where the last one stopped.
    public func blockReadTransfers(from register: RegisterAddress, count: Int) -> [I2CWireTransfer] {
        stride(from: 0, to: count, by: Self.maxBlockTransfer).map { offset in
            .smbusReadI2CBlock(command: UInt8(Int(register) + offset),
                               count: min(Self.maxBlockTransfer, count - offset))
        }
    }

    /// The value carried by the bytes a read transfer returned.
    public func value(fromReadBytes bytes: [UInt8]) -> RegisterValue {
        switch self {
        case .reg16Value16: RegisterValue(bytes[0]) << 8 | RegisterValue(bytes[1])
        default: RegisterValue(bytes[0])
        }
    }

    /// The register transfer a chip with this layout understands `wire` to be, as a chip decodes the bytes
    /// it receives; nil for bytes this layout does not produce. The twin decodes with it.
    public func decode(_ wire: I2CWireTransfer) -> RegisterTransfer? {
        switch (self, wire) {
        case (.reg8Value8, .smbusWriteByteData(let command, let value)),
             (.reg8Value8AutoIncrement, .smbusWriteByteData(let command, let value)):
            return .write(reg: RegisterAddress(command), value: RegisterValue(value))
        case (.reg8Value8, .smbusReadByteData(let command)),
             (.reg8Value8AutoIncrement, .smbusReadByteData(let command)):
            return .read(reg: RegisterAddress(command))
        case (.reg8Value8AutoIncrement, .smbusReadI2CBlock(let command, let count)):
            return .readBlock(reg: RegisterAddress(command), count: count)
        case (.reg7Value9, .smbusWriteByteData(let command, let value)):
            return .write(reg: RegisterAddress(command >> 1),
                          value: RegisterValue(command & 1) << 8 | RegisterValue(value))
        case (.reg16Value16, .write(let bytes)) where bytes.count == 4:
            return .write(reg: RegisterAddress(bytes[0]) << 8 | RegisterAddress(bytes[1]),
                          value: RegisterValue(bytes[2]) << 8 | RegisterValue(bytes[3]))
        case (.reg16Value16, .writeThenRead(let bytes, 2)) where bytes.count == 2:
            return .read(reg: RegisterAddress(bytes[0]) << 8 | RegisterAddress(bytes[1]))
        default:
            return nil
        }
    }

    /// The bytes a read of `value` puts on the wire (the twin answers with them).
    func readBytes(of value: RegisterValue) -> [UInt8] {
        switch self {
        case .reg16Value16: [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
        default: [UInt8(truncatingIfNeeded: value)]
        }
    }
}
