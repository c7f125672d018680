/// A gain that moves to a new value over a given number of frames instead of jumping, so volume changes,
/// mutes and input enables never click.
///
/// The ramp yields one gain per frame (`nextGain()`), the same for every channel of that frame. A ramp of
/// N frames gives the gains g[1] ... g[N] to the next N frames, with g[N] exactly the target; after that the
/// gain stays at the target. `gain` is always the gain of the most recent frame, and a retarget (`ramp(to:)`
/// during a ramp) starts from it, so a change in mid-buffer or mid-ramp never makes a step.
///
/// Shapes:
/// - `.linear`: g[k] = start + (target − start)·k/N, a constant increment per frame.
/// - `.exponential`: g[k] = start·(target/start)^(k/N), a constant number of dB per frame: the gain is
///   multiplied every frame by one fixed ratio (integer log2/exp2, see `FixedLog2`, so the ramp is
///   bit-identical on every platform). Silence has no dB value, so an endpoint below `exponentialFloor`
///   (2^-16, −96.3 dB) is replaced by the floor: a fade to 0 falls exponentially to the floor and its last
///   frame snaps to 0 (a step from just above the floor, about 256 LSB); a fade in from 0 starts at the
///   floor. When both endpoints are at or below the floor the ramp is linear.
///
/// Precision: the gain is held in Q.48 (8.24 with 24 more fraction bits) so long, slow ramps do not drift;
/// each frame's gain is that value rounded to 8.24. Gains are 0 ... `Fixed824.max` (+42 dB); negative
/// targets are treated as 0.
///
/// Mute is a ramp to 0 that remembers the gain to return to (see `mute(frames:shape:)`).
@frozen
public struct GainRamp: Sendable, Equatable {
    /// How the gain travels between its endpoints.
    public enum Shape: Sendable, Equatable {
        case linear
        case exponential
    }

    /// Extra fraction bits of the internal gain beyond 8.24.
    @usableFromInline static let extraBits: UInt64 = 24

    /// The smallest gain an exponential ramp travels through: 2^-16 (about −96.3 dB), raw 8.24 value 256.
    public static let exponentialFloor = Fixed824(raw: 1 << 8)

    /// The current gain in Q.48.
    @usableFromInline var level: UInt64
    /// The ramp's final gain in Q.48 (exactly `target.raw << 24`).
    @usableFromInline var finalLevel: UInt64
    /// Frames left in the current ramp; 0 when settled.
    @usableFromInline var remaining: Int
    /// Whether the ramp in progress is exponential.
    @usableFromInline var isExponential: Bool
    /// Linear: the per-frame increment in Q.48.
    @usableFromInline var increment: Int64
    /// Exponential: the per-frame ratio is `ratio / 2^ratioShift`.
    @usableFromInline var ratio: UInt64
    @usableFromInline var ratioShift: Int
    /// Exponential: the end the multiplications head for (the target, or the floor when the target is below it).
    @usableFromInline var exponentialEnd: UInt64

    /// The ramp's destination (0 while muted).
    public internal(set) var target: Fixed824
    /// Whether `mute` is in effect (the ramp is heading for, or has reached, 0).
    public internal(set) var isMuted: Bool
    /// The gain `unmute` returns to; equal to `target` when not muted.
    public internal(set) var unmutedGain: Fixed824

    /// A settled ramp at `gain`.
    public init(gain: Fixed824 = .one) {
        let clamped = Self.clampedGain(gain)
        level = Self.wide(clamped)
        finalLevel = level
        remaining = 0
        isExponential = false
        increment = 0
        ratio = 0
        ratioShift = 0
        exponentialEnd = 0
        target = clamped
        isMuted = false
        unmutedGain = clamped
    }

    /// The gain of the most recent frame (the starting point of any new ramp).
    @inlinable
    public var gain: Fixed824 { Self.narrow(level) }

    /// Whether the gain is still moving.
    @inlinable
    public var isRamping: Bool { remaining > 0 }

    /// Frames left before the gain reaches `target`.
    @inlinable
    public var remainingFrames: Int { remaining }

    /// Whether the gain is settled at exactly 0 (a muted, settled ramp: its input can be skipped).
    @inlinable
    public var isSilent: Bool { remaining == 0 && level == 0 }

