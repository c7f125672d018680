import HAL

/// Where audio goes and comes from after start-up, before jack detection says otherwise.
public struct DefaultRoute: Hashable, Sendable {
    public var output: CodecOutput
    /// nil: the board records nothing (DAC-only boards).
    public var input: CodecInput?

    public init(output: CodecOutput, input: CodecInput?) {
        self.output = output
        self.input = input
    }
}
