/// How a board recognises its HAT: the vendor and product strings of the HAT's ID EEPROM, which the firmware
/// copies to /proc/device-tree/hat/vendor and .../product. Both must match exactly.
public struct HATMatch: Hashable, Sendable {
    public var vendor: String
    public var product: String

    public init(vendor: String, product: String) {
        self.vendor = vendor
        self.product = product
    }

    public func matches(_ identity: HATIdentity) -> Bool {
        identity.vendor == vendor && identity.product == product
    }
}

/// What a HAT's EEPROM says it is (trailing NULs removed).
public struct HATIdentity: Hashable, Sendable, CustomStringConvertible {
    public var vendor: String
    public var product: String

    public init(vendor: String, product: String) {
        self.vendor = vendor
        self.product = product
    }

    public var description: String { "\(vendor) \(product)" }
}
