import HAL

/// The current route: the outputs sounding and, while the capture path is open, the input in use
/// (AVAudioSessionRouteDescription's outputs and inputs; a route has no input while no session records).
public struct AudioRoute: Hashable, Sendable, CustomStringConvertible {
    /// HAL's codec outputs: speaker (or line, on a board without a speaker) with nothing in the jack.
    public var outputs: [CodecOutput]
    /// HAL's codec inputs: the board's `microphone`, `line` in, or a headset's `headsetMicrophone`.
    public var inputs: [CodecInput]

    public init(outputs: [CodecOutput], inputs: [CodecInput] = []) {
        self.outputs = outputs
        self.inputs = inputs
    }

    public var description: String {
        "out: " + outputs.map(\.rawValue).joined(separator: "+") + (inputs.isEmpty ? "" : ", in: " + inputs.map(\.rawValue).joined(separator: "+"))
    }
}
