import Codec8_24
import Glibc

/// One PEQ biquad as the SGTL5000's DAP takes it: five 20-bit two's-complement coefficients with 18
/// fraction bits (1.0 = 0x40000, range -2...+2), and the feedback coefficients with the sign the DAP adds
/// them with: `y = b0 x + b1 x1 + b2 x2 + a1 y1 + a2 y2`, so `a1`/`a2` here are the negated cookbook ones.
/// Each goes out as bits 19:4 in the MSB register and 3:0 in the LSB register.
public struct SGTL5000Biquad: Hashable, Sendable {
    /// b0, b1, b2, a1, a2 as 20-bit values (sign-extended into Int32).
    public var raw: [Int32]

    public static let fractionBits = 18
    public static let one = Int32(1) << 18
    public static let rawRange = -(Int32(1) << 19)...((Int32(1) << 19) - 1)

    public init(raw: [Int32]) {
        precondition(raw.count == 5)
        self.raw = raw
    }

    /// Quantizes `stage` (cookbook sign convention, a0 = 1). The DC sums `b0 + b1 + b2` and
    /// `1 + a1 + a2` are quantized as wholes and `b1`, `a1` take what is left, so low corners and shelves
    /// keep their DC gain (a high-pass keeps its zero at DC) instead of drifting by a rounding step over a
    /// denominator near zero. Nil when a coefficient falls outside -2...+2.
    public init?(_ stage: BiquadCoefficients) {
        let scale = Double(Self.one)
        func q(_ x: Double) -> Int64 { Int64((x * scale).rounded()) }
        let b0 = q(stage.b0), b2 = q(stage.b2)
        let b1 = q(stage.b0 + stage.b1 + stage.b2) - b0 - b2
        let a2 = q(-stage.a2)
        let a1 = q(-(1 + stage.a1 + stage.a2)) + Int64(Self.one) - a2
        let values = [b0, b1, b2, a1, a2]
        guard values.allSatisfy({ Int64(Self.rawRange.lowerBound) <= $0 && $0 <= Int64(Self.rawRange.upperBound) }) else {
            return nil
        }
        raw = values.map { Int32($0) }
    }

    /// The biquad the quantized values make, in the cookbook convention (for responses).
    public var coefficients: BiquadCoefficients {
        let scale = Double(Self.one)
        return BiquadCoefficients(b0: Double(raw[0]) / scale, b1: Double(raw[1]) / scale, b2: Double(raw[2]) / scale,
                                  a1: -Double(raw[3]) / scale, a2: -Double(raw[4]) / scale)
    }

    /// The MSB/LSB register values of coefficient `index` (0 = b0 ... 4 = a2).
    public func registerValues(_ index: Int) -> (msb: RegisterValue, lsb: RegisterValue) {
        let bits = UInt32(bitPattern: raw[index]) & 0xFFFFF
        return (RegisterValue(bits >> 4), RegisterValue(bits & 0xF))
    }

    /// The coefficient the MSB/LSB registers hold (sign-extended from 20 bits).
    public static func coefficient(msb: RegisterValue, lsb: RegisterValue) -> Int32 {
        let bits = UInt32(msb) << 4 | UInt32(lsb & 0xF)
        return Int32(bitPattern: bits << 12) >> 12
    }
}

/// What the SGTL5000's DAP is asked to do for a preset.
public enum SGTL5000EQSetting: Hashable, Sendable {
    /// The 5-band graphic EQ with these band codes (0x00 = -11.75 dB, 0x2F = 0 dB, 0x5F = +12 dB).
    case graphic(bandCodes: [RegisterValue], mainChannel: RegisterValue)
    /// The PEQ with these filters (at most 7), in order.
    case parametric(filters: [SGTL5000Biquad], mainChannel: RegisterValue)
}

/// The decision for one preset at one sample rate: the path, the hardware setting when it is the
/// hardware's, and how far the hardware's modelled response strays from the preset's design.
public struct SGTL5000EQPlan: Hashable, Sendable {
    public var path: EQPath
    public var setting: SGTL5000EQSetting?
    /// Max |hardware - design| over the check frequencies, in dB (of the best hardware candidate).
    public var maxDeviationDB: Double
}

