import RealModule

/// The coefficient table of a rational L/M resampler: a windowed sinc low-pass (Kaiser's window without its
/// pedestal, tapered: `KaiserWindow.taperedValue`) designed in `Double` at the upsampled rate L·f_in, split into L phases of `tapsPerPhase` taps each and quantized to `Int32`.
///
/// Filter specification (relative to the lower of the two rates, `f_low`):
/// - passband 0...0.45·f_low, ripple far below 0.1 dB (about 1e-4 dB);
/// - stopband from 0.5·f_low up, about 100 dB down at the edge and falling fast beyond it, so nothing above the
///   lower Nyquist frequency aliases (downsampling) or images (upsampling) back in, and a 1 kHz tone's images
///   (near multiples of the input rate) are below −145 dB;
/// - cutoff in the middle of the 0.45...0.5 transition band.
///
/// Each phase row is normalized so its taps sum to exactly `unityCoefficient` after quantization (largest
/// remainder rounding): a constant input gives a constant output with no phase-dependent ripple.
///
/// Rows are stored time-reversed (oldest input sample first) and contiguously, so one output sample is a
/// straight dot product of a row with a contiguous history window. Each coefficient is stored offset by
/// `coefficientOffset` as a `UInt32` (always positive: |c| < 2^30), for the converter's unsigned kernel.
///
/// The table is immutable after `init`, so one bank can be shared by several converters of the same rate pair
/// (and across threads). Size is about 132·max(L, M) taps of 4 bytes: 676 kB at worst (11.025 kHz to 32 or
/// 96 kHz, L = 1280), under 100 kB for 44.1 <-> 48 kHz, a few kB for integer ratios.
public final class PolyphaseFilterBank: @unchecked Sendable {
    /// Fractional bits of a coefficient (Q2.29). 29 rather than 30 or 31 bits so that no row's absolute sum can
    /// push a 64-bit accumulator past 2^63 even for the extreme 8.24 input ±128.0: |Σ c·x| < 2^(2+29)·2^31.
    public static let coefficientFractionBits = 29
    /// The value every phase row sums to: 1.0 in Q2.29.
    public static let unityCoefficient: Int64 = 1 << coefficientFractionBits
    /// Added to every stored coefficient (2^30), so the table holds unsigned values: see
    /// `SampleRateConverter.dotProduct`.
    static let coefficientOffset: Int64 = 1 << 30
    /// Upper edge of the passband as a fraction of the lower sample rate.
    public static let passbandEdge = 0.45
    /// Lower edge of the stopband as a fraction of the lower sample rate.
    public static let stopbandEdge = 0.5
    /// The stopband attenuation Kaiser's length formula is asked for. It sizes the filter (135.2 taps per phase
    /// per unit of f_in/f_low, rounded down to a multiple of 4, so the table stays within 136·max(L, M)
    /// coefficients); the window is not Kaiser's own, so β is `windowBeta`, not Kaiser's β for this figure.
    public static let designAttenuation = 105.0
    /// β of the tapered window: at this length it gives about −100 dB at the stopband edge and 1e-4 dB passband
    /// ripple (measured in the tests); larger β trades the edge for the far stopband, smaller the other way.
    public static let windowBeta = 10.4

    public let inputRate: StandardSampleRate
    public let outputRate: StandardSampleRate
    public let ratio: ConversionRatio
    /// Taps per phase: the length of the dot product computed per output sample and channel. A multiple of 4.
    public let tapsPerPhase: Int
    /// Length of the designed prototype filter in upsampled-rate samples (at most L·tapsPerPhase; odd, so the
    /// centre falls on a sample).
    public let prototypeLength: Int
    /// The prototype's group delay in upsampled-rate samples: (prototypeLength − 1) / 2.
    public let prototypeDelay: Int
    /// The window's β.
    public let beta: Double
    /// The largest Σ|c| over the phase rows, in Q2.29 units; below 2^32 by construction (see
    /// `coefficientFractionBits`).
    public let largestRowMagnitudeSum: Int64

    /// L·tapsPerPhase coefficients plus `coefficientOffset`; row `p` (phase p) starts at `p·tapsPerPhase`,
    /// oldest-sample tap first.
    let table: UnsafeMutablePointer<UInt32>

    /// Number of phases (L).
    public var phaseCount: Int { ratio.interpolation }
    /// Bytes held by the coefficient table.
    public var coefficientBytes: Int { phaseCount * tapsPerPhase * MemoryLayout<UInt32>.stride }

