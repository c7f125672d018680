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

    /// Reads one register. Throws `.notReadable` on a write-only layout (7+9).
    func read(_ register: RegisterAddress) throws(I2CError) -> RegisterValue

    /// Writes one register.
    func write(_ register: RegisterAddress, _ value: RegisterValue) throws(I2CError)

    /// Reads `count` consecutive 8-bit registers from `register` (auto-increment layouts only), in
    /// transfers of at most 32 bytes.
    func readBlock(from register: RegisterAddress, count: Int) throws(I2CError) -> [UInt8]
}
