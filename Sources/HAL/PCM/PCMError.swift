#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a PCM stream could not be opened or could not move frames, said so that a person can act on it:
/// `description` names the device and what failed, `hint` what to check or do.
public enum PCMError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No PCM by that name (ALSA: "Unknown PCM", ENOENT), or its card is not there (ENODEV, ENXIO).
    case noSuchDevice(name: String, direction: PCMDirection, errno: Errno, detail: String)
    /// Another stream holds the device (EBUSY); `holders` are the processes the kernel names, if any.
    case busy(name: String, direction: PCMDirection, holders: [PCMHolder])
    /// The device node is not ours to open (EACCES, EPERM).
    case permissionDenied(name: String, direction: PCMDirection, errno: Errno)
    /// The device refuses a parameter; `offered` is what it would accept.
    case refused(name: String, direction: PCMDirection, parameter: PCMParameter, requested: String,
                 offered: PCMCapabilities)
    /// An underrun (playback) or overrun (capture) the caller chose to recover itself (`recover`).
    case xrun(name: String, direction: PCMDirection)
    /// The system suspended the device and it could not be resumed yet.
    case suspended(name: String, direction: PCMDirection)
    /// The device went away while open (unplugged USB, unbound driver): ENODEV during I/O.
    case disconnected(name: String, direction: PCMDirection)
    /// The device cannot do this (pause without hardware support, resume after suspend, ...).
    case unsupported(name: String, operation: String)
    /// The call does not fit the stream's state (e.g. resume when not paused).
    case badState(name: String, operation: String, state: PCMState)
    /// Any other failure of `operation`, with ALSA's own words when it gave some.
    case io(name: String, operation: String, errno: Errno, detail: String)

    /// The parameter a device refused.
    public enum Parameter: String, Hashable, Sendable {
        case access, format, channels, rate, period, buffer
    }

    public var description: String {
        switch self {
        case let .noSuchDevice(name, direction, errno, detail):
            "no \(direction) PCM '\(name)': \(detail.isEmpty ? errno.description : "\(detail) (\(errno.name))")"
        case let .busy(name, direction, holders):
            "\(direction) PCM '\(name)' is busy" + (holders.isEmpty
                ? "" : ", held by " + holders.map(\.description).joined(separator: ", "))
        case let .permissionDenied(name, direction, errno):
            "no permission to open \(direction) PCM '\(name)' (\(errno.name))"
        case let .refused(name, direction, parameter, requested, offered):
            "\(direction) PCM '\(name)' refuses \(parameter.rawValue) \(requested); it offers \(offered)"
        case let .xrun(name, direction):
            "\(direction == .playback ? "underrun" : "overrun") on \(direction) PCM '\(name)'"
        case let .suspended(name, direction):
            "\(direction) PCM '\(name)' is suspended"
        case let .disconnected(name, direction):
            "\(direction) PCM '\(name)' disconnected (ENODEV)"
        case let .unsupported(name, operation):
            "PCM '\(name)' cannot \(operation)"
        case let .badState(name, operation, state):
            "cannot \(operation) PCM '\(name)' while it is \(state)"
        case let .io(name, operation, errno, detail):
            "\(operation) on PCM '\(name)' failed: \(errno)" + (detail.isEmpty ? "" : " (alsa-lib: \(detail))")
        }
    }

    /// What a person can do about it.
    public var hint: String {
        switch self {
        case .noSuchDevice:
            "check the name with `aplay -L` / `arecord -L` (or `aplay -l` for hw:CARD,DEV) and that the card "
                + "appears in /proc/asound/cards; a board file names its PCMs"
        case let .busy(_, _, holders):
            holders.isEmpty
                ? "another program has the device open; stop it (`fuser -v /dev/snd/*`) or use a shared PCM (dmix/dsnoop)"
                : "stop \(holders.map { "\($0.command) (pid \($0.pid))" }.joined(separator: ", ")) or use a shared PCM (dmix/dsnoop)"
        case .permissionDenied:
            "add the user to the 'audio' group (`sudo adduser $USER audio`, then log in again) or run the service with SupplementaryGroups=audio"
        case let .refused(_, _, parameter, _, offered):
            switch parameter {
            case .format: "pick one of: \((offered.formats.map(\.alsaName)).joined(separator: ", ")); or open a plug: PCM that converts"
            case .rate: "pick a rate the device offers, allow the nearest rate, or open a plug: PCM that resamples"
            case .channels: "use \(offered.channels.lowerBound)...\(offered.channels.upperBound) channels, or a plug: PCM that maps channels"
            case .period, .buffer: "choose a period and buffer inside the offered ranges"
            case .access: "the device has no interleaved read/write access; open it through a plug: PCM"
            }
        case .xrun:
            "call recover() and keep the buffer fed: a bigger period count or a real-time render thread helps"
        case .suspended:
            "the system is asleep or waking; retry after it resumes"
        case .disconnected:
            "the device is gone: reconnect it and open it again"
        case .unsupported:
            "this device lacks the feature; stop and restart instead"
        case .badState:
            "check the stream's state before calling; prepare() after a drop"
        case .io:
            "check `dmesg` for driver errors and the device's wiring"
        }
    }

    /// The errno behind the error, where there is one.
    public var errno: Errno? {
        switch self {
        case let .noSuchDevice(_, _, errno, _), let .permissionDenied(_, _, errno), let .io(_, _, errno, _): errno
        case .busy: .busy
        case .refused: .invalidArgument
        case .xrun: .brokenPipe
        case .suspended: .streamsPipe
        case .disconnected: .noDevice
        case .unsupported: .notImplemented
        case .badState: Errno(EBADFD)
        }
    }
}

public typealias PCMParameter = PCMError.Parameter
