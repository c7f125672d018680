/// How often a transfer is tried before its error reaches the driver, and how long to wait in between.
///
/// A codec can miss an acknowledge while its supplies or master clock settle, and a shared bus can lose
/// arbitration; both clear within milliseconds. Errors retrying cannot fix (permissions, an unsupported
/// transfer) fail at once.
public struct I2CRetryPolicy: Sendable {
    /// Tries per transfer, at least 1.
    public var attempts: Int
    /// The wait between tries.
    public var delay: Duration
    /// The clock the wait runs on (a simulated bus runs on simulated time).
    public var clock: any MonotonicClock

    public init(attempts: Int = 3, delay: Duration = .milliseconds(2), clock: any MonotonicClock = SystemClock.shared) {
        precondition(attempts >= 1, "a transfer is tried at least once")
        self.attempts = attempts
        self.delay = delay
        self.clock = clock
    }

    /// Three tries, 2 ms apart, on the system clock.
    public static var standard: I2CRetryPolicy { I2CRetryPolicy() }

    /// One try: errors reach the caller at once.
    public static var never: I2CRetryPolicy { I2CRetryPolicy(attempts: 1, delay: .zero) }

    /// Whether another try may succeed: no acknowledge (ENXIO, EREMOTEIO), a bus error (EIO), lost
    /// arbitration (EAGAIN) or a bus timeout (ETIMEDOUT).
    public static func isTransient(_ error: Errno) -> Bool {
        switch error {
        case .remoteIO, .noSuchDeviceOrAddress, .io, .wouldBlock, .timedOut: true
        default: false
        }
    }
}
