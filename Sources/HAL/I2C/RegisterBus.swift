/// A codec's control port: registers read and written over I2C in the chip's `RegisterLayout`.
///
/// Two implementations behave alike, errors included: `I2CRegisterBus` on `/dev/i2c-N`, and
/// `SimulatedRegisterBus`, which models the chip's registers and records every transfer. Both validate
/// arguments before any byte goes out, retry NACKs and bus errors a bounded number of times, and throw
/// `I2CError`s naming the bus, the address and the register. Used on control threads only (each call
/// blocks for a transfer, plus retry delays).
public protocol RegisterBus: AnyObject, Sendable {
    /// The bus and address the chip answers on.
    var target: I2CTarget { get }
    /// How the chip lays out registers and values.
    var layout: RegisterLayout { get }

    /// Carries out one transfer and returns the bytes read with every exchange it took on the wire.
    /// Throws `.notReadable` for a read on a write-only layout (7+9); a block read (auto-increment layouts
    /// only) goes out in transfers of at most 32 bytes.
    func perform(_ transfer: RegisterTransfer) throws(I2CError) -> RegisterBusReply

    /// Transfers tried again after a transient failure since the bus was opened (`stats`).
    var retryCount: Int { get }
}

extension RegisterBus {
    /// A bus that does not count retries says none.
    public var retryCount: Int { 0 }

    /// Reads one register.
    public func read(_ register: RegisterAddress) throws(I2CError) -> RegisterValue {
        layout.value(fromReadBytes: try perform(.read(reg: register)).bytes)
    }

    /// Writes one register.
    public func write(_ register: RegisterAddress, _ value: RegisterValue) throws(I2CError) {
        _ = try perform(.write(reg: register, value: value))
    }

    /// Reads `count` consecutive 8-bit registers from `register` (auto-increment layouts only).
    public func readBlock(from register: RegisterAddress, count: Int) throws(I2CError) -> [UInt8] {
        try perform(.readBlock(reg: register, count: count)).bytes
    }
}
