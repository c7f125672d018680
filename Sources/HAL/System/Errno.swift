#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An error number from a system call or a C library (ALSA returns `-errno`), with its symbolic name and
/// the C library's message. Device errors wrap it with what was being done and a hint a person can act on.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, right after a failed call.
    public static var current: Errno { Errno(errno) }

    public static let notPermitted = Errno(EPERM)
    public static let noSuchFile = Errno(ENOENT)
    public static let interrupted = Errno(EINTR)
    public static let io = Errno(EIO)
    public static let noSuchDeviceOrAddress = Errno(ENXIO)
    public static let wouldBlock = Errno(EAGAIN)
    public static let permissionDenied = Errno(EACCES)
    public static let busy = Errno(EBUSY)
    public static let noDevice = Errno(ENODEV)
    public static let invalidArgument = Errno(EINVAL)
    public static let brokenPipe = Errno(EPIPE)        // ALSA: an underrun or overrun
    public static let notImplemented = Errno(ENOSYS)
    public static let streamsPipe = Errno(ESTRPIPE)    // ALSA: suspended
    public static let timedOut = Errno(ETIMEDOUT)
    public static let remoteIO = Errno(EREMOTEIO)      // I2C: no acknowledge from the device

    /// The symbolic name (`EBUSY`), or `errno N` for one without a name here.
    public var name: String {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EAGAIN: "EAGAIN"
        case EACCES: "EACCES"
        case EBUSY: "EBUSY"
        case ENODEV: "ENODEV"
        case EINVAL: "EINVAL"
        case EPIPE: "EPIPE"
        case ENOSYS: "ENOSYS"
        case ESTRPIPE: "ESTRPIPE"
        case ETIMEDOUT: "ETIMEDOUT"
        case EREMOTEIO: "EREMOTEIO"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case ENOTTY: "ENOTTY"
        default: "errno \(rawValue)"
        }
    }

    /// The C library's message for this error.
    public var message: String { String(cString: strerror(rawValue)) }

    public var description: String { "\(message) (\(name))" }
}

/// Runs a system call until it does not fail with `EINTR`; returns its result or throws its `errno`.
@discardableResult
func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}
