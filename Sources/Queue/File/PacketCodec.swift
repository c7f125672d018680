import Codec8_24

/// Turns a stream format's packets into interleaved 8.24 frames and back, for every data format the
/// containers hold. State (the IMA coders' per-channel history) is allocated at init; `decode` and `encode`
/// never allocate, so a reader or writer thread can call them per buffer.
final class PacketCodec {
    enum Coding { case u8, s8, s16le, s16be, s24le, s24be, s32le, s32be, f32le, f32be, f64le, f64be, muLaw, aLaw, ima4, msIMA }

    let format: StreamFormat
    let coding: Coding
    let channels: Int
    private let ima4Decoder: IMA4Decoder?
    private let ima4Encoder: IMA4Encoder?
    private let msDecoder: IMAADPCMWaveDecoder?
    private let msEncoder: IMAADPCMWaveEncoder?

    init(format: StreamFormat) throws {
        self.format = format
        channels = format.channelsPerFrame
        let big = format.isBigEndian
        switch format.formatID {
        case .linearPCM:
            switch (format.bitsPerChannel, format.isFloat) {
            case (8, false): coding = format.isSignedInteger ? .s8 : .u8
            case (16, false): coding = big ? .s16be : .s16le
            case (24, false): coding = big ? .s24be : .s24le
            case (32, false): coding = big ? .s32be : .s32le
            case (32, true): coding = big ? .f32be : .f32le
            case (64, true): coding = big ? .f64be : .f64le
            default: throw AudioFileError.unsupported("\(format.bitsPerChannel)-bit linear PCM is not supported")
            }
        case .muLaw: coding = .muLaw
        case .aLaw: coding = .aLaw
        case .appleIMA4: coding = .ima4
        case .microsoftIMAADPCM: coding = .msIMA
        case .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless:
            throw AudioFileError.unsupported("\(format.formatID) is decoded by its codec library, not packet by packet")
        }
        do {
            ima4Decoder = coding == .ima4 ? try IMA4Decoder(channelCount: channels) : nil
            ima4Encoder = coding == .ima4 ? try IMA4Encoder(channelCount: channels) : nil
            msDecoder = coding == .msIMA ? try IMAADPCMWaveDecoder(channelCount: channels, blockAlign: format.bytesPerPacket) : nil
            msEncoder = coding == .msIMA ? try IMAADPCMWaveEncoder(channelCount: channels, blockAlign: format.bytesPerPacket) : nil
        } catch {
            throw AudioFileError.unsupported("IMA ADPCM layout: \(error)")
        }
    }

    /// Forgets coder history (after a seek).
    func reset() {
        ima4Decoder?.reset()
        ima4Encoder?.reset()
        msEncoder?.reset()
    }

