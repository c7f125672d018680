/// One channel's history in one Direct Form I stage: the last two inputs and outputs, in the cascade's
/// wide internal format (Q15.48 in an `Int64`, see `BiquadCascade`).
///
/// Keeping 48 fractional bits (24 more than 8.24) in the feedback path is what keeps low-frequency stages
/// accurate: the rounding error re-enters through `1/A(z)`, whose gain near a 31 Hz pole at 96 kHz is about
/// 80 dB, so with 8.24 state it would reach several LSBs; at 2⁻⁴⁸ it stays far below one.
@frozen
public struct BiquadState: Equatable, Sendable {
    public var x1: Int64
    public var x2: Int64
    public var y1: Int64
    public var y2: Int64

    @inlinable
    public init(x1: Int64 = 0, x2: Int64 = 0, y1: Int64 = 0, y2: Int64 = 0) {
        self.x1 = x1
        self.x2 = x2
        self.y1 = y1
        self.y2 = y2
    }

    public static let zero = BiquadState()
}