    /// Moves to `target` over `frames` frames (0 or less: at once), starting from the current gain.
    /// While muted this only changes the gain `unmute` will return to.
    public mutating func ramp(to target: Fixed824, frames: Int, shape: Shape = .linear) {
        let clamped = Self.clampedGain(target)
        unmutedGain = clamped
        if isMuted { return }
        start(to: clamped, frames: frames, shape: shape)
    }

    /// Jumps to `gain` at once (no ramp). Use only while the output is not audible (setup, after a reset).
    /// While muted this only changes the gain `unmute` will return to.
    public mutating func set(_ gain: Fixed824) {
        ramp(to: gain, frames: 0)
    }

    /// Frames for a ramp of `milliseconds` at `sampleRate`, rounded to nearest and at least 1.
    /// Control path only (Double math).
    public static func frames(milliseconds: Double, sampleRate: Double) -> Int {
        let frames = (milliseconds * sampleRate / 1000).rounded()
        guard frames.isFinite, frames >= 1 else { return 1 }
        return frames >= Double(Int32.max) ? Int(Int32.max) : Int(frames)
    }

    /// Starts the actual ramp from the current level.
    @usableFromInline
    mutating func start(to newTarget: Fixed824, frames: Int, shape: Shape) {
        target = newTarget
        finalLevel = Self.wide(newTarget)
        isExponential = false
        increment = 0
        if frames <= 0 || finalLevel == level {
            level = finalLevel
            remaining = 0
            return
        }
        remaining = frames
        let floor = Self.wide(Self.exponentialFloor)
        if shape == .exponential && (level > floor || finalLevel > floor) {
            isExponential = true
            let from = Swift.max(level, floor)
            exponentialEnd = Swift.max(finalLevel, floor)
            // Per-frame log2 step, rounded toward zero so the multiplications never pass the end.
            let span = FixedLog2.log2(exponentialEnd) &- FixedLog2.log2(from)
            let (mantissa, shift) = FixedLog2.exp2(span / Int64(frames))
            ratio = mantissa
            ratioShift = shift
        } else {
            increment = (Int64(bitPattern: finalLevel) &- Int64(bitPattern: level)) / Int64(frames)
        }
    }

    /// Advances one frame and returns its gain.
    @inlinable @inline(__always)
    public mutating func nextGain() -> Fixed824 {
        if remaining > 0 { step() }
        return Self.narrow(level)
    }

    /// One frame of ramp.
    @inlinable @inline(__always)
    mutating func step() {
        remaining &-= 1
        if remaining == 0 {
            level = finalLevel
        } else if isExponential {
            let floor = Self.wide(Self.exponentialFloor)
            let next = FixedLog2.multiplyShiftRounding(Swift.max(level, floor), ratio, shift: ratioShift)
            // Clamp at the end so rounding can never overshoot; that also keeps the ramp monotonic.
            level = exponentialEnd >= level ? Swift.min(next, exponentialEnd) : Swift.max(next, exponentialEnd)
        } else {
            level = UInt64(bitPattern: Int64(bitPattern: level) &+ increment)
        }
    }

    /// Advances `frames` frames without producing gains (for a block that was not processed).
    public mutating func advance(frames: Int) {
        var count = Swift.min(frames, remaining)
        if count <= 0 { return }
        if !isExponential || count == remaining {
            if count == remaining {
                level = finalLevel
                remaining = 0
                return
            }
            level = UInt64(bitPattern: Int64(bitPattern: level) &+ increment &* Int64(count))
            remaining &-= count
            return
        }
        while count > 0 { step(); count &-= 1 }
    }

    // MARK: - Format helpers

    @inlinable @inline(__always)
    static func wide(_ gain: Fixed824) -> UInt64 { UInt64(UInt32(bitPattern: gain.raw)) &<< extraBits }

    /// Q.48 to 8.24, rounded to nearest (a Q.48 gain never exceeds `Fixed824.max` widened, so no overflow).
    @inlinable @inline(__always)
    static func narrow(_ level: UInt64) -> Fixed824 {
        Fixed824(raw: Int32(truncatingIfNeeded: (level &+ (1 &<< (extraBits &- 1))) &>> extraBits))
    }

    @inlinable
    static func clampedGain(_ gain: Fixed824) -> Fixed824 { gain.raw < 0 ? .zero : gain }
}
