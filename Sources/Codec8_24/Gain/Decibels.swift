import RealModule

/// Conversions between decibels and linear gain. Control-path only: these use `Double` math and are called
/// when a setting changes, never per sample.
public enum Decibels {
    /// Gains at or below this many dB are treated as silence (the linear value 0).
    public static let silenceFloor: Double = -144.0

    /// `10^(dB/20)`; `silenceFloor` and below give exactly 0.
    @inlinable
    public static func linear(_ decibels: Double) -> Double {
        decibels <= silenceFloor ? 0 : Double.exp10(decibels / 20)
    }

    /// `20·log10(linear)`; 0 and below give `silenceFloor`.
    @inlinable
    public static func decibels(_ linear: Double) -> Double {
        linear <= 0 ? silenceFloor : Swift.max(silenceFloor, 20 * Double.log10(linear))
    }

    /// A gain in dB as an 8.24 multiplier, saturated at the format's +42 dB ceiling.
    @inlinable
    public static func gain(_ decibels: Double) -> Fixed824 { Fixed824(linear(decibels)) }

    /// An 8.24 gain in dB.
    @inlinable
    public static func decibels(_ gain: Fixed824) -> Double { decibels(gain.doubleValue) }
}
