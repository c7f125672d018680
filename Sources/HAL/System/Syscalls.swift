#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every system call the firmware makes goes through here: thin wrappers over the C library, one a call, that
/// return what the kernel returned (errno left for the caller) and tell `SystemCallRecorder` about the calls
/// whose order matters for crash safety. apple/swift-system's Internals/Syscalls.swift is the model.
enum Syscalls {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        let descriptor = Glibc.open(path, flags, mode)
        SystemCallRecorder.note(.open(path: path, descriptor: descriptor))
        return descriptor
    }

    static func close(_ descriptor: Int32) -> Int32 {
        SystemCallRecorder.note(.close(descriptor: descriptor))
        return Glibc.close(descriptor)
    }

    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(descriptor, buffer, count)
    }

    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        SystemCallRecorder.note(.write(descriptor: descriptor))
        return Glibc.write(descriptor, buffer, count)
    }

    static func pread(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int64) -> Int {
        Glibc.pread(descriptor, buffer, count, off_t(offset))
    }

    static func pwrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: Int64) -> Int {
        SystemCallRecorder.note(.write(descriptor: descriptor))
        return Glibc.pwrite(descriptor, buffer, count, off_t(offset))
    }

    static func lseek(_ descriptor: Int32, _ offset: Int64, _ whence: Int32) -> Int64 {
        Int64(Glibc.lseek(descriptor, off_t(offset), whence))
    }

    static func ftruncate(_ descriptor: Int32, _ length: Int64) -> Int32 {
        Glibc.ftruncate(descriptor, off_t(length))
    }

    static func fsync(_ descriptor: Int32) -> Int32 {
        SystemCallRecorder.note(.fsync(descriptor: descriptor))
        return Glibc.fsync(descriptor)
    }

    static func fdatasync(_ descriptor: Int32) -> Int32 {
        SystemCallRecorder.note(.fsync(descriptor: descriptor))
        return Glibc.fdatasync(descriptor)
    }

    static func fstat(_ descriptor: Int32, _ info: inout stat) -> Int32 {
        Glibc.fstat(descriptor, &info)
    }

    /// stat(2) (named apart: a member called `stat` would hide the C struct of that name).
    static func statPath(_ path: String, _ info: inout stat) -> Int32 {
        stat(path, &info)
    }

    static func access(_ path: String, _ mode: Int32) -> Int32 {
        Glibc.access(path, mode)
    }

    static func rename(_ from: String, _ to: String) -> Int32 {
        SystemCallRecorder.note(.rename(from: from, to: to))
        return Glibc.rename(from, to)
    }

    static func chmod(_ path: String, _ mode: mode_t) -> Int32 {
        Glibc.chmod(path, mode)
    }

    static func unlink(_ path: String) -> Int32 {
        SystemCallRecorder.note(.unlink(path: path))
        return Glibc.unlink(path)
    }

    static func readlink(_ path: String, _ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        Glibc.readlink(path, buffer, count)
    }

    static func opendir(_ path: String) -> OpaquePointer? {
        Glibc.opendir(path)
    }

    static func readdir(_ stream: OpaquePointer) -> UnsafeMutablePointer<dirent>? {
        Glibc.readdir(stream)
    }

    static func closedir(_ stream: OpaquePointer) -> Int32 {
        Glibc.closedir(stream)
    }

    static func pipe(_ descriptors: inout [Int32]) -> Int32 {
        descriptors.withUnsafeMutableBufferPointer { Glibc.pipe($0.baseAddress!) }
    }

    /// fcntl(2) with an integer argument (F_GETFL/F_SETFL, F_GETFD/F_SETFD).
    static func fcntl(_ descriptor: Int32, _ command: Int32, _ argument: Int32 = 0) -> Int32 {
        Glibc.fcntl(descriptor, command, argument)
    }

    static func poll(_ entries: inout [pollfd], _ timeoutMilliseconds: Int32) -> Int32 {
        Glibc.poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
    }

    /// clock_gettime(CLOCK_MONOTONIC) in nanoseconds.
    static func monotonicNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until `nanoseconds`: an interrupted sleep resumes
    /// towards the same deadline.
    static func sleepUntilMonotonic(nanoseconds: Int64) {
        var ts = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }

    /// mlockall(2)'s flags for a real-time process: MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT.
    static let lockCurrentFutureOnFault = Int32(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)

    static func mlockall(_ flags: Int32) -> Int32 {
        Glibc.mlockall(flags)
    }

    static func munlockall() -> Int32 {
        Glibc.munlockall()
    }

    static func isatty(_ descriptor: Int32) -> Bool {
        Glibc.isatty(descriptor) == 1
    }

    static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    static func getpid() -> Int32 {
        Glibc.getpid()
    }

    static func getenv(_ name: String) -> UnsafeMutablePointer<CChar>? {
        Glibc.getenv(name)
    }
}
