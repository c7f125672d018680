/// The Direct Form I inner loops: one stage over a block of interleaved wide samples, in place.
///
/// Numeric contract:
/// - samples and state are Q15.48 in an `Int64` (range ±32768: 90 dB of headroom over full scale);
/// - coefficients are Q5.58 in an `Int64` (`BiquadFixedCoefficients`);
/// - each product is a 64×64→128-bit multiply (one `imul` on x86-64, `mul` + `smulh` on arm64) rounded to its
///   high word (Q42; half up, using the top bit of the low word), and the high words are summed with wrapping
///   arithmetic, so only the final sum must be in range. Rounding each product, rather than truncating, keeps
///   the error zero-mean and makes silence stay exactly silent: a bias of even 2⁻⁴³ per sample would come out
///   of a 31 Hz stage at 96 kHz (`1/A(1)` ≈ 2.4·10⁵) as a DC offset of half an LSB. The error left is about
///   2⁻⁴² per sample, well under 0.1 LSB after the worst feedback gain;
/// - nothing saturates inside: a stage output beyond ±32768 wraps. Designs are bounded (±24 dB per stage), so
///   that needs a stage input more than 66 dB over full scale; the cascade saturates once, back in 8.24.
///
/// Two forms:
/// - the general form, `y = b0·x0 + b1·x1 + b2·x2 - a1·y1 - a2·y2` (five multiplies);
/// - the bell form for peaking and notch filters, whose numerator is `A(z) + g·(1 - z⁻²)` exactly
///   (`b1 = a1`, `b2 - a2 = -(b0 - 1)`): `e = g·(x0 - x2) - a1·e1 - a2·e2`, `y = x0 + e` (three multiplies),
///   where `e` is what the stage adds to its input.
///
/// The bell form's coefficients are below 16 in magnitude (`BiquadFixedCoefficients.isBell` requires it), so its
/// products use `high(doubled:_:)`, which gives the same bits from the high word alone.
///
/// The pair loops run two channels side by side so their independent recurrences overlap in the pipeline;
/// the single loops serve mono and the odd channel out.
enum BiquadKernel {
    /// Left shift from the high words (Q42 when the state is Q48) back to the state format.
    static let productShift = 64 - BiquadFixedCoefficients.fractionBits
    /// The high 64 bits of a 64×64-bit product, rounded half up.
    @inline(__always)
    static func high(_ a: Int64, _ b: Int64) -> Int64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high &+ Int64(truncatingIfNeeded: low &>> 63)
    }

    /// `high(a, b)`, bit for bit, given `doubledA = 2·a` (so `|a| < 2⁶²`): the high word of `2·a·b` is
    /// `a·b / 2⁶³` rounded down, i.e. twice the high word of `a·b` plus the top bit of its low word, so adding one
    /// and halving rounds half up exactly as `high` does, without the low word. That saves, per product, the
    /// `mul` for the low word and the shifted add, both on the Cortex-A72's single multi-cycle integer pipe
    /// (llvm-mca: 9.0 → 6.8 cycles per sample per band for two bell stages); x86-64 gets both words from one
    /// instruction either way.
    @inline(__always)
    static func high(doubled doubledA: Int64, _ b: Int64) -> Int64 {
        (doubledA.multipliedFullWidth(by: b).high &+ 1) &>> 1
    }

    // MARK: General form

    static func runSingle(
        _ samples: UnsafeMutablePointer<Int64>, frames: Int, stride: Int,
        _ c: BiquadFixedCoefficients, _ state: inout BiquadState
    ) {
        let b0 = c.b0, b1 = c.b1, b2 = c.b2, na1 = c.negA1, na2 = c.negA2
        let shift = Int64(productShift)
        var x1 = state.x1, x2 = state.x2, y1 = state.y1, y2 = state.y2
        var p = samples
        for _ in 0..<frames {
            let x0 = p.pointee
            // The terms not involving y1 first, so only the last multiply-add sits on the recurrence.
            let partial = high(b0, x0) &+ high(b1, x1) &+ high(b2, x2) &+ high(na2, y2)
            let y0 = (partial &+ high(na1, y1)) &<< shift
            p.pointee = y0
            x2 = x1
            x1 = x0
            y2 = y1
            y1 = y0
            p += stride
        }
        state = BiquadState(x1: x1, x2: x2, y1: y1, y2: y2)
    }

    static func runPair(
        _ samples: UnsafeMutablePointer<Int64>, frames: Int, stride: Int,
        _ c: BiquadFixedCoefficients, _ left: inout BiquadState, _ right: inout BiquadState
    ) {
        let b0 = c.b0, b1 = c.b1, b2 = c.b2, na1 = c.negA1, na2 = c.negA2
        let shift = Int64(productShift)
        var lx1 = left.x1, lx2 = left.x2, ly1 = left.y1, ly2 = left.y2
        var rx1 = right.x1, rx2 = right.x2, ry1 = right.y1, ry2 = right.y2
        var p = samples
        for _ in 0..<frames {
            let lx0 = p[0]
            let rx0 = p[1]
            let lPartial = high(b0, lx0) &+ high(b1, lx1) &+ high(b2, lx2) &+ high(na2, ly2)
            let rPartial = high(b0, rx0) &+ high(b1, rx1) &+ high(b2, rx2) &+ high(na2, ry2)
            let ly0 = (lPartial &+ high(na1, ly1)) &<< shift
            let ry0 = (rPartial &+ high(na1, ry1)) &<< shift
            p[0] = ly0
            p[1] = ry0
            lx2 = lx1
            lx1 = lx0
            ly2 = ly1
            ly1 = ly0
            rx2 = rx1
            rx1 = rx0
            ry2 = ry1
            ry1 = ry0
            p += stride
        }
        left = BiquadState(x1: lx1, x2: lx2, y1: ly1, y2: ly2)
        right = BiquadState(x1: rx1, x2: rx2, y1: ry1, y2: ry2)
    }

    // MARK: Bell form (peaking, notch). State: x1, x2 as usual; y1, y2 hold e1, e2.

    static func runBellSingle(
        _ samples: UnsafeMutablePointer<Int64>, frames: Int, stride: Int,
        _ c: BiquadFixedCoefficients, _ state: inout BiquadState
    ) {
        let g = c.bellGain &<< 1, na1 = c.negA1 &<< 1, na2 = c.negA2 &<< 1   // doubled: see `high(doubled:_:)`
        let shift = Int64(productShift)
        var x1 = state.x1, x2 = state.x2, e1 = state.y1, e2 = state.y2
        var p = samples
        for _ in 0..<frames {
            let x0 = p.pointee
            let partial = high(doubled: g, x0 &- x2) &+ high(doubled: na2, e2)
            let e0 = (partial &+ high(doubled: na1, e1)) &<< shift
            p.pointee = x0 &+ e0
            x2 = x1
            x1 = x0
            e2 = e1
            e1 = e0
            p += stride
        }
        state = BiquadState(x1: x1, x2: x2, y1: e1, y2: e2)
    }

    static func runBellPair(
        _ samples: UnsafeMutablePointer<Int64>, frames: Int, stride: Int,
        _ c: BiquadFixedCoefficients, _ left: inout BiquadState, _ right: inout BiquadState
    ) {
        let g = c.bellGain &<< 1, na1 = c.negA1 &<< 1, na2 = c.negA2 &<< 1   // doubled: see `high(doubled:_:)`
        let shift = Int64(productShift)
        var lx1 = left.x1, lx2 = left.x2, le1 = left.y1, le2 = left.y2
        var rx1 = right.x1, rx2 = right.x2, re1 = right.y1, re2 = right.y2
        var p = samples
        for _ in 0..<frames {
            let lx0 = p[0]
            let rx0 = p[1]
            let lPartial = high(doubled: g, lx0 &- lx2) &+ high(doubled: na2, le2)
            let rPartial = high(doubled: g, rx0 &- rx2) &+ high(doubled: na2, re2)
            let le0 = (lPartial &+ high(doubled: na1, le1)) &<< shift
            let re0 = (rPartial &+ high(doubled: na1, re1)) &<< shift
            p[0] = lx0 &+ le0
            p[1] = rx0 &+ re0
            lx2 = lx1
            lx1 = lx0
            le2 = le1
            le1 = le0
            rx2 = rx1
            rx1 = rx0
            re2 = re1
            re1 = re0
            p += stride
        }
        left = BiquadState(x1: lx1, x2: lx2, y1: le1, y2: le2)
        right = BiquadState(x1: rx1, x2: rx2, y1: re1, y2: re2)
    }
}