    /// Decodes `packets` whole packets at `input` into `output` (room for packets × framesPerPacket frames).
    /// Returns frames written. `packetBase` numbers the first packet in error messages.
    func decode(_ input: UnsafeRawPointer, packets: Int, into output: UnsafeMutablePointer<Fixed824>) throws -> Int {
        let samples = packets * format.framesPerPacket * channels
        let p = input
        let o = output
        switch coding {
        case .u8: for i in 0..<samples { o[i] = Fixed824(raw: (Int32(p.load(fromByteOffset: i, as: UInt8.self)) &- 128) &<< 17) }
        case .s8: for i in 0..<samples { o[i] = Fixed824(raw: Int32(p.load(fromByteOffset: i, as: Int8.self)) &<< 17) }
        case .s16le: for i in 0..<samples { o[i] = Fixed824(int16: Int16(littleEndian: p.loadUnaligned(fromByteOffset: 2 &* i, as: Int16.self))) }
        case .s16be: for i in 0..<samples { o[i] = Fixed824(int16: Int16(bigEndian: p.loadUnaligned(fromByteOffset: 2 &* i, as: Int16.self))) }
        case .s24le, .s24be:
            let big = coding == .s24be
            for i in 0..<samples { o[i] = Fixed824(int24: Self.loadInt24(p + 3 &* i, bigEndian: big)) }
        case .s32le: for i in 0..<samples { o[i] = Fixed824(int32: Int32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self))) }
        case .s32be: for i in 0..<samples { o[i] = Fixed824(int32: Int32(bigEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: Int32.self))) }
        case .f32le: for i in 0..<samples { o[i] = Fixed824(Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)))) }
        case .f32be: for i in 0..<samples { o[i] = Fixed824(Float(bitPattern: UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)))) }
        case .f64le: for i in 0..<samples { o[i] = Fixed824(Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self)))) }
        case .f64be: for i in 0..<samples { o[i] = Fixed824(Double(bitPattern: UInt64(bigEndian: p.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self)))) }
        case .muLaw, .aLaw:
            let law: G711Law = coding == .muLaw ? .muLaw : .aLaw
            law.decode(UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: samples),
                       into: UnsafeMutableBufferPointer(start: o, count: samples))
        case .ima4, .msIMA:
            let bytes = UnsafeRawBufferPointer(start: p, count: packets * format.bytesPerPacket)
            let out = UnsafeMutableBufferPointer(start: o, count: samples)
            do {
                if let ima4Decoder { return try ima4Decoder.decode(bytes, into: out) }
                return try msDecoder!.decode(bytes, into: out)
            } catch {
                throw AudioFileError.malformed("\(format.formatID) packet does not decode: \(error)", at: 0)
            }
        }
        return samples / channels
    }

    /// Encodes `frames` frames (a whole number of packets for the IMA formats) into `output`; returns bytes.
    func encode(_ input: UnsafePointer<Fixed824>, frames: Int, into output: UnsafeMutableRawPointer) -> Int {
        let samples = frames * channels
        let s = input
        let o = output
        switch coding {
        case .u8:
            for i in 0..<samples { o.storeBytes(of: UInt8(truncatingIfNeeded: Self.int8(s[i]) &+ 128), toByteOffset: i, as: UInt8.self) }
            return samples
        case .s8:
            for i in 0..<samples { o.storeBytes(of: Int8(truncatingIfNeeded: Self.int8(s[i])), toByteOffset: i, as: Int8.self) }
            return samples
        case .s16le: for i in 0..<samples { o.storeBytes(of: s[i].int16.littleEndian, toByteOffset: 2 &* i, as: Int16.self) }; return 2 * samples
        case .s16be: for i in 0..<samples { o.storeBytes(of: s[i].int16.bigEndian, toByteOffset: 2 &* i, as: Int16.self) }; return 2 * samples
        case .s24le, .s24be:
            let big = coding == .s24be
            for i in 0..<samples { Self.storeInt24(s[i].int24, at: o + 3 &* i, bigEndian: big) }
            return 3 * samples
        case .s32le: for i in 0..<samples { o.storeBytes(of: s[i].int32.littleEndian, toByteOffset: 4 &* i, as: Int32.self) }; return 4 * samples
        case .s32be: for i in 0..<samples { o.storeBytes(of: s[i].int32.bigEndian, toByteOffset: 4 &* i, as: Int32.self) }; return 4 * samples
        case .f32le: for i in 0..<samples { o.storeBytes(of: s[i].floatValue.bitPattern.littleEndian, toByteOffset: 4 &* i, as: UInt32.self) }; return 4 * samples
        case .f32be: for i in 0..<samples { o.storeBytes(of: s[i].floatValue.bitPattern.bigEndian, toByteOffset: 4 &* i, as: UInt32.self) }; return 4 * samples
        case .f64le: for i in 0..<samples { o.storeBytes(of: s[i].doubleValue.bitPattern.littleEndian, toByteOffset: 8 &* i, as: UInt64.self) }; return 8 * samples
        case .f64be: for i in 0..<samples { o.storeBytes(of: s[i].doubleValue.bitPattern.bigEndian, toByteOffset: 8 &* i, as: UInt64.self) }; return 8 * samples
        case .muLaw, .aLaw:
            let law: G711Law = coding == .muLaw ? .muLaw : .aLaw
            law.encode(UnsafeBufferPointer(start: s, count: samples),
                       into: UnsafeMutableBufferPointer(start: o.assumingMemoryBound(to: UInt8.self), count: samples))
            return samples
        case .ima4, .msIMA:
            let packets = frames / format.framesPerPacket
            let bytes = UnsafeMutableRawBufferPointer(start: o, count: packets * format.bytesPerPacket)
            let source = UnsafeBufferPointer(start: s, count: samples)
            // Whole packets by contract, and `bytes` sized for them: the encoders cannot fail here.
            if let ima4Encoder { return (try? ima4Encoder.encode(source, into: bytes)) ?? 0 }
            return (try? msEncoder!.encode(source, into: bytes)) ?? 0
        }
    }

    /// A packed 24-bit sample, sign-extended.
    @inline(__always)
    static func loadInt24(_ b: UnsafeRawPointer, bigEndian: Bool) -> Int32 {
        let b0 = Int32(b.load(as: UInt8.self)), b1 = Int32(b.load(fromByteOffset: 1, as: UInt8.self))
        let b2 = Int32(b.load(fromByteOffset: 2, as: UInt8.self))
        let v = bigEndian ? b0 &<< 16 | b1 &<< 8 | b2 : b2 &<< 16 | b1 &<< 8 | b0
        return (v &<< 8) &>> 8
    }

    /// The low 24 bits of `v`, packed.
    @inline(__always)
    static func storeInt24(_ v: Int32, at b: UnsafeMutableRawPointer, bigEndian: Bool) {
        let (first, last) = bigEndian ? (UInt8(truncatingIfNeeded: v &>> 16), UInt8(truncatingIfNeeded: v))
                                      : (UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v &>> 16))
        b.storeBytes(of: first, as: UInt8.self)
        b.storeBytes(of: UInt8(truncatingIfNeeded: v &>> 8), toByteOffset: 1, as: UInt8.self)
        b.storeBytes(of: last, toByteOffset: 2, as: UInt8.self)
    }

    /// 8.24 to a signed 8-bit value, rounded to nearest and saturated.
    @inline(__always)
    static func int8(_ sample: Fixed824) -> Int32 {
        let v = (Int64(sample.raw) &+ (1 << 16)) &>> 17
        return Int32(min(max(v, -128), 127))
    }
}
