#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe whose two ends live and die together: for waking a thread that sleeps in `poll` (a byte per wake)
/// or for handing lines from handler threads to the thread that prints them. A final class so that senders
/// on other threads can share it; writes of up to PIPE_BUF bytes are atomic (pipe(7)).
public final class Pipe: @unchecked Sendable {
    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    /// A close-on-exec pipe; `nonBlocking` makes a full pipe drop a send and an empty one read 0 bytes.
    public init(nonBlocking: Bool) throws(SystemError) {
        var descriptors: [Int32] = [-1, -1]
        guard Syscalls.pipe(&descriptors) == 0 else { throw SystemError.current("make a pipe", path: "pipe") }
        readEnd = FileDescriptor(adopting: descriptors[0], path: "pipe (read end)")
        writeEnd = FileDescriptor(adopting: descriptors[1], path: "pipe (write end)")
        for descriptor in descriptors {
            _ = Syscalls.fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = Syscalls.fcntl(descriptor, F_SETFL, Syscalls.fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        }
    }

    /// The read end's number, for a `poll` set.
    public var readDescriptor: Int32 { readEnd.rawValue }

    /// Sends `bytes`; on a non-blocking pipe that is full they are dropped (a wake-up is pending anyway).
    public func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { try writeEnd.write(buffer) } catch {}
        }
    }

    /// Reads what is there, up to `limit` bytes; empty when nothing is (non-blocking) or the pipe is broken.
    public func receive(limit: Int = 4096) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        let count = bytes.withUnsafeMutableBytes { buffer in
            do throws(SystemError) { return try readEnd.read(into: buffer) } catch { return 0 }
        }
        bytes.removeLast(limit - count)
        return bytes
    }

    /// Empties a non-blocking pipe.
    public func drain() {
        while !receive(limit: 64).isEmpty {}
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) until there is something to read.
    public func waitForInput(timeoutMilliseconds: Int32) -> Bool {
        var entries = [pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)]
        return ((try? Poll.wait(&entries, timeoutMilliseconds: timeoutMilliseconds)) ?? 0) > 0
    }
}
