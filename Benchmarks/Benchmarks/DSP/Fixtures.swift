import Codec8_24

/// One stereo period of 1024 frames: what the render thread handles per wake-up at 48 kHz, give or take.
let periodFrames = 1024
let stereoSamples = periodFrames * 2

/// A buffer of deterministic noise at about -6 dBFS, allocated once per benchmark (outside the measurement).
func noiseBuffer(_ count: Int, seed: UInt64 = 1) -> UnsafeMutableBufferPointer<Fixed824> {
    var generator = NoiseGenerator(seed: seed)
    let buffer = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: count)
    for i in 0..<count {
        buffer[i] = Fixed824(raw: Int32(truncatingIfNeeded: generator.next()) >> 2)
    }
    return buffer
}

func buffer<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
    let b = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
    b.initialize(repeating: value)
    return b
}
