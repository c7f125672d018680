/// A descriptor someone else owns (standard input and output, a `Terminal`'s device), read and written
/// whole, never closed here. `FileDescriptor` is the owner's type; this one only borrows the number.
public struct StreamDescriptor: Hashable, Sendable {
    public let rawValue: Int32
    /// Names it in messages ("standard input", "/dev/ttyAMA0").
    public let name: String

    public init(_ rawValue: Int32, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    /// What is there, up to `limit` bytes (blocks if nothing is: poll first); empty at the end of input.
    public func read(limit: Int = 4096) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        let count = try retrying("read", name) {
            bytes.withUnsafeMutableBytes { Syscalls.read(rawValue, $0.baseAddress, $0.count) }
        }
        bytes.removeLast(limit - count)
        return bytes
    }

    /// Writes all of `bytes`, retrying after signals.
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            done += try retrying("write", name) {
                bytes.withUnsafeBytes { Syscalls.write(rawValue, $0.baseAddress! + done, $0.count - done) }
            }
        }
    }

    public var isTerminal: Bool { Syscalls.isatty(rawValue) }
}
