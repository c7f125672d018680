// A bell stage for two channels in SIMD lanes with 32x32->64 products of 31-bit coefficient mantissas and split
// Q15.48 state, in the "dc" feedback form of split-coefficients.py (whose accuracy model it follows exactly).
// Not part of the firmware: compiled alone by probe-cost.sh to see what the compilers make of it (llvm-mca),
// before any kernel is built on the idea.
public typealias Lanes = SIMD2<Int64>
public typealias Halves = SIMD2<Int32>

@inline(__always) func split(_ v: Lanes) -> (hi: Halves, lo: Halves) {
    let lo = Halves(truncatingIfNeeded: v)
    return (Halves(truncatingIfNeeded: (v &- Lanes(truncatingIfNeeded: lo)) &>> 32), lo)
}

@inline(__always) func widened(_ n: Halves) -> Lanes { Lanes(Int64(n[0]), Int64(n[1])) }

/// m * 2^-(29 + shift) times v, from two 32x32->64 products, rounded to Q48.
@inline(__always) func scaled(_ m: Halves, _ v: (hi: Halves, lo: Halves), _ half: Lanes, _ shift: Lanes) -> Lanes {
    let q = ((widened(m) &* widened(v.hi)) &<< 3) &+ ((widened(m) &* widened(v.lo)) &>> 29)
    return (q &+ half) &>> shift
}

public struct ProbeCoefficients {
    public var gain: Int32, dc: Int32, damping: Int32
    public var gainShift: Int64, dcShift: Int64, dampingShift: Int64
}

public struct ProbeState { public var x1, x2, e1, e2: Lanes }

@inline(never)
public func probeSplitBellStereo(_ p: UnsafeMutablePointer<Lanes>, frames: Int, _ c: ProbeCoefficients, _ s: inout ProbeState) {
    let mg = Halves(repeating: c.gain), ma = Halves(repeating: c.dc), md = Halves(repeating: c.damping)
    let sg = Lanes(repeating: c.gainShift), sa = Lanes(repeating: c.dcShift), sd = Lanes(repeating: c.dampingShift)
    let one = Lanes(repeating: 1)
    let hg = (one &<< sg) &>> 1, ha = (one &<< sa) &>> 1, hd = (one &<< sd) &>> 1
    var x1 = s.x1, x2 = s.x2, e1 = s.e1, e2 = s.e2
    for i in 0..<frames {
        let x0 = p[i]
        let w = e1 &- e2
        let e0 = scaled(mg, split(x0 &- x2), hg, sg) &+ e1 &+ w &- scaled(ma, split(e1), ha, sa) &- scaled(md, split(w), hd, sd)
        p[i] = x0 &+ e0
        x2 = x1; x1 = x0; e2 = e1; e1 = e0
    }
    s = ProbeState(x1: x1, x2: x2, e1: e1, e2: e2)
}
