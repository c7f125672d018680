/// One of the two G.711 companding laws, for converting whole buffers.
///
/// The law is chosen once per buffer; the loops inside are per-law and allocation-free, so they are safe on
/// the render thread. Outputs must hold at least as many samples as the input (a programming error otherwise).
public enum G711Law: Sendable, Hashable {
    case muLaw
    case aLaw

    /// Encodes 16-bit samples to G.711 codes, one byte per sample.
    public func encode(_ input: UnsafeBufferPointer<Int16>, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count >= input.count, "G.711 encode: output holds \(output.count) of \(input.count) codes")
        let count = input.count
        switch self {
        case .muLaw: for i in 0..<count { output[i] = MuLaw.encode(input[i]) }
        case .aLaw: for i in 0..<count { output[i] = ALaw.encode(input[i]) }
        }
    }

    /// Encodes 8.24 samples (rounded and saturated to 16 bits first) to G.711 codes.
    public func encode(_ input: UnsafeBufferPointer<Fixed824>, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count >= input.count, "G.711 encode: output holds \(output.count) of \(input.count) codes")
        let count = input.count
        switch self {
        case .muLaw: for i in 0..<count { output[i] = MuLaw.encode(input[i].int16) }
        case .aLaw: for i in 0..<count { output[i] = ALaw.encode(input[i].int16) }
        }
    }

    /// Decodes G.711 codes to 16-bit samples.
    public func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<Int16>) {
        precondition(output.count >= input.count, "G.711 decode: output holds \(output.count) of \(input.count) samples")
        let table = decodeTable
        let count = input.count
        for i in 0..<count { output[i] = table[Int(input[i])] }
    }

    /// Decodes G.711 codes to 8.24 samples.
    public func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<Fixed824>) {
        precondition(output.count >= input.count, "G.711 decode: output holds \(output.count) of \(input.count) samples")
        let table = decodeTable
        let count = input.count
        for i in 0..<count { output[i] = Fixed824(int16: table[Int(input[i])]) }
    }

    /// Encodes one 16-bit sample.
    @inlinable
    public func encode(_ sample: Int16) -> UInt8 {
        switch self {
        case .muLaw: MuLaw.encode(sample)
        case .aLaw: ALaw.encode(sample)
        }
    }

    /// Decodes one code.
    @inlinable
    public func decode(_ code: UInt8) -> Int16 {
        switch self {
        case .muLaw: MuLaw.decode(code)
        case .aLaw: ALaw.decode(code)
        }
    }

    /// The law's 256 reconstruction levels, indexed by code.
    public var decodeTable: [Int16] {
        switch self {
        case .muLaw: MuLaw.decodeTable
        case .aLaw: ALaw.decodeTable
        }
    }
}
