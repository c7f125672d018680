/// One channel's IMA/DVI ADPCM state: the predicted sample and the index into the step-size table.
///
/// The arithmetic is the IMA's Recommended Practice (1992): the quantized difference is rebuilt from
/// shifted copies of the step (`step/8 + step·b2 + step/2·b1 + step/4·b0`), not by a multiplication, so
/// decoders built on it agree bit for bit. The encoder updates its state with the very same expansion, so
/// encoder and decoder never drift apart.
public struct IMAADPCMChannelState: Hashable, Sendable {
    /// The last reconstructed sample, always within `Int16`'s range.
    public var predictor: Int32
    /// Index into `IMAADPCM.stepSizes`, always in `0...88`.
    public var stepIndex: Int32

    /// A state; out-of-range values are clamped into range.
    public init(predictor: Int32 = 0, stepIndex: Int32 = 0) {
        self.predictor = Swift.min(Swift.max(predictor, Int32(Int16.min)), Int32(Int16.max))
        self.stepIndex = Swift.min(Swift.max(stepIndex, 0), IMAADPCM.maxStepIndex)
    }

    /// Decodes one 4-bit code (sign in bit 3, magnitude in bits 0...2) and advances the state.
    @inline(__always)
    public mutating func expand(_ nibble: UInt8) -> Int16 {
        let code = Int(nibble & 0x0F)
        let step = IMAADPCM.stepSizes[Int(stepIndex)]
        var difference = step &>> 3
        if code & 4 != 0 { difference &+= step }
        if code & 2 != 0 { difference &+= step &>> 1 }
        if code & 1 != 0 { difference &+= step &>> 2 }
        let next = code & 8 != 0 ? predictor &- difference : predictor &+ difference
        predictor = Swift.min(Swift.max(next, Int32(Int16.min)), Int32(Int16.max))
        stepIndex = Swift.min(Swift.max(stepIndex &+ IMAADPCM.indexAdjustments[code], 0), IMAADPCM.maxStepIndex)
        return Int16(truncatingIfNeeded: predictor)
    }

    /// Encodes one sample to a 4-bit code by successive approximation of the difference from the
    /// prediction (one bit per halving of the step), then advances the state exactly as `expand` does.
    @inline(__always)
    public mutating func compress(_ sample: Int16) -> UInt8 {
        var difference = Int32(sample) &- predictor
        var code: UInt8 = 0
        if difference < 0 {
            code = 8
            difference = -difference
        }
        var step = IMAADPCM.stepSizes[Int(stepIndex)]
        if difference >= step {
            code |= 4
            difference &-= step
        }
        step &>>= 1
        if difference >= step {
            code |= 2
            difference &-= step
        }
        step &>>= 1
        if difference >= step { code |= 1 }
        _ = expand(code)
        return code
    }
}

/// The IMA/DVI ADPCM tables shared by every IMA layout (QuickTime `ima4`, WAV format 0x11, and others).
public enum IMAADPCM {
    /// The largest valid step index; headers carrying more are malformed.
    public static let maxStepIndex: Int32 = 88

    /// The 89 quantizer step sizes, each about 1.1 times the one before, from 7 to 32767.
    public static let stepSizes: [Int32] = [
        7, 8, 9, 10, 11, 12, 13, 14, 16, 17,
        19, 21, 23, 25, 28, 31, 34, 37, 41, 45,
        50, 55, 60, 66, 73, 80, 88, 97, 107, 118,
        130, 143, 157, 173, 190, 209, 230, 253, 279, 307,
        337, 371, 408, 449, 494, 544, 598, 658, 724, 796,
        876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066,
        2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358,
        5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899,
        15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
    ]

    /// How each 4-bit code moves the step index: small codes shrink the step, large ones grow it fast.
    public static let indexAdjustments: [Int32] = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8]
}