/// Maps a Codec8_24 `EQPreset` onto the SGTL5000's digital audio processor (DAP) when it fits, and says
/// when the 8.24 software EQ must run it instead.
///
/// "Fits" is decided numerically: the preset's designed response (`EQDesign.responseDB`, pre-cut included)
/// against the hardware setting's modelled response at 1/6-octave points from 20 Hz to 20 kHz (below 0.45 fs);
/// the hardware path is taken when the largest difference is within `toleranceDB` (1.0 dB).
///
/// Choices, in order:
/// 1. A flat preset: the graphic EQ with every band at 0 dB (exactly flat).
/// 2. At most 7 active bands: the 7-band PEQ. Its biquads are the design's own, quantized to the DAP's
///    20-bit coefficients, so the modelled response is the design's up to quantization (a few hundredths of
///    a dB); the pre-cut goes to DAP_MAIN_CHAN (0x8000 = unity), which sits before the EQ like the design's.
///    This is preferred because it is exact, not an approximation.
/// 3. Otherwise (the 10-band graphic presets, or a PEQ that strays): two approximations, the closer wins if
///    it is within tolerance: the PEQ with the 7 strongest bands (pass filters first, then by |gain|), and
///    the 5-band graphic EQ with band gains fitted by least squares to the design and rounded to its 0.25 dB
///    steps (-11.75...+12 dB). The datasheet gives the graphic bands' centres (115, 330, 990, 3000, 9900
///    Hz), range and step but not their shape; the model takes each band as a peaking biquad with
///    `graphicQ` = 0.87 (one band per 1.6 octaves, the centres' spacing), in cascade, an assumption.
/// A preset neither can follow (a 31 Hz or 16 kHz band the graphic EQ has no band for, more strong bands
/// than the PEQ has filters) goes to software, and the reason names each candidate's worst frequency.
public enum SGTL5000Equalizer {
    public static let toleranceDB = 1.0
    public static let graphicCentres: [Double] = [115, 330, 990, 3000, 9900]
    public static let graphicQ = 0.87
    public static let graphicRange = -11.75...12.0
    public static let graphicStepDB = 0.25
    public static let peqFilters = 7
    /// DAP_MAIN_CHAN's unity (100 %).
    public static let mainChannelUnity = 0x8000

    /// The frequencies the responses are compared at: 20 Hz x 2^(k/6) up to 20 kHz, below 0.45 fs.
    public static func checkFrequencies(sampleRate: Double) -> [Double] {
        let top = Swift.min(20_000, EQBand.maximumFrequencyRatio * sampleRate)
        return (0...60).map { 20 * pow(2, Double($0) / 6) }.filter { $0 <= top }
    }

    /// The graphic EQ band code for `dB` (nearest 0.25 dB step, clamped to the range).
    public static func graphicCode(_ dB: Double) -> RegisterValue {
        let clamped = Swift.max(graphicRange.lowerBound, Swift.min(graphicRange.upperBound, dB))
        return RegisterValue(Int(((clamped - graphicRange.lowerBound) / graphicStepDB).rounded()))
    }

    public static func graphicDB(code: RegisterValue) -> Double {
        graphicRange.lowerBound + Double(Swift.min(code, 0x5F)) * graphicStepDB
    }

    /// DAP_MAIN_CHAN for a gain in dB (at most about +6 dB).
    public static func mainChannelCode(_ dB: Double) -> RegisterValue {
        RegisterValue(Swift.max(0, Swift.min(0xFFFF, Int((Decibels.linear(dB) * Double(mainChannelUnity)).rounded()))))
    }

    public static func mainChannelDB(code: RegisterValue) -> Double {
        Decibels.decibels(Double(code) / Double(mainChannelUnity))
    }

    /// The hardware's modelled response in dB at `frequency` for `setting`.
    public static func responseDB(of setting: SGTL5000EQSetting, at frequency: Double, sampleRate: Double) -> Double {
        switch setting {
        case .graphic(let codes, let main):
            return mainChannelDB(code: main) + graphicStages(codes: codes, sampleRate: sampleRate)
                .reduce(0) { $0 + Decibels.decibels($1.magnitude(atFrequency: frequency, sampleRate: sampleRate)) }
        case .parametric(let filters, let main):
            return mainChannelDB(code: main) + filters
                .reduce(0) { $0 + Decibels.decibels($1.coefficients.magnitude(atFrequency: frequency, sampleRate: sampleRate)) }
        }
    }

