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
    public static let exists = Errno(EEXIST)
    public static let isDirectory = Errno(EISDIR)
    public static let notDirectory = Errno(ENOTDIR)
    public static let noSpace = Errno(ENOSPC)
    public static let readOnlyFileSystem = Errno(EROFS)
    public static let crossDevice = Errno(EXDEV)
    public static let badDescriptor = Errno(EBADF)
    public static let fileTooLarge = Errno(EFBIG)
    public static let outOfMemory = Errno(ENOMEM)
    public static let nameTooLong = Errno(ENAMETOOLONG)
    public static let tooManyLinks = Errno(ELOOP)

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
        case EEXIST: "EEXIST"
        case EISDIR: "EISDIR"
        case ENOTDIR: "ENOTDIR"
        case ENOSPC: "ENOSPC"
        case EROFS: "EROFS"
        case EXDEV: "EXDEV"
        case EBADF: "EBADF"
        case EFBIG: "EFBIG"
        case ENOMEM: "ENOMEM"
        case EMFILE: "EMFILE"
        case EDQUOT: "EDQUOT"
        case ENAMETOOLONG: "ENAMETOOLONG"
        default: "errno \(rawValue)"
        }
    }

    /// The C library's message for this error.
    public var message: String { String(cString: strerror(rawValue)) }

    public var description: String { "\(message) (\(name))" }

    /// What a person can check for this error, when the number alone says it; "" when it does not.
    public var hint: String {
        switch rawValue {
        case ENOENT: "check that the path and its directories exist"
        case EACCES, EPERM: "check the permissions (owner, mode, group membership such as audio, gpio or i2c)"
        case EEXIST: "something is already there: remove it or choose another name"
        case EISDIR: "the path names a directory: give a file name"
        case ENOTDIR: "a part of the path is not a directory"
        case ENOSPC, EDQUOT: "the storage is full: free some space"
        case EROFS: "the file system is mounted read-only"
        case EXDEV: "the two paths are on different file systems"
        case EBUSY: "another process holds it: see who with fuser or lsof"
        case ENODEV, ENXIO: "the device is missing: check the overlay, the wiring and the address"
        case EMFILE: "too many open files: something leaks descriptors"
        case ENAMETOOLONG: "the path is too long"
        case ENOMEM: "out of memory, or over the locked-memory limit (ulimit -l; LimitMEMLOCK= in the unit)"
        case EIO: "the device or storage reported an I/O error: check the card and the kernel log"
        default: ""
        }
    }
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
