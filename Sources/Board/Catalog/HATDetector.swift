import HAL

/// Reads which HAT is on the header from the device tree, where the Raspberry Pi firmware copies the HAT ID
/// EEPROM's strings: `<root>/proc/device-tree/hat/vendor` and `.../product`, NUL-terminated.
public struct HATDetector: Sendable {
    /// `/` on a board; a temporary directory in tests.
    public var root: String

    public init(root: String = "/") {
        self.root = root
    }

    /// The running device tree: `<root>/proc/device-tree`.
    var deviceTree: String { (root.hasSuffix("/") ? root : root + "/") + "proc/device-tree" }

    /// The HAT's identity, or nil when there is no HAT EEPROM (or no device tree).
    public func identity() -> HATIdentity? {
        guard let vendor = try? BoardFiles.read(deviceTree + "/hat/vendor"),
              let product = try? BoardFiles.read(deviceTree + "/hat/product") else { return nil }
        return HATIdentity(vendor: Self.clean(vendor), product: Self.clean(product))
    }

    /// Whether the running device tree has a node `name` at its root (an overlay's, say); nil off a board, where
    /// there is no device tree to ask.
    public func deviceTreeHasNode(_ name: String) -> Bool? {
        guard FileStatus.of(deviceTree) != nil else { return nil }
        return FileStatus.of(deviceTree + "/" + name) != nil
    }

    /// The string up to its first NUL.
    static func clean(_ text: String) -> String {
        String(text.prefix { $0 != "\0" })
    }
}
