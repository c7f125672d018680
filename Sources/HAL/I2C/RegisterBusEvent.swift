/// One transfer as the simulated chip saw it, with its outcome: the unit of a trace. Tests compare a bus's
/// trace with a golden one (`[.write(reg: 0x0F, value: 0x000), ...]`).
public enum RegisterBusEvent: Hashable, Sendable, CustomStringConvertible {
    /// An acknowledged write.
    case write(reg: RegisterAddress, value: RegisterValue)
    /// An acknowledged read and the value the chip returned.
    case read(reg: RegisterAddress, value: RegisterValue)
    /// An acknowledged block read and the bytes the chip returned.
    case readBlock(reg: RegisterAddress, bytes: [UInt8])
    /// A transfer that failed on the bus: `.remoteIO` is a missing acknowledge.
    case failed(RegisterTransfer, Errno)
    /// A transfer the register map refused.
    case rejected(RegisterTransfer, RegisterMapViolation)

    /// The same event with its register moved up by `base` (a paged chip's page start: wire register to
    /// virtual register).
    func moved(by base: RegisterAddress) -> RegisterBusEvent {
        switch self {
        case .write(let reg, let value): .write(reg: reg + base, value: value)
        case .read(let reg, let value): .read(reg: reg + base, value: value)
        case .readBlock(let reg, let bytes): .readBlock(reg: reg + base, bytes: bytes)
        case .failed(let transfer, let error): .failed(transfer.addressed(to: transfer.register + base), error)
        case .rejected(let transfer, let violation): .rejected(transfer.addressed(to: transfer.register + base), violation)
        }
    }

    public var description: String { description(valueBits: 16, registerBits: 16) }

    /// `write 0x0F = 0x000`, `read 0x00 -> 0x5A`, `read block 0x10 -> 01 02`, `NACK write of ...`, with
    /// as many hex digits as the layout's registers and values have.
    public func description(in layout: RegisterLayout) -> String {
        description(valueBits: layout.valueBits, registerBits: layout.registerBits)
    }

    private func description(valueBits: Int, registerBits: Int) -> String {
        switch self {
        case .write(let reg, let value):
            "write " + I2CHex.register(reg, bits: registerBits) + " = " + I2CHex.value(value, bits: valueBits)
        case .read(let reg, let value):
            "read " + I2CHex.register(reg, bits: registerBits) + " -> " + I2CHex.value(value, bits: valueBits)
        case .readBlock(let reg, let bytes):
            "read block " + I2CHex.register(reg, bits: registerBits) + " -> "
                + bytes.map { I2CHex.uppercase($0, digits: 2) }.joined(separator: " ")
        case .failed(let transfer, let error):
            (error == .remoteIO ? "NACK " : "\(error.name) ") + transfer.description
        case .rejected(let transfer, let violation):
            "rejected \(transfer): \(violation)"
        }
    }
}