    /// Designs the filter for converting `inputRate` to `outputRate`. Allocates and runs the design in `Double`:
    /// call from a control thread, never the render thread. Equal rates give a single unity tap.
    public init(from inputRate: StandardSampleRate, to outputRate: StandardSampleRate) {
        self.inputRate = inputRate
        self.outputRate = outputRate
        let ratio = ConversionRatio(inputHertz: inputRate.hertz, outputHertz: outputRate.hertz)
        self.ratio = ratio
        let phases = ratio.interpolation

        if ratio.isIdentity {
            tapsPerPhase = 1
            prototypeLength = 1
            prototypeDelay = 0
            beta = 0
            largestRowMagnitudeSum = PolyphaseFilterBank.unityCoefficient
            table = .allocate(capacity: 1)
            table[0] = PolyphaseFilterBank.stored(Int32(PolyphaseFilterBank.unityCoefficient))
            return
        }

        // Frequencies in cycles per sample at the upsampled rate L·f_in.
        let upsampledRate = Double(phases) * Double(inputRate.hertz)
        let lowerRate = Double(min(inputRate.hertz, outputRate.hertz))
        let passband = PolyphaseFilterBank.passbandEdge * lowerRate / upsampledRate
        let stopband = PolyphaseFilterBank.stopbandEdge * lowerRate / upsampledRate
        let cutoff = (passband + stopband) / 2
        let attenuation = PolyphaseFilterBank.designAttenuation
        let order = KaiserWindow.order(forAttenuation: attenuation, transitionWidth: stopband - passband)
        let minimumLength = Int(order.rounded(.up)) + 1
        var taps = (minimumLength + phases - 1) / phases
        taps = max(4, taps & ~3)
        tapsPerPhase = taps
        let length = (phases * taps) % 2 == 0 ? phases * taps - 1 : phases * taps
        prototypeLength = length
        prototypeDelay = (length - 1) / 2
        let beta = PolyphaseFilterBank.windowBeta
        self.beta = beta

        table = .allocate(capacity: phases * taps)
        var row = [Double](repeating: 0, count: taps)
        var largest: Int64 = 0
        let centre = Double(prototypeDelay)
        let besselI0OfBeta = KaiserWindow.besselI0(beta)
        for phase in 0..<phases {
            for tap in 0..<taps {
                // Tap `tap` of phase `phase` multiplies the input `tap` frames back from the newest, i.e.
                // prototype index phase + tap·L; it is stored reversed so the oldest sample comes first.
                let index = phase + tap * phases
                var value = 0.0
                if index < length {
                    let offset = Double(index) - centre
                    let window = KaiserWindow.taperedValue(
                        atNormalizedPosition: offset / centre, beta: beta, besselI0OfBeta: besselI0OfBeta)
                    value = PolyphaseFilterBank.sinc(2 * cutoff * offset) * window
                }
                row[taps - 1 - tap] = value
            }
            let quantized = PolyphaseFilterBank.quantizeToUnitySum(row)
            var magnitude: Int64 = 0
            for tap in 0..<taps {
                table[phase * taps + tap] = PolyphaseFilterBank.stored(quantized[tap])
                magnitude += abs(Int64(quantized[tap]))
            }
            largest = max(largest, magnitude)
        }
        largestRowMagnitudeSum = largest
        precondition(largest < (1 << 32), "resampler row gain too large for the 64-bit accumulator")
    }

    deinit { table.deallocate() }

    /// The coefficient (Q2.29) that multiplies the input `age` frames before the newest one, for `phase`.
    public func coefficient(phase: Int, age: Int) -> Int32 {
        precondition(phase >= 0 && phase < phaseCount && age >= 0 && age < tapsPerPhase)
        return Int32(Int64(table[phase * tapsPerPhase + tapsPerPhase - 1 - age]) - PolyphaseFilterBank.coefficientOffset)
    }

    /// A coefficient as the table stores it: plus `coefficientOffset`.
    static func stored(_ coefficient: Int32) -> UInt32 {
        precondition(abs(Int64(coefficient)) < coefficientOffset, "resampler coefficient beyond ±2^30")
        return UInt32(Int64(coefficient) + coefficientOffset)
    }

    /// sin(πx)/(πx).
    static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : Double.sin(Double.pi * x) / (Double.pi * x)
    }

    /// Scales `row` so it sums to 1, rounds each tap to Q2.29 and then nudges the taps whose rounding error was
    /// largest by one LSB each until the integer sum is exactly `unityCoefficient` (largest remainder method).
    static func quantizeToUnitySum(_ row: [Double]) -> [Int32] {
        var sum = 0.0
        for value in row { sum += value }
        let scale = Double(unityCoefficient) / sum
        var exact = [Double](repeating: 0, count: row.count)
        var rounded = [Int64](repeating: 0, count: row.count)
        var total: Int64 = 0
        for i in row.indices {
            exact[i] = row[i] * scale
            rounded[i] = Int64(exact[i].rounded(.toNearestOrEven))
            total += rounded[i]
        }
        var residual = unityCoefficient - total
        // One LSB at a time to the tap whose rounding went furthest the wrong way (a tap is moved at most
        // once while another remains); |residual| is a few LSBs, so the scans are cheap.
        var moved = [Bool](repeating: false, count: row.count)
        while residual != 0 {
            let step: Int64 = residual > 0 ? 1 : -1
            var best = -1
            var bestError = -Double.infinity
            for i in row.indices where !moved[i] {
                let error = (exact[i] - Double(rounded[i])) * Double(step)
                if error > bestError { bestError = error; best = i }
            }
            if best < 0 {
                for i in moved.indices { moved[i] = false }
                continue
            }
            rounded[best] += step
            moved[best] = true
            residual -= step
        }
        return rounded.map { Int32($0) }
    }
}
