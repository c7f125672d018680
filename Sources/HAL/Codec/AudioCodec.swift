import Codec8_24

/// What the appliance asks of the codec on its board, whatever the chip: the driver turns each call into
/// an ordered recipe of register writes (see `CodecRecipe`) and keeps a cache of what the chip holds.
///
/// Calls block for I2C transfers and the documented delays; use them on a control thread only.
public protocol AudioCodec: AnyObject {
    /// The chip's name ("WM8960").
    var name: String { get }
    var capabilities: CodecCapabilities { get }
    /// The driver's copy of the chip's registers; `registers.bus` is the bus the driver talks through (a
    /// paged chip's page-select wrapper), which a dump reads through too.
    var registers: RegisterCache { get }

    /// Soft-resets the chip and identifies it (by its ID register where it has one). Afterwards every
    /// register holds its reset value: outputs off and muted.
    @discardableResult
    func reset() throws(CodecError) -> CodecIdentity

    /// Programs clocks, word length and framing for `format`; refuses a rate it cannot make exactly.
    func configure(_ format: CodecStreamFormat) throws(CodecError)

    /// Off to playing, without pops: outputs muted, references first, then converters and outputs, then
    /// unmute. Needs `configure` first.
    func powerUp() throws(CodecError)
    /// Playing to off, the reverse.
    func powerDown() throws(CodecError)
    /// Outputs muted and off, references kept at low power, so `wake()` is quick and quiet.
    func standby() throws(CodecError)
    func wake() throws(CodecError)

    func select(output: CodecOutput) throws(CodecError)
    /// Selects an input with mic bias on or off and a PGA gain; returns the gain the PGA actually got
    /// (the nearest step inside its range).
    @discardableResult
    func select(input: CodecInput, micBias: Bool, pgaGainDB: Double) throws(CodecError) -> Double

    /// Sets `output` to `dB` (capped at the board maximum), split across the codec's stages; returns the
    /// split, whose `fineGain` the caller hands to the output chain's `FineGainStage` (Codec8_24).
    @discardableResult
    func setVolume(_ dB: Double, output: CodecOutput) throws(CodecError) -> VolumeSetting
    /// The output's level as last set.
    func volume(of output: CodecOutput) -> VolumeSetting

    /// Runs `preset` on the codec's own EQ when it fits (within the chip's tolerance of the preset's
    /// design), and says which path is active: on `.software` the caller runs it in the 8.24 EQ instead.
    @discardableResult
    func apply(preset: EQPreset) throws(CodecError) -> EQPath
    /// Where the last preset runs.
    var activeEQPath: EQPath { get }

    /// What the driver did on its control port while this is set: nil (the default) collects nothing;
    /// set it to an empty transcript, run operations, then read it back. Each recipe's steps arrive with
    /// the exchanges they caused, as `CodecRecipe.run` returned them.
    var transcript: CodecTranscript? { get set }
}

/// Chips without a hardware EQ: every preset runs in the 8.24 EQ.
extension AudioCodec {
    @discardableResult
    public func apply(preset: EQPreset) throws(CodecError) -> EQPath { activeEQPath }

    public var activeEQPath: EQPath {
        .software("the \(name) has no hardware EQ: the 8.24 EQ runs every preset")
    }
}

/// What `reset()` learnt about the chip.
public struct CodecIdentity: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    /// The chip ID register's value, where the chip has one.
    public var chipID: UInt16?
    /// How the identity was established.
    public var evidence: String

    public init(name: String, chipID: UInt16?, evidence: String) {
        self.name = name
        self.chipID = chipID
        self.evidence = evidence
    }

    public var description: String {
        name + (chipID.map { " (ID 0x" + String($0, radix: 16, uppercase: true) + ")" } ?? "") + ": " + evidence
    }
}
