/// One transfer as i2c-dev is asked to carry it: an SMBus call where the layout allows one (SMBus-only
/// adapters and i2c-stub understand nothing else), plain I2C messages (I2C_RDWR) where it does not.
///
/// The description uses `i2ctransfer`'s notation for the bytes on the wire, so a trace line can be
/// replayed by hand: `i2ctransfer -y 1 w2@0x1a 0x1e 0x00`.
public enum I2CWireTransfer: Hashable, Sendable, CustomStringConvertible {
    /// SMBus write byte data: `S addr+W command value P`.
    case smbusWriteByteData(command: UInt8, value: UInt8)
    /// SMBus read byte data: `S addr+W command Sr addr+R [value] P`.
    case smbusReadByteData(command: UInt8)
    /// SMBus I2C block read: `S addr+W command Sr addr+R [count bytes] P`, count 1...32.
    case smbusReadI2CBlock(command: UInt8, count: Int)
    /// One I2C write message.
    case write([UInt8])
    /// An I2C write message, a repeated start, and a read message of `count` bytes.
    case writeThenRead([UInt8], count: Int)

    /// The bytes the controller sends after the address.
    public var bytesWritten: [UInt8] {
        switch self {
        case .smbusWriteByteData(let command, let value): [command, value]
        case .smbusReadByteData(let command): [command]
        case .smbusReadI2CBlock(let command, _): [command]
        case .write(let bytes): bytes
        case .writeThenRead(let bytes, _): bytes
        }
    }

    /// How many bytes the device sends back after the repeated start.
    public var bytesRead: Int {
        switch self {
        case .smbusWriteByteData, .write: 0
        case .smbusReadByteData: 1
        case .smbusReadI2CBlock(_, let count): count
        case .writeThenRead(_, let count): count
        }
    }

    /// `w2 0x1e 0x00`, or `w1 0x10 r4` for a write followed by a read.
    public var description: String { arguments(at: "") }

    /// The arguments of `i2ctransfer -y N` that repeat this transfer: `w2@0x1a 0x1e 0x00`.
    public func description(address: I2CAddress) -> String { arguments(at: "@\(address)") }

    private func arguments(at address: String) -> String {
        let written = bytesWritten
        var text = "w\(written.count)\(address) " + I2CHex.bytes(written)
        if bytesRead > 0 { text += " r\(bytesRead)" }
        return text
    }
}
