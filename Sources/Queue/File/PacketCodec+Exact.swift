import Codec8_24

/// Packets to and from `Double` samples (full scale ±1.0), for conversions that must not pass through 8.24:
/// a Double holds every integer sample up to 32 bits, every Float and every Double exactly, so decoding is
/// exact and encoding rounds once (IEEE 754 roundTiesToEven, then saturation).
extension PacketCodec {
    /// The integer width (bits) that holds every sample this coding decodes to, or nil for float codings.
    /// G.711 and IMA ADPCM decode to 16-bit values (ITU-T G.711 §2: 14- and 13-bit magnitudes; IMA: 16-bit).
    var exactIntegerBits: Int? {
        switch coding {
        case .u8, .s8: 8
        case .s16le, .s16be, .muLaw, .aLaw, .ima4, .msIMA: 16
        case .s24le, .s24be: 24
        case .s32le, .s32be: 32
        case .f32le, .f32be, .f64le, .f64be: nil
        }
    }

    var isFloatCoding: Bool { exactIntegerBits == nil }

    /// Whether `encodeExact` can write this coding (linear PCM only; G.711 and IMA encode from 8.24).
    var encodesExactly: Bool {
        switch coding {
        case .muLaw, .aLaw, .ima4, .msIMA: false
        default: true
        }
    }

    /// Decodes `packets` packets into `output` as Doubles; `scratch` (room for the same samples in 8.24) is
    /// used by G.711 and IMA, whose 16-bit values 8.24 holds exactly. Returns frames.
    func decodeExact(_ input: UnsafeRawPointer, packets: Int, into output: UnsafeMutablePointer<Double>,
                     scratch: UnsafeMutablePointer<Fixed824>) throws -> Int {
        let samples = packets * format.framesPerPacket * channels
        let p = input
        let o = output
        switch coding {
        case .u8: for i in 0..<samples { o[i] = Double(Int(p.load(fromByteOffset: i, as: UInt8.self)) - 128) / 0x80 }
        case .s8: for i in 0..<samples { o[i] = Double(p.load(fromByteOffset: i, as: Int8.self)) / 0x80 }
        case .s16le: for i in 0..<samples { o[i] = Double(Int16(littleEndian: p.loadUnaligned(fromByteOffset: 2 &* i, as: Int16.self))) / 0x8000 }
        case .s16be: for i in 0..<samples { o[i] = Double(Int16(bigEndian: p.loadUnaligned(fromByteOffset: 2 &* i, as: Int16.self))) / 0x8000 }
        case .s24le, .s24be:
            let big = coding == .s24be
            for i in 0..<samples { o[i] = Double(Self.loadInt24(p + 3 &* i, bigEndian: big)) / 0x80_0000 }
        case .s32le: for i in 0..<samples { o[i] = Double(Int32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self))) / 0x8000_0000 }
        case .s32be: for i in 0..<samples { o[i] = Double(Int32(bigEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self))) / 0x8000_0000 }
        case .f32le: for i in 0..<samples { o[i] = Double(Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)))) }
        case .f32be: for i in 0..<samples { o[i] = Double(Float(bitPattern: UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)))) }
        case .f64le: for i in 0..<samples { o[i] = Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self))) }
        case .f64be: for i in 0..<samples { o[i] = Double(bitPattern: UInt64(bigEndian: p.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self))) }
        case .muLaw, .aLaw, .ima4, .msIMA:
            let frames = try decode(input, packets: packets, into: scratch)
            for i in 0..<(frames * channels) { o[i] = Double(scratch[i].raw) / Double(Fixed824.unityRaw) }
            return frames
        }
        return samples / channels
    }

    /// Encodes `frames` Double frames into linear PCM at `output`, each sample rounded once and saturated;
    /// returns bytes. Only for codings where `encodesExactly`.
    func encodeExact(_ input: UnsafePointer<Double>, frames: Int, into output: UnsafeMutableRawPointer) -> Int {
        let samples = frames * channels
        let s = input
        let o = output
        switch coding {
        case .u8:
            for i in 0..<samples { o.storeBytes(of: UInt8(Self.integer(s[i], bits: 8) + 128), toByteOffset: i, as: UInt8.self) }
            return samples
        case .s8:
            for i in 0..<samples { o.storeBytes(of: Int8(Self.integer(s[i], bits: 8)), toByteOffset: i, as: Int8.self) }
            return samples
        case .s16le: for i in 0..<samples { o.storeBytes(of: Int16(Self.integer(s[i], bits: 16)).littleEndian, toByteOffset: 2 &* i, as: Int16.self) }; return 2 * samples
        case .s16be: for i in 0..<samples { o.storeBytes(of: Int16(Self.integer(s[i], bits: 16)).bigEndian, toByteOffset: 2 &* i, as: Int16.self) }; return 2 * samples
        case .s24le, .s24be:
            let big = coding == .s24be
            for i in 0..<samples { Self.storeInt24(Int32(Self.integer(s[i], bits: 24)), at: o + 3 &* i, bigEndian: big) }
            return 3 * samples
        case .s32le: for i in 0..<samples { o.storeBytes(of: Int32(Self.integer(s[i], bits: 32)).littleEndian, toByteOffset: 4 &* i, as: Int32.self) }; return 4 * samples
        case .s32be: for i in 0..<samples { o.storeBytes(of: Int32(Self.integer(s[i], bits: 32)).bigEndian, toByteOffset: 4 &* i, as: Int32.self) }; return 4 * samples
        case .f32le: for i in 0..<samples { o.storeBytes(of: Float(s[i]).bitPattern.littleEndian, toByteOffset: 4 &* i, as: UInt32.self) }; return 4 * samples
        case .f32be: for i in 0..<samples { o.storeBytes(of: Float(s[i]).bitPattern.bigEndian, toByteOffset: 4 &* i, as: UInt32.self) }; return 4 * samples
        case .f64le: for i in 0..<samples { o.storeBytes(of: s[i].bitPattern.littleEndian, toByteOffset: 8 &* i, as: UInt64.self) }; return 8 * samples
        case .f64be: for i in 0..<samples { o.storeBytes(of: s[i].bitPattern.bigEndian, toByteOffset: 8 &* i, as: UInt64.self) }; return 8 * samples
        case .muLaw, .aLaw, .ima4, .msIMA: return 0
        }
    }

    /// `value` (full scale ±1.0) as a signed `bits`-bit integer: scaled by 2^(bits-1), rounded to nearest
    /// (ties to even), saturated to -2^(bits-1) ... 2^(bits-1) - 1; NaN is 0.
    @inline(__always)
    static func integer(_ value: Double, bits: Int) -> Int64 {
        let top = Double(Int64(1) << (bits - 1))
        let scaled = (value * top).rounded(.toNearestOrEven)
        guard scaled == scaled else { return 0 }
        return Int64(min(max(scaled, -top), top - 1))
    }
}
