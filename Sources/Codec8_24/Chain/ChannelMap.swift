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

    /// Maps `frames` interleaved frames of `inputs` channels onto `outputs` channels: equal counts copy,
    /// stereo folds to mono (`mono(left:right:)`), mono fans out to every channel, otherwise channels keep
    /// their position and the rest are dropped or silent. The input queue's capture map; allocation-free.
    @inlinable
    public static func map(
        _ source: UnsafePointer<Fixed824>, channels inputs: Int,
        into destination: UnsafeMutablePointer<Fixed824>, channels outputs: Int, frames: Int
    ) {
        if inputs == outputs {
            destination.update(from: source, count: frames &* inputs)
        } else if inputs == 2 && outputs == 1 {
            foldToMono(source, into: destination, frames: frames)
        } else if inputs == 1 {
            for frame in 0..<frames {
                for channel in 0..<outputs { destination[frame &* outputs &+ channel] = source[frame] }
            }
        } else {
            for frame in 0..<frames {
                for channel in 0..<outputs {
                    destination[frame &* outputs &+ channel] = channel < inputs ? source[frame &* inputs &+ channel] : .zero
                }
            }
        }
    }
}
