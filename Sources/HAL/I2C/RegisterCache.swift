/// The driver's copy of a chip's registers, for chips that cannot be read back (WM8960, WM8731) and to
/// spare reads on those that can: read-modify-write of a bit field then costs one write.
///
/// Non-volatile registers are answered from the cache (seeded with reset values); volatile ones (status,
/// jack detect) always go to the bus. Writes go to the bus first and reach the cache only when acknowledged,
/// so after an error the cache still holds what the chip last accepted. Used on one control thread.
public final class RegisterCache {
    public let bus: any RegisterBus
    private let defaults: [RegisterAddress: RegisterValue]
    private let volatile: Set<RegisterAddress>
    private var values: [RegisterAddress: RegisterValue]

    /// A cache in front of `bus`, holding `defaults` (the chip's reset values) until written.
    public init(bus: any RegisterBus, defaults: [RegisterAddress: RegisterValue],
                volatile: Set<RegisterAddress> = []) {
        self.bus = bus
        self.defaults = defaults.filter { !volatile.contains($0.key) }
        self.volatile = volatile
        values = self.defaults
    }

    /// A cache seeded from a register map's reset values and volatile flags.
    public convenience init(bus: any RegisterBus, map: RegisterMap) {
        self.init(bus: bus, defaults: map.resetValues, volatile: map.volatileRegisters)
    }

    /// The cached value, without a transfer (nil for volatile or not yet known registers).
    public func cachedValue(_ register: RegisterAddress) -> RegisterValue? { values[register] }

    /// A register's value: from the cache when it holds one, else read from the chip (and cached unless
    /// volatile). Throws `.notReadable` for an unknown register of a write-only chip.
    public func read(_ register: RegisterAddress) throws(I2CError) -> RegisterValue {
        try fetch(register).value
    }

    /// Writes a register on the chip, then remembers it. Returns the exchanges the write took.
    @discardableResult
    public func write(_ register: RegisterAddress, _ value: RegisterValue) throws(I2CError) -> [RegisterBusExchange] {
        let reply = try bus.perform(.write(reg: register, value: value))
        if !volatile.contains(register) { values[register] = value }
        return reply.exchanges
    }

    /// Sets the bits of `mask` to those of `value` and leaves the others: `new = old & ~mask | value & mask`.
    /// Writes only when the register changes. Returns whether it wrote, with the exchanges it took (a read
    /// of a register the cache does not hold, then the write).
    @discardableResult
    public func update(_ register: RegisterAddress, mask: RegisterValue,
                       value: RegisterValue) throws(I2CError) -> RegisterUpdate {
        let (old, exchanges) = try fetch(register)
        let new = (old & ~mask) | (value & mask)
        if new == old { return RegisterUpdate(wrote: false, exchanges: exchanges) }
        return RegisterUpdate(wrote: true, exchanges: exchanges + (try write(register, new)))
    }

    /// The value from the cache, or from the chip with the exchanges its read took.
    private func fetch(_ register: RegisterAddress) throws(I2CError) -> (value: RegisterValue, exchanges: [RegisterBusExchange]) {
        if let value = values[register] { return (value, []) }
        let reply = try bus.perform(.read(reg: register))
        let value = bus.layout.value(fromReadBytes: reply.bytes)
        if !volatile.contains(register) { values[register] = value }
        return (value, reply.exchanges)
    }

    /// Forgets every write: call after the chip was reset (power-on, a soft-reset register).
    public func resetToDefaults() { values = defaults }
}

/// What `RegisterCache.update` did: whether the register changed (and was written), and the exchanges.
public struct RegisterUpdate: Hashable, Sendable {
    public var wrote: Bool
    public var exchanges: [RegisterBusExchange]
}
