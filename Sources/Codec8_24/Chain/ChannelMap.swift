/// The output chain's last layout step: the stereo mix onto the device's channels. Allocation-free.
public enum ChannelMap {
    /// One mono sample from a stereo pair: the average, rounded half away from zero on the 8.24 grid
    /// (`(L + R + 1) >> 1` for a non-negative sum, `(L + R) >> 1` for a negative one), as `appliance render`
    /// has always folded stereo files to mono. Exact when both channels are equal.
    @inlinable @inline(__always)
    public static func mono(left: Fixed824, right: Fixed824) -> Fixed824 {
        let sum = Int64(left.raw) &+ Int64(right.raw)
        return Fixed824(raw: Int32(truncatingIfNeeded: (sum &+ (sum >= 0 ? 1 : 0)) &>> 1))
    }

    /// Folds `frames` interleaved stereo frames to mono.
    @inlinable
    public static func foldToMono(_ stereo: UnsafePointer<Fixed824>, into mono: UnsafeMutablePointer<Fixed824>, frames: Int) {
        for frame in 0..<frames {
            mono[frame] = Self.mono(left: stereo[2 &* frame], right: stereo[2 &* frame &+ 1])
        }
    }

    /// Spreads `frames` stereo frames over `channels` (more than 2) interleaved channels: left and right on
    /// channels 0 and 1, every other channel silent.
    @inlinable
    public static func spread(
        _ stereo: UnsafePointer<Fixed824>, into device: UnsafeMutablePointer<Fixed824>, channels: Int, frames: Int
    ) {
        device.update(repeating: .zero, count: frames &* channels)
        for frame in 0..<frames {
            device[frame &* channels] = stereo[2 &* frame]
            device[frame &* channels &+ 1] = stereo[2 &* frame &+ 1]
        }
    }
}
