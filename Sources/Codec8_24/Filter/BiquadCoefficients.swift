import RealModule

/// One biquad's coefficients in `Double`, normalized so that `a0 == 1`:
/// `y[n] = b0·x[n] + b1·x[n-1] + b2·x[n-2] - a1·y[n-1] - a2·y[n-2]`.
///
/// This is the design side (control path): the cookbook formulas run here, in `Double`, and the
/// fixed-point kernel quantizes the result once (`BiquadFixedCoefficients`).
public struct BiquadCoefficients: Equatable, Sendable {
    public var b0: Double
    public var b1: Double
    public var b2: Double
    public var a1: Double
    public var a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    /// The filter that passes its input unchanged.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// The largest boost or cut the designer accepts; keeps every coefficient well inside the kernel's range.
    public static let gainLimitDB = 24.0
    /// The Q range the designer accepts.
    public static let qRange: ClosedRange<Double> = 0.1...20

    /// Designs one filter with the RBJ Audio-EQ-Cookbook formulas.
    ///
    /// `frequency` is clamped to (0, 0.49·sampleRate], `q` to `qRange` and `gainDB` to ±`gainLimitDB`.
    /// `1 - cos(w0)` is computed as `2·sin²(w0/2)` so that low-frequency designs keep their precision.
    public init(_ type: BiquadType, frequency: Double, q: Double, gainDB: Double = 0, sampleRate: Double) {
        let f = Swift.min(Swift.max(frequency, 1e-3), 0.49 * sampleRate)
        let q = Swift.min(Swift.max(q, Self.qRange.lowerBound), Self.qRange.upperBound)
        let dB = Swift.min(Swift.max(gainDB, -Self.gainLimitDB), Self.gainLimitDB)
        let w0 = 2 * Double.pi * f / sampleRate
        let cosW = Double.cos(w0)
        let sinW = Double.sin(w0)
        let sinHalf = Double.sin(w0 / 2)
        let oneMinusCos = 2 * sinHalf * sinHalf
        let onePlusCos = 2 - oneMinusCos
        let alpha = sinW / (2 * q)
        let a = Double.exp10(dB / 40)   // the cookbook's A: sqrt of the linear gain

        var b0 = 1.0, b1 = 0.0, b2 = 0.0, a0 = 1.0, a1 = 0.0, a2 = 0.0
        switch type {
        case .peaking:
            b0 = 1 + alpha * a
            b1 = -2 * cosW
            b2 = 1 - alpha * a
            a0 = 1 + alpha / a
            a1 = -2 * cosW
            a2 = 1 - alpha / a
        case .lowShelf:
            let twoSqrtAAlpha = 2 * Double.sqrt(a) * alpha
            b0 = a * ((a + 1) - (a - 1) * cosW + twoSqrtAAlpha)
            b1 = 2 * a * ((a - 1) - (a + 1) * cosW)
            b2 = a * ((a + 1) - (a - 1) * cosW - twoSqrtAAlpha)
            a0 = (a + 1) + (a - 1) * cosW + twoSqrtAAlpha
            a1 = -2 * ((a - 1) + (a + 1) * cosW)
            a2 = (a + 1) + (a - 1) * cosW - twoSqrtAAlpha
        case .highShelf:
            let twoSqrtAAlpha = 2 * Double.sqrt(a) * alpha
            b0 = a * ((a + 1) + (a - 1) * cosW + twoSqrtAAlpha)
            b1 = -2 * a * ((a - 1) + (a + 1) * cosW)
            b2 = a * ((a + 1) + (a - 1) * cosW - twoSqrtAAlpha)
            a0 = (a + 1) - (a - 1) * cosW + twoSqrtAAlpha
            a1 = 2 * ((a - 1) - (a + 1) * cosW)
            a2 = (a + 1) - (a - 1) * cosW - twoSqrtAAlpha
        case .lowPass:
            b0 = oneMinusCos / 2
            b1 = oneMinusCos
            b2 = oneMinusCos / 2
            a0 = 1 + alpha
            a1 = -2 * cosW
            a2 = 1 - alpha
        case .highPass:
            b0 = onePlusCos / 2
            b1 = -onePlusCos
            b2 = onePlusCos / 2
            a0 = 1 + alpha
            a1 = -2 * cosW
            a2 = 1 - alpha
        case .bandPass:
            b0 = alpha
            b1 = 0
            b2 = -alpha
            a0 = 1 + alpha
            a1 = -2 * cosW
            a2 = 1 - alpha
        case .notch:
            b0 = 1
            b1 = -2 * cosW
            b2 = 1
            a0 = 1 + alpha
            a1 = -2 * cosW
            a2 = 1 - alpha
        }
        self.init(b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0)
    }

    /// The same filter with its output scaled by `gain` (a linear factor): used to fold a pre-cut into a stage.
    public func scaled(by gain: Double) -> BiquadCoefficients {
        BiquadCoefficients(b0: b0 * gain, b1: b1 * gain, b2: b2 * gain, a1: a1, a2: a2)
    }

    /// The linear magnitude `|H(e^jw)|` at `frequency`.
    ///
    /// Uses the form in `phi = 4·sin²(w/2)`, which keeps its precision at low frequencies where the
    /// direct `cos(w)` form cancels.
    public func magnitude(atFrequency frequency: Double, sampleRate: Double) -> Double {
        let s = Double.sin(Double.pi * frequency / sampleRate)
        let phi = 4 * s * s
        let bSum = b0 + b1 + b2
        let aSum = 1 + a1 + a2
        let numerator = bSum * bSum - phi * (b1 * (b0 + b2) + 4 * b0 * b2) + b0 * b2 * phi * phi
        let denominator = aSum * aSum - phi * (a1 * (1 + a2) + 4 * a2) + a2 * phi * phi
        return Double.sqrt(Swift.max(numerator, 0) / denominator)
    }

    /// The largest pole radius: how slowly this stage forgets, which sets how long a measurement must settle.
    public var poleRadius: Double {
        // Poles are the roots of z² + a1·z + a2.
        let discriminant = a1 * a1 - 4 * a2
        if discriminant < 0 { return Double.sqrt(Swift.max(a2, 0)) }
        let root = Double.sqrt(discriminant)
        return Swift.max(abs((-a1 + root) / 2), abs((-a1 - root) / 2))
    }
}

extension Array where Element == BiquadCoefficients {
    /// The cascade's linear magnitude at `frequency`: the product of its stages' magnitudes.
    public func magnitude(atFrequency frequency: Double, sampleRate: Double) -> Double {
        var product = 1.0
        for stage in self { product *= stage.magnitude(atFrequency: frequency, sampleRate: sampleRate) }
        return product
    }
}
