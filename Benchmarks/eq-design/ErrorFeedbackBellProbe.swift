// A bell stage for two channels in SIMD lanes with 32-bit state and error feedback, as error-feedback.py models it
// (P = 28: 4.28 samples; F = 29). Not part of the firmware: compiled alone by probe-cost.sh to see whether the
// board's compiler turns its three 32x32->64 products per sample into NEON smull/smlal, as the values here are
// 32-bit from the start (loaded, or carried from one frame to the next as 32-bit lanes) and only widened at the
// multiply, unlike SplitBellProbe.swift's halves of 64-bit values.
public typealias Lanes = SIMD2<Int64>
public typealias Words = SIMD2<Int32>

@inline(__always) func widened(_ n: Words) -> Lanes { Lanes(truncatingIfNeeded: n) }

public struct FeedbackCoefficients {
    /// Mantissas of g = b0 - 1, A(1) = 1 + a1 + a2 and d2 = 1 - a2 (split-coefficients.py's "dc" form).
    public var gain: Int32, dc: Int32, damping: Int32
    /// Right shifts from each product to the accumulator's scale (29 + the mantissa's shift - F).
    public var gainShift: Int64, dcShift: Int64, dampingShift: Int64
    /// The remainder's feedback weights, round(-a1) and round(-a2).
    public var k1: Int32, k2: Int32
}

public struct FeedbackState { public var x1, x2, e1, e2, r1, r2: Words }

@inline(__always) func product(_ m: Words, _ v: Words, _ half: Lanes, _ shift: Lanes) -> Lanes {
    ((widened(m) &* widened(v)) &+ half) &>> shift
}

/// The constants of one stage as lanes, made once per block.
public struct FeedbackLanes {
    let mg, ma, md, k1, k2: Words
    let sg, sa, sd, hg, ha, hd: Lanes
    @inline(__always) init(_ c: FeedbackCoefficients) {
        mg = Words(repeating: c.gain); ma = Words(repeating: c.dc); md = Words(repeating: c.damping)
        sg = Lanes(repeating: c.gainShift); sa = Lanes(repeating: c.dcShift); sd = Lanes(repeating: c.dampingShift)
        k1 = Words(repeating: c.k1); k2 = Words(repeating: c.k2)
        let one = Lanes(repeating: 1)
        hg = (one &<< sg) &>> 1; ha = (one &<< sa) &>> 1; hd = (one &<< sd) &>> 1
    }
}

/// One frame through one stage: returns y and moves the state on.
@inline(__always) func step(_ x0: Words, _ c: FeedbackLanes, _ s: inout FeedbackState) -> Words {
    let f: Int64 = 29
    let w = s.e1 &- s.e2
    let acc = product(c.mg, x0 &- s.x2, c.hg, c.sg) &+ ((widened(s.e1) &+ widened(w)) &<< f)
        &- product(c.ma, s.e1, c.ha, c.sa) &- product(c.md, w, c.hd, c.sd) &+ widened(c.k1 &* s.r1 &+ c.k2 &* s.r2)
    let e0 = Words(truncatingIfNeeded: (acc &+ Lanes(repeating: 1 << (f - 1))) &>> f)
    let r0 = Words(truncatingIfNeeded: acc) &- (e0 &<< Words(repeating: Int32(f)))
    s = FeedbackState(x1: x0, x2: s.x1, e1: e0, e2: s.e1, r1: r0, r2: s.r1)
    return x0 &+ e0
}

/// One stage over a block: the recurrence (acc -> e0 -> the next frame's products) is one chain, so this loop
/// shows the latency-bound cost.
@inline(never)
public func probeErrorFeedbackBellStereo(_ p: UnsafeMutablePointer<Words>, frames: Int, _ c: FeedbackCoefficients,
                                         _ s: inout FeedbackState) {
    let lanes = FeedbackLanes(c)
    var state = s
    for i in 0..<frames { p[i] = step(p[i], lanes, &state) }
    s = state
}

/// Two stages in canon (the second takes the first's previous output), as the firmware's kernel runs bell pairs:
/// two independent chains per iteration, so this loop shows the throughput-bound cost.
@inline(never)
public func probeErrorFeedbackBellCanon(_ p: UnsafeMutablePointer<Words>, frames: Int, _ c: FeedbackCoefficients,
                                        _ d: FeedbackCoefficients, _ s: inout FeedbackState, _ t: inout FeedbackState,
                                        _ carried: inout Words) {
    let first = FeedbackLanes(c), second = FeedbackLanes(d)
    var a = s, b = t, between = carried
    for i in 0..<frames {
        let out = step(between, second, &b)
        between = step(p[i], first, &a)
        if i > 0 { p[i - 1] = out }
    }
    s = a; t = b; carried = between
}
