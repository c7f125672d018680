import Benchmark
import CBaseline
import Codec8_24

/// The 10-band EQ, in Swift and in the plain-C baseline (same numeric contract, checked bit-identical before
/// measuring), and the preset engine around it.
func equalizerBenchmarks() {
    let rock = EQPreset.named("rock")!.design(sampleRate: 48_000)
    // Ten general-form (five-multiply) stages: alternating shelves, the slower kernel.
    var shelfBands: [EQBand] = []
    for i in 0..<10 {
        let type: BiquadType = i % 2 == 0 ? .lowShelf : .highShelf
        let gain: Double = i % 3 == 0 ? 3 : -2
        shelfBands.append(EQBand(type, frequency: 100 * Double(i + 1), q: 0.7, gainDB: gain))
    }
    let shelves = EQDesign(bands: shelfBands, sampleRate: 48_000)
    for (label, design) in [("Rock preset, bell form", rock), ("shelves, general form", shelves)] {
        precondition(design.stages.count == 10, "the EQ benchmarks measure ten stages")
        Benchmark("EQ 10-band stereo, \(label), Swift [\(stereoSamples) samples]") { benchmark in
            let cascade = design.makeCascade(channels: 2)
            let work = noiseBuffer(stereoSamples)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                cascade.process(work)
                blackHole(work[1])
            }
        }
        Benchmark("EQ 10-band stereo, \(label), C baseline [\(stereoSamples) samples]") { benchmark in
            let c = CCascade(design.makeCascade(channels: 2))
            c.checkMatchesSwift(design)
            let work = noiseBuffer(stereoSamples)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                c.process(work)
                blackHole(work[1])
            }
        }
    }
    Benchmark("Equalizer (preset engine) 10-band stereo, Rock [\(stereoSamples) samples]") { benchmark in
        let equalizer = Equalizer(channels: 2, sampleRate: 48_000, preset: EQPreset.named("rock")!)
        let work = noiseBuffer(stereoSamples)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            equalizer.process(work)
            blackHole(work[1])
        }
    }
}

/// The C cascade, set up with exactly the Swift cascade's quantized coefficients.
final class CCascade {
    let channels: Int
    let stages: UnsafeMutableBufferPointer<cb_stage>
    let states: UnsafeMutableBufferPointer<cb_state>
    let scratch: UnsafeMutablePointer<Int64>
    let inputGain: Int64
    let hasInputGain: Int32

    init(_ swift: BiquadCascade) {
        channels = swift.channels
        stages = .allocate(capacity: swift.stageCount)
        for s in 0..<swift.stageCount {
            let f = swift.fixedCoefficients(stage: s)
            stages[s] = cb_stage(b0: f.b0, b1: f.b1, b2: f.b2, neg_a1: f.negA1, neg_a2: f.negA2,
                                 bell_gain: f.bellGain, is_bell: f.isBell ? 1 : 0)
        }
        states = .allocate(capacity: swift.stageCount * channels)
        states.initialize(repeating: cb_state(x1: 0, x2: 0, y1: 0, y2: 0))
        scratch = .allocate(capacity: 128 * channels)
        let gain = BiquadFixedCoefficients(BiquadCoefficients(b0: swift.inputGain, b1: 0, b2: 0, a1: 0, a2: 0))
        inputGain = gain.b0
        hasInputGain = swift.inputGain != 1 ? 1 : 0
    }

    func process(_ buffer: UnsafeMutableBufferPointer<Fixed824>) {
        buffer.withMemoryRebound(to: Int32.self) { raw in
            cb_cascade_process(stages.baseAddress, Int32(stages.count), states.baseAddress, raw.baseAddress,
                               Int32(raw.count / channels), Int32(channels), inputGain, hasInputGain, scratch)
        }
    }

    /// The baseline only means something if it computes the same thing: compare a few periods bit for bit.
    func checkMatchesSwift(_ design: EQDesign) {
        let swift = design.makeCascade(channels: channels)
        let probe = CCascade(swift)
        let a = noiseBuffer(stereoSamples * 4, seed: 99), b = noiseBuffer(stereoSamples * 4, seed: 99)
        swift.process(a)
        probe.process(b)
        precondition(Array(a) == Array(b), "the C baseline and the Swift cascade disagree")
    }
}
