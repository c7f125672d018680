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
        if let value = values[register] { return value }
        let value = try bus.read(register)
        if !volatile.contains(register) { values[register] = value }
        return value
    }

    /// Writes a register on the chip, then remembers it.
    public func write(_ register: RegisterAddress, _ value: RegisterValue) throws(I2CError) {
        try bus.write(register, value)
        if !volatile.contains(register) { values[register] = value }
    }

    /// Sets the bits of `mask` to those of `value` and leaves the others: `new = old & ~mask | value & mask`.
    /// Writes only when the register changes. Returns whether it wrote.
    @discardableResult
    public func update(_ register: RegisterAddress, mask: RegisterValue, value: RegisterValue) throws(I2CError) -> Bool {
        let old = try read(register)
        let new = (old & ~mask) | (value & mask)
        if new == old { return false }
        try write(register, new)
        return true
    }

    /// Forgets every write: call after the chip was reset (power-on, a soft-reset register).
    public func resetToDefaults() { values = defaults }
}
