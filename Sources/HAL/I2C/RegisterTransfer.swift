/// What a driver asked the register bus to do, in register terms: the unit of retries, errors and traces.
public enum RegisterTransfer: Hashable, Sendable, CustomStringConvertible {
    case write(reg: RegisterAddress, value: RegisterValue)
    case read(reg: RegisterAddress)
    /// `count` consecutive registers from `reg` (auto-increment).
    case readBlock(reg: RegisterAddress, count: Int)

    /// The (first) register the transfer addresses.
    public var register: RegisterAddress {
        switch self {
        case .write(let reg, _), .read(let reg), .readBlock(let reg, _): reg
        }
    }

    /// The same transfer addressed to `register` (a paged chip's wire register for a virtual one).
    func addressed(to register: RegisterAddress) -> RegisterTransfer {
        switch self {
        case .write(_, let value): .write(reg: register, value: value)
        case .read: .read(reg: register)
        case .readBlock(_, let count): .readBlock(reg: register, count: count)
        }
    }

    /// The registers the transfer touches.
    public var registers: ClosedRange<Int> {
        switch self {
        case .write(let reg, _), .read(let reg): Int(reg)...Int(reg)
        case .readBlock(let reg, let count): Int(reg)...(Int(reg) + max(count, 1) - 1)
        }
    }

    /// `write of 0x1FF to register 0x0F`, `read of register 0x00`, `read of 4 registers from 0x10`.
    public var description: String {
        switch self {
        case .write(let reg, let value):
            "write of 0x" + I2CHex.uppercase(value, digits: 2) + " to register " + I2CHex.register(reg)
        case .read(let reg):
            "read of register " + I2CHex.register(reg)
        case .readBlock(let reg, let count):
            "read of \(count) registers from " + I2CHex.register(reg)
        }
    }
}