    /// The graphic EQ modelled as biquads (see the type's comment for the assumed shape).
    public static func graphicStages(codes: [RegisterValue], sampleRate: Double) -> [BiquadCoefficients] {
        zip(graphicCentres, codes).compactMap { centre, code in
            let gain = graphicDB(code: code)
            guard gain != 0, centre <= EQBand.maximumFrequencyRatio * sampleRate else { return nil }
            return BiquadCoefficients(.peaking, frequency: centre, q: graphicQ, gainDB: gain, sampleRate: sampleRate)
        }
    }

    /// The largest |hardware - design| and where it is.
    public static func deviation(of setting: SGTL5000EQSetting, from design: EQDesign) -> (dB: Double, frequency: Double) {
        var worst = (dB: 0.0, frequency: 0.0)
        for f in checkFrequencies(sampleRate: design.sampleRate) {
            let difference = abs(responseDB(of: setting, at: f, sampleRate: design.sampleRate) - design.responseDB(at: f))
            if difference > worst.dB { worst = (difference, f) }
        }
        return worst
    }

    /// The plan for `preset` at `sampleRate`.
    public static func plan(_ preset: EQPreset, sampleRate: Double) -> SGTL5000EQPlan {
        let design = preset.design(sampleRate: sampleRate)
        if design.stages.isEmpty {
            let setting = SGTL5000EQSetting.graphic(bandCodes: Array(repeating: graphicCode(0), count: 5),
                                                    mainChannel: mainChannelCode(0))
            return SGTL5000EQPlan(path: .hardware("'\(preset.name)': graphic EQ, all five bands at 0 dB"),
                                  setting: setting, maxDeviationDB: deviation(of: setting, from: design).dB)
        }
        var reasons: [String] = []
        if design.stages.count <= peqFilters {
            if let filters = quantizedPEQ(design.stages, precutDB: design.precutDB) {
                let setting = SGTL5000EQSetting.parametric(filters: filters.filters, mainChannel: filters.mainChannel)
                let worst = deviation(of: setting, from: design)
                if worst.dB <= toleranceDB {
                    return SGTL5000EQPlan(
                        path: .hardware("'\(preset.name)': \(filters.filters.count)-band PEQ, within \(rounded(worst.dB)) dB of the design"),
                        setting: setting, maxDeviationDB: worst.dB)
                }
                reasons.append("the PEQ strays \(rounded(worst.dB)) dB at \(Int(worst.frequency.rounded())) Hz")
            } else {
                reasons.append("a band's coefficients exceed the PEQ's -2...+2 range")
            }
        }
        // Approximations: the graphic EQ, and (for more than 7 bands) the PEQ with the 7 strongest bands;
        // the closer one wins if it is within tolerance.
        var candidates: [(setting: SGTL5000EQSetting, name: String)] = [(graphicFit(design), "the 5-band graphic EQ")]
        if design.stages.count > peqFilters {
            reasons.append("\(design.stages.count) bands, the PEQ has \(peqFilters)")
            let strongest = design.bands.indices
                .sorted { strength(design.bands[$0]) > strength(design.bands[$1]) }
                .prefix(peqFilters).sorted()
            if let filters = quantizedPEQ(strongest.map { design.stages[$0] }, precutDB: design.precutDB) {
                candidates.append((.parametric(filters: filters.filters, mainChannel: filters.mainChannel),
                                   "the PEQ with the \(peqFilters) strongest bands"))
            }
        }
        var best: (setting: SGTL5000EQSetting, name: String, dB: Double, frequency: Double)?
        for candidate in candidates {
            let worst = deviation(of: candidate.setting, from: design)
            if worst.dB <= toleranceDB, best == nil || worst.dB < best!.dB {
                best = (candidate.setting, candidate.name, worst.dB, worst.frequency)
            } else if worst.dB > toleranceDB {
                reasons.append("\(candidate.name) strays \(rounded(worst.dB)) dB at \(Int(worst.frequency.rounded())) Hz")
            }
        }
        if let best {
            return SGTL5000EQPlan(path: .hardware("'\(preset.name)': \(best.name), within \(rounded(best.dB)) dB of the design"),
                                  setting: best.setting, maxDeviationDB: best.dB)
        }
        let closest = candidates.map { deviation(of: $0.setting, from: design).dB }.min() ?? .infinity
        return SGTL5000EQPlan(
            path: .software("'\(preset.name)': " + reasons.joined(separator: "; ")
                            + " (tolerance \(toleranceDB) dB)"),
            setting: nil, maxDeviationDB: closest)
    }

