import RealModule

/// Measures a cascade's magnitude response the way a test set would: play a sine through the 8.24 kernel,
/// wait until the transients have died away, and fit the steady-state output with a sine and a cosine.
///
/// This runs the real fixed-point code, so it checks the design, the quantization and the kernel at once.
/// It is the one measuring routine behind the tests and `appliance eq show`. Control path only: it allocates.
public enum ResponseMeasurement {
    /// Residual transient, relative to the start, that the settling time waits for.
    static let settleTolerance = 1e-7

    /// The gain in dB of `stages` with `inputGain` in front (as a mono `BiquadCascade`) at each of
    /// `frequencies`.
    ///
    /// `amplitude` is the test sine's peak level (full scale is 1.0); keep `amplitude × peak gain` under 128.
    /// The input's own fitted amplitude is the reference, so quantizing the sine to 8.24 cancels out.
    public static func magnitudeDB(
        of stages: [BiquadCoefficients], inputGain: Double = 1, sampleRate: Double, at frequencies: [Double],
        amplitude: Double = 0.25
    ) -> [Double] {
        let cascade = BiquadCascade(stages: stages, channels: 1, inputGain: inputGain)
        let settle = settleFrames(for: stages, sampleRate: sampleRate)
        let chunk = 4096
        let buffer = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: chunk)
        let input = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: chunk)
        defer {
            buffer.deallocate()
            input.deallocate()
        }
        var results: [Double] = []
        results.reserveCapacity(frequencies.count)
        for frequency in frequencies {
            cascade.reset()
            let omega = 2 * Double.pi * frequency / sampleRate
            // At least eight periods and 4096 samples, so the fit averages over whole-ish periods.
            let window = Swift.max(4096, Int((8 * sampleRate / frequency).rounded(.up)))
            var inputFit = SineFit(omega: omega)
            var outputFit = SineFit(omega: omega)
            var n = 0
            let total = settle + window
            while n < total {
                let count = Swift.min(chunk, total - n)
                for i in 0..<count {
                    let sample = Fixed824(amplitude * Double.sin(omega * Double(n + i)))
                    buffer[i] = sample
                    input[i] = sample
                }
                cascade.process(buffer.baseAddress!, frames: count)
                for i in 0..<count where n + i >= settle {
                    inputFit.add(input[i].doubleValue, at: n + i)
                    outputFit.add(buffer[i].doubleValue, at: n + i)
                }
                n += count
            }
            results.append(Decibels.decibels(outputFit.amplitude / inputFit.amplitude))
        }
        return results
    }

    /// The response of `design` as the equalizer runs it.
    public static func magnitudeDB(of design: EQDesign, at frequencies: [Double], amplitude: Double = 0.25) -> [Double] {
        magnitudeDB(of: design.stages, inputGain: design.precutGain, sampleRate: design.sampleRate, at: frequencies,
                    amplitude: amplitude)
    }

    /// Frames until the slowest pole has decayed to `settleTolerance`, at least 1024, at most 20 s.
    public static func settleFrames(for stages: [BiquadCoefficients], sampleRate: Double) -> Int {
        let radius = stages.map(\.poleRadius).max() ?? 0
        let limit = Int(20 * sampleRate)
        guard radius > 0 else { return 1024 }
        guard radius < 1 else { return limit }
        let frames = Double.log(settleTolerance) / Double.log(radius)
        return Swift.min(limit, Swift.max(1024, Int(frames.rounded(.up))))
    }
}

/// Least-squares fit of `a·sin(ωn) + b·cos(ωn)` to a sequence: exact for a pure sinusoid of any length,
/// so the window need not hold a whole number of periods.
struct SineFit {
    let omega: Double
    var ss = 0.0, cc = 0.0, sc = 0.0, ys = 0.0, yc = 0.0

    init(omega: Double) { self.omega = omega }

    mutating func add(_ y: Double, at n: Int) {
        let s = Double.sin(omega * Double(n))
        let c = Double.cos(omega * Double(n))
        ss += s * s
        cc += c * c
        sc += s * c
        ys += y * s
        yc += y * c
    }

    /// The fitted peak amplitude, `sqrt(a² + b²)`.
    var amplitude: Double {
        let det = ss * cc - sc * sc
        guard det != 0 else { return 0 }
        let a = (ys * cc - yc * sc) / det
        let b = (yc * ss - ys * sc) / det
        return Double.sqrt(a * a + b * b)
    }
}
