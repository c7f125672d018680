/// A linear PCM sample type that audio crosses the device or file boundary in. Conforming types say how
/// they widen to 8.24 (exactly where the math allows) and narrow from it (rounded to nearest, saturated at
/// full scale). `Int16` is S16, `Int32` is S32, `Float`/`Double` are ±1.0 full scale; 24-bit audio comes in
/// two layouts, ``Int24In32`` and ``PackedInt24``.
///
/// Host byte order throughout: swapping for big-endian files happens where the file is read.
public protocol LinearPCMSample: Sendable {
    /// Narrowing from 8.24: rounded to nearest and saturated to this format's full scale.
    init(_ sample: Fixed824)
    /// Widening to 8.24.
    var fixed824: Fixed824 { get }
}

extension Int16: LinearPCMSample {
    @inlinable @inline(__always) public init(_ sample: Fixed824) { self = sample.int16 }
    @inlinable @inline(__always) public var fixed824: Fixed824 { Fixed824(int16: self) }
}

/// 32-bit integer samples (ALSA S32): full scale is `Int32.min ... Int32.max`.
extension Int32: LinearPCMSample {
    @inlinable @inline(__always) public init(_ sample: Fixed824) { self = sample.int32 }
    @inlinable @inline(__always) public var fixed824: Fixed824 { Fixed824(int32: self) }
}

extension Float: LinearPCMSample {
    @inlinable @inline(__always) public init(_ sample: Fixed824) { self = sample.floatValue }
    @inlinable @inline(__always) public var fixed824: Fixed824 { Fixed824(self) }
}

extension Double: LinearPCMSample {
    @inlinable @inline(__always) public init(_ sample: Fixed824) { self = sample.doubleValue }
    @inlinable @inline(__always) public var fixed824: Fixed824 { Fixed824(self) }
}

/// A 24-bit sample in the low three bytes of a 32-bit word, sign-extended (ALSA S24_LE, the layout I2S
/// codecs are most often fed with 24-bit data).
@frozen
public struct Int24In32: LinearPCMSample, Hashable {
    public var value: Int32

    @inlinable @inline(__always) public init(value: Int32) { self.value = value }
    @inlinable @inline(__always) public init(_ sample: Fixed824) { value = sample.int24 }
    @inlinable @inline(__always) public var fixed824: Fixed824 { Fixed824(int24: value) }
}

/// A 24-bit sample packed in three little-endian bytes (ALSA S24_3LE, WAV's 24-bit layout); its stride is 3.
@frozen
public struct PackedInt24: LinearPCMSample, Hashable {
    public var low: UInt8, middle: UInt8, high: UInt8

    @inlinable @inline(__always)
    public init(low: UInt8, middle: UInt8, high: UInt8) { (self.low, self.middle, self.high) = (low, middle, high) }

    /// From a 24-bit value in an `Int32` (bits 24...31 are dropped).
    @inlinable @inline(__always)
    public init(value: Int32) {
        low = UInt8(truncatingIfNeeded: value)
        middle = UInt8(truncatingIfNeeded: value &>> 8)
        high = UInt8(truncatingIfNeeded: value &>> 16)
    }

    /// The sample, sign-extended into an `Int32`.
    @inlinable @inline(__always)
    public var value: Int32 { ((Int32(low) | Int32(middle) &<< 8 | Int32(high) &<< 16) &<< 8) &>> 8 }

    @inlinable @inline(__always) public init(_ sample: Fixed824) { self.init(value: sample.int24) }
    @inlinable @inline(__always) public var fixed824: Fixed824 { Fixed824(int24: value) }
}
