/// Two consecutive bell stages in one pass, skewed by one frame ("in canon"): in each iteration the first
/// stage filters frame n while the second filters frame n-1, which the first finished in the previous
/// iteration. The two recurrences are independent within an iteration, so twice as many multiplies are in
/// flight as in a one-stage loop; the arithmetic, and so the output, is exactly that of two one-stage passes.
extension BiquadKernel {
    /// One bell step: returns (y0, e0) for input x0 with history x2, e1, e2; `g`, `na1`, `na2` doubled
    /// (`high(doubled:_:)`).
    @inline(__always)
    static func bellStep(
        _ x0: Int64, _ x2: Int64, _ e1: Int64, _ e2: Int64, _ g: Int64, _ na1: Int64, _ na2: Int64
    ) -> (y: Int64, e: Int64) {
        let partial = high(doubled: g, x0 &- x2) &+ high(doubled: na2, e2)
        let e0 = (partial &+ high(doubled: na1, e1)) &<< Int64(productShift)
        return (x0 &+ e0, e0)
    }

    static func runBellTwoStagesSingle(
        _ samples: UnsafeMutablePointer<Int64>, frames: Int, stride: Int,
        _ ca: BiquadFixedCoefficients, _ cb: BiquadFixedCoefficients,
        _ a: inout BiquadState, _ b: inout BiquadState
    ) {
        guard frames > 0 else { return }
        let ga = ca.bellGain &<< 1, na1a = ca.negA1 &<< 1, na2a = ca.negA2 &<< 1   // doubled: `high(doubled:_:)`
        let gb = cb.bellGain &<< 1, na1b = cb.negA1 &<< 1, na2b = cb.negA2 &<< 1
        var ax1 = a.x1, ax2 = a.x2, ae1 = a.y1, ae2 = a.y2
        var bx1 = b.x1, bx2 = b.x2, be1 = b.y1, be2 = b.y2
        var p = samples
        // Prologue: the first stage runs one frame ahead.
        var ax0 = p.pointee
        var (ay, ae0) = bellStep(ax0, ax2, ae1, ae2, ga, na1a, na2a)
        ax2 = ax1; ax1 = ax0; ae2 = ae1; ae1 = ae0
        for _ in 1..<frames {
            let next = p + stride
            ax0 = next.pointee
            let (ayNext, aeNext) = bellStep(ax0, ax2, ae1, ae2, ga, na1a, na2a)
            let (by, be0) = bellStep(ay, bx2, be1, be2, gb, na1b, na2b)
            p.pointee = by
            ax2 = ax1; ax1 = ax0; ae2 = ae1; ae1 = aeNext
            bx2 = bx1; bx1 = ay; be2 = be1; be1 = be0
            ay = ayNext
            p = next
        }
        // Epilogue: the second stage catches up.
        let (by, be0) = bellStep(ay, bx2, be1, be2, gb, na1b, na2b)
        p.pointee = by
        bx2 = bx1; bx1 = ay; be2 = be1; be1 = be0
        a = BiquadState(x1: ax1, x2: ax2, y1: ae1, y2: ae2)
        b = BiquadState(x1: bx1, x2: bx2, y1: be1, y2: be2)
    }

    static func runBellTwoStagesPair(
        _ samples: UnsafeMutablePointer<Int64>, frames: Int, stride: Int,
        _ ca: BiquadFixedCoefficients, _ cb: BiquadFixedCoefficients,
        _ aL: inout BiquadState, _ aR: inout BiquadState, _ bL: inout BiquadState, _ bR: inout BiquadState
    ) {
        guard frames > 0 else { return }
        let ga = ca.bellGain &<< 1, na1a = ca.negA1 &<< 1, na2a = ca.negA2 &<< 1   // doubled: `high(doubled:_:)`
        let gb = cb.bellGain &<< 1, na1b = cb.negA1 &<< 1, na2b = cb.negA2 &<< 1
        var lax1 = aL.x1, lax2 = aL.x2, lae1 = aL.y1, lae2 = aL.y2
        var rax1 = aR.x1, rax2 = aR.x2, rae1 = aR.y1, rae2 = aR.y2
        var lbx1 = bL.x1, lbx2 = bL.x2, lbe1 = bL.y1, lbe2 = bL.y2
        var rbx1 = bR.x1, rbx2 = bR.x2, rbe1 = bR.y1, rbe2 = bR.y2
        var p = samples
        var lax0 = p[0], rax0 = p[1]
        var (lay, lae0) = bellStep(lax0, lax2, lae1, lae2, ga, na1a, na2a)
        var (ray, rae0) = bellStep(rax0, rax2, rae1, rae2, ga, na1a, na2a)
        lax2 = lax1; lax1 = lax0; lae2 = lae1; lae1 = lae0
        rax2 = rax1; rax1 = rax0; rae2 = rae1; rae1 = rae0
        for _ in 1..<frames {
            let next = p + stride
            lax0 = next[0]
            rax0 = next[1]
            let (layNext, laeNext) = bellStep(lax0, lax2, lae1, lae2, ga, na1a, na2a)
            let (rayNext, raeNext) = bellStep(rax0, rax2, rae1, rae2, ga, na1a, na2a)
            let (lby, lbe0) = bellStep(lay, lbx2, lbe1, lbe2, gb, na1b, na2b)
            let (rby, rbe0) = bellStep(ray, rbx2, rbe1, rbe2, gb, na1b, na2b)
            p[0] = lby
            p[1] = rby
            lax2 = lax1; lax1 = lax0; lae2 = lae1; lae1 = laeNext
            rax2 = rax1; rax1 = rax0; rae2 = rae1; rae1 = raeNext
            lbx2 = lbx1; lbx1 = lay; lbe2 = lbe1; lbe1 = lbe0
            rbx2 = rbx1; rbx1 = ray; rbe2 = rbe1; rbe1 = rbe0
            lay = layNext
            ray = rayNext
            p = next
        }
        let (lby, lbe0) = bellStep(lay, lbx2, lbe1, lbe2, gb, na1b, na2b)
        let (rby, rbe0) = bellStep(ray, rbx2, rbe1, rbe2, gb, na1b, na2b)
        p[0] = lby
        p[1] = rby
        lbx2 = lbx1; lbx1 = lay; lbe2 = lbe1; lbe1 = lbe0
        rbx2 = rbx1; rbx1 = ray; rbe2 = rbe1; rbe1 = rbe0
        aL = BiquadState(x1: lax1, x2: lax2, y1: lae1, y2: lae2)
        aR = BiquadState(x1: rax1, x2: rax2, y1: rae1, y2: rae2)
        bL = BiquadState(x1: lbx1, x2: lbx2, y1: lbe1, y2: lbe2)
        bR = BiquadState(x1: rbx1, x2: rbx2, y1: rbe1, y2: rbe2)
    }
}