    /// How much a band shapes the response, for choosing which to keep: its gain, and filters without a
    /// gain (high- and low-pass, notch) first.
    static func strength(_ band: EQBand) -> Double {
        band.type.usesGain ? abs(band.gainDB) : .infinity
    }

    /// `stages` quantized for the PEQ, the pre-cut on DAP_MAIN_CHAN; when a stage's coefficients exceed
    /// the DAP's range (a treble shelf's b0 near 2), the pre-cut is folded into that stage instead.
    static func quantizedPEQ(_ stages: [BiquadCoefficients], precutDB: Double)
        -> (filters: [SGTL5000Biquad], mainChannel: RegisterValue)? {
        let direct = stages.compactMap(SGTL5000Biquad.init)
        if direct.count == stages.count { return (direct, mainChannelCode(precutDB)) }
        guard let failing = stages.firstIndex(where: { SGTL5000Biquad($0) == nil }) else { return nil }
        var folded = stages
        folded[failing] = stages[failing].scaled(by: Decibels.linear(precutDB))
        let filters = folded.compactMap(SGTL5000Biquad.init)
        return filters.count == stages.count ? (filters, mainChannelCode(0)) : nil
    }

    /// Graphic band codes fitted to the design by least squares on the check frequencies (three rounds
    /// of a linearised fit: each band's shape at 1 dB, corrected against the full model), pre-cut on
    /// DAP_MAIN_CHAN.
    static func graphicFit(_ design: EQDesign) -> SGTL5000EQSetting {
        let fs = design.sampleRate
        let frequencies = checkFrequencies(sampleRate: fs)
        let target = frequencies.map { design.responseDB(at: $0) - design.precutDB }
        let shapes: [[Double]] = graphicCentres.map { centre in
            let unit = BiquadCoefficients(.peaking, frequency: centre, q: graphicQ, gainDB: 1, sampleRate: fs)
            return frequencies.map { Decibels.decibels(unit.magnitude(atFrequency: $0, sampleRate: fs)) }
        }
        var gains = [Double](repeating: 0, count: 5)
        for _ in 0..<3 {
            let codes = gains.map { graphicCode($0) }
            let model = frequencies.map { f in
                graphicStages(codes: codes, sampleRate: fs)
                    .reduce(0) { $0 + Decibels.decibels($1.magnitude(atFrequency: f, sampleRate: fs)) }
            }
            let residual = zip(target, model).map { $0 - $1 }
            let step = leastSquares(shapes, residual)
            gains = zip(gains, step).map { $0 + $1 }
        }
        return .graphic(bandCodes: gains.map { graphicCode($0) }, mainChannel: mainChannelCode(design.precutDB))
    }

    /// Solves min |Σ x_i columns_i - y|² by the normal equations (5 unknowns), Gaussian elimination.
    static func leastSquares(_ columns: [[Double]], _ y: [Double]) -> [Double] {
        let n = columns.count
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        for i in 0..<n {
            for j in 0..<n { matrix[i][j] = zip(columns[i], columns[j]).reduce(0) { $0 + $1.0 * $1.1 } }
            matrix[i][n] = zip(columns[i], y).reduce(0) { $0 + $1.0 * $1.1 }
        }
        for pivot in 0..<n {
            let best = (pivot..<n).max { abs(matrix[$0][pivot]) < abs(matrix[$1][pivot]) } ?? pivot
            matrix.swapAt(pivot, best)
            let p = matrix[pivot][pivot]
            guard abs(p) > 1e-12 else { continue }
            for row in 0..<n where row != pivot {
                let factor = matrix[row][pivot] / p
                for column in pivot...n { matrix[row][column] -= factor * matrix[pivot][column] }
            }
        }
        return (0..<n).map { abs(matrix[$0][$0]) > 1e-12 ? matrix[$0][n] / matrix[$0][$0] : 0 }
    }

    static func rounded(_ dB: Double) -> String {
        let hundredths = Int((dB * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
