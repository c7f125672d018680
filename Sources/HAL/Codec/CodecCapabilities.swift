/// One gain stage of a codec, as the layer above needs to know it: range and step in dB.
public struct GainStage: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var minimumDB: Double
    public var maximumDB: Double
    public var stepDB: Double
    /// The stage changes gain only at a zero crossing (no zipper clicks).
    public var zeroCross: Bool
    /// The stage ramps gain changes by itself (soft ramp / soft mute).
    public var softRamp: Bool
    /// The stage has a mute setting below its minimum.
    public var canMute: Bool

    public init(_ name: String, minimumDB: Double, maximumDB: Double, stepDB: Double,
                zeroCross: Bool = false, softRamp: Bool = false, canMute: Bool = true) {
        self.name = name
        self.minimumDB = minimumDB
        self.maximumDB = maximumDB
        self.stepDB = stepDB
        self.zeroCross = zeroCross
        self.softRamp = softRamp
        self.canMute = canMute
    }

    /// How many settings between minimum and maximum (both included).
    public var stepCount: Int { Int(((maximumDB - minimumDB) / stepDB).rounded()) + 1 }

    public var description: String {
        "\(name): \(minimumDB)...\(maximumDB) dB in \(stepDB) dB steps"
            + (zeroCross ? ", zero-cross" : "") + (softRamp ? ", soft ramp" : "")
    }
}

/// The codec's hardware equaliser, if it has one.
public enum HardwareEQ: Hashable, Sendable {
    case none
    case graphic(bands: Int)
    case toneControl
}

/// How the codec tells about a plugged jack.
public enum JackDetectSupport: Hashable, Sendable {
    case none
    /// A GPIO input of the codec can switch the outputs (headphone vs speaker) by itself; the state is not
    /// readable over a write-only control port, so the board still needs a GPIO line to learn it.
    case codecSwitchesOutputs
    /// A status register reports it.
    case statusRegister
}

/// What a codec can do, for the layer above to plan routes and volume.
public struct CodecCapabilities: Hashable, Sendable {
    public var outputs: [CodecOutput]
    public var inputs: [CodecInput]
    /// Gain stages each output's volume is split across, coarse (analog) first.
    public var outputStages: [CodecOutput: [GainStage]]
    /// The input PGA.
    public var inputStages: [GainStage]
    public var sampleRates: [Int]
    public var wordLengths: [Int]
    public var hardwareEQ: HardwareEQ
    public var jackDetect: JackDetectSupport
    public var micBias: Bool

    public init(outputs: [CodecOutput], inputs: [CodecInput], outputStages: [CodecOutput: [GainStage]],
                inputStages: [GainStage], sampleRates: [Int], wordLengths: [Int], hardwareEQ: HardwareEQ,
                jackDetect: JackDetectSupport, micBias: Bool) {
        self.outputs = outputs
        self.inputs = inputs
        self.outputStages = outputStages
        self.inputStages = inputStages
        self.sampleRates = sampleRates
        self.wordLengths = wordLengths
        self.hardwareEQ = hardwareEQ
        self.jackDetect = jackDetect
        self.micBias = micBias
    }
}
