import Foundation
import Glibc
import PseudoTerminal

/// A pseudo-terminal for tests that drive a console as a person at a terminal would: the program under test
/// gets the device side (`devicePath`, or a descriptor from `openDevice()`) as its terminal; the test types
/// into the controller side and reads what the program writes, line by line, with a timeout.
///
/// The kernel's line discipline sits between the two: the device side starts in canonical mode with echo
/// and `\n` -> `\r\n` on output (termios(3)); a program that sets raw mode (libedit does) changes that.
/// Lines read here have their `\r` removed.
///
///     let pty = try PseudoTerminalPair()
///     let device = try pty.openDevice()        // hand it to the program (stdin/stdout, or a path)
///     try pty.type("status\n")
///     let reply = try pty.read(until: "OK\r\n", timeout: .seconds(5))
public final class PseudoTerminalPair: @unchecked Sendable {
    /// The controller (master) side: what the test writes is "typed", what it reads was "printed".
    public let controller: Int32
    /// The device (subordinate) side's path, /dev/pts/N.
    public let devicePath: String
    private var pending: [UInt8] = []
    private var opened: [Int32] = []
    private var closed = false

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        var path = [CChar](repeating: 0, count: 128)
        let descriptor = pseudo_terminal_open(&path, path.count)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(-descriptor)))"
                          + " (under qemu-user: QEMU_LD_PREFIX must not have its own dev/)")
        }
        controller = descriptor
        devicePath = path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { close() }

    /// Opens the device side (O_RDWR, O_NOCTTY, close-on-exec); the pair closes it with itself.
    public func openDevice() throws -> Int32 {
        let descriptor = Glibc.open(devicePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot open \(devicePath): \(String(cString: strerror(errno)))")
        }
        opened.append(descriptor)
        return descriptor
    }

    /// Closes the device descriptors `openDevice` gave and the controller. After this, a program that still
    /// has the device open reads end of file / gets SIGHUP's EIO.
    public func close() {
        guard !closed else { return }
        closed = true
        for descriptor in opened { _ = Glibc.close(descriptor) }
        _ = Glibc.close(controller)
    }

    /// Types `text` (bytes as they are: "\u{1B}[D" is the left-arrow key, "\u{7F}" backspace).
    public func type(_ text: String) throws { try type(Array(text.utf8)) }

    public func type(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(controller, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot type into \(devicePath): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The next line the program wrote, without its `\r\n`; nil if none is complete within `timeout`
    /// (a partial line stays pending for the next read).
    public func readLine(timeout: Duration) throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[..<newline].filter { $0 != UInt8(ascii: "\r") }
                pending.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill(until: deadline) else { return nil }
        }
    }

    /// Everything the program wrote up to and including `marker`, as text (with any `\r` left in, escape
    /// sequences too); throws, with what did arrive, if `marker` has not come within `timeout`.
    public func read(until marker: String, timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        let needle = Array(marker.utf8)
        while true {
            if let end = Self.find(needle, in: pending) {
                let text = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(..<end)
                return text
            }
            guard try fill(until: deadline) else {
                throw Failure(description: "no \(marker.debugDescription) within \(timeout); got "
                              + String(decoding: pending, as: UTF8.self).debugDescription)
            }
        }
    }

    /// What has arrived and not been read yet, waiting up to `timeout` for more to stop coming.
    public func drain(quietFor timeout: Duration) throws -> String {
        while try fill(until: ContinuousClock.now + timeout) {}
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Waits for output until `deadline`; false on timeout or when the device side is closed (EIO).
    private func fill(until deadline: ContinuousClock.Instant) throws -> Bool {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return false }
        var entry = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
        let ready = poll(&entry, 1, milliseconds)
        if ready < 0 && errno == EINTR { return true }
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(controller, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { return true }
        guard count > 0 else { return false }   // EIO: every device descriptor is closed
        pending += buffer[..<count]
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start + needle.count
        }
        return nil
    }
}
