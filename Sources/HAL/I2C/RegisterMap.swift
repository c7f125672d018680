/// Who may read and write a register.
public enum RegisterAccess: Hashable, Sendable {
    case readWrite
    /// Status, chip ID: writes are refused.
    case readOnly
    /// Command or reset registers: reads are refused.
    case writeOnly
}

/// One register of a chip, as its datasheet lists it.
public struct RegisterDefinition: Hashable, Sendable {
    public var address: RegisterAddress
    public var name: String
    /// Bits the register holds (at most the layout's value width).
    public var width: Int
    /// The value after power-on or soft reset.
    public var reset: RegisterValue
    public var access: RegisterAccess
    /// The chip changes it by itself (status, jack detect), so a cache must not answer for it.
    public var isVolatile: Bool
    /// Its named bit fields, most significant first (empty: shown as one value).
    public var fields: [RegisterField]

    public init(_ address: RegisterAddress, _ name: String = "", width: Int, reset: RegisterValue = 0,
                access: RegisterAccess = .readWrite, volatile: Bool = false, fields: [RegisterField] = []) {
        precondition(width >= 1 && width <= 16, "a register holds 1...16 bits")
        precondition(reset >> width == 0, "reset value wider than the register")
        precondition(fields.allSatisfy { $0.lowBit + $0.width <= width }, "a field lies outside the register")
        self.address = address
        self.fields = fields
        self.name = name
        self.width = width
        self.reset = reset
        self.access = access
        self.isVolatile = volatile
    }

    /// `DACMU=1 DEEMPH=0b00`: the named fields of `value`, most significant first.
    public func describeFields(_ value: RegisterValue) -> String {
        fields.sorted { $0.lowBit > $1.lowBit }.map { $0.describe(value) }.joined(separator: " ")
    }
}

/// Which registers a chip has, as data: the simulated chip enforces it and `RegisterCache` takes its
/// reset values and volatile set from it.
public struct RegisterMap: Hashable, Sendable {
    public let definitions: [RegisterAddress: RegisterDefinition]

    public init(_ registers: [RegisterDefinition]) {
        var definitions: [RegisterAddress: RegisterDefinition] = [:]
        for register in registers {
            precondition(definitions[register.address] == nil,
                         "register \(I2CHex.register(register.address)) defined twice")
            definitions[register.address] = register
        }
        self.definitions = definitions
    }

    public subscript(address: RegisterAddress) -> RegisterDefinition? { definitions[address] }

    /// Every register's value after reset.
    public var resetValues: [RegisterAddress: RegisterValue] { definitions.mapValues(\.reset) }

    /// The registers the chip changes by itself.
    public var volatileRegisters: Set<RegisterAddress> {
        Set(definitions.values.lazy.filter(\.isVolatile).map(\.address))
    }

    /// The register addresses in ascending order.
    public var addresses: [RegisterAddress] { definitions.keys.sorted() }
}
