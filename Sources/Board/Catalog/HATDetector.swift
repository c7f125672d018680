/// Reads which HAT is on the header from the device tree, where the Raspberry Pi firmware copies the HAT ID
/// EEPROM's strings: `<root>/proc/device-tree/hat/vendor` and `.../product`, NUL-terminated.
public struct HATDetector: Sendable {
    /// `/` on a board; a temporary directory in tests.
    public var root: String

    public init(root: String = "/") {
        self.root = root
    }

    /// The HAT's identity, or nil when there is no HAT EEPROM (or no device tree).
    public func identity() -> HATIdentity? {
        let base = root.hasSuffix("/") ? root : root + "/"
        guard let vendor = try? BoardFiles.read(base + "proc/device-tree/hat/vendor"),
              let product = try? BoardFiles.read(base + "proc/device-tree/hat/product") else { return nil }
        return HATIdentity(vendor: Self.clean(vendor), product: Self.clean(product))
    }

    /// The string up to its first NUL.
    static func clean(_ text: String) -> String {
        String(text.prefix { $0 != "\0" })
    }
}
