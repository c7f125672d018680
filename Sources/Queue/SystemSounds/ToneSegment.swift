import Codec8_24

/// One tone of a synthesized sound: a waveform at a pitch, placed in time, shaped by a linear attack from 0
/// and a linear release back to 0, so the tone starts and ends at exactly 0 and never pops.
public struct ToneSegment: Hashable, Sendable {
    /// What the tone sounds like.
    public enum Waveform: Hashable, Sendable {
        /// A pure sine.
        case sine
        /// A band-limited square: the odd harmonics k·f at amplitude 1/k (the square wave's Fourier series,
        /// without the 4/π) up to `harmonicsBelow` hertz, so it buzzes without aliasing at any engine rate.
        case square(harmonicsBelow: Int)
    }

    /// When the tone begins, from the start of the sound.
    public var start: Duration
    /// How long it lasts, envelope included.
    public var length: Duration
    /// The fundamental, in hertz.
    public var hertz: Int
    public var waveform: Waveform
    /// The fundamental's peak amplitude once the attack is over.
    public var amplitude: Fixed824
    /// Time from 0 to full amplitude, and from full amplitude back to 0 at the end.
    public var attack: Duration
    public var release: Duration

    public init(start: Duration, length: Duration, hertz: Int, waveform: Waveform = .sine, amplitude: Fixed824,
                attack: Duration, release: Duration) {
        self.start = start
        self.length = length
        self.hertz = hertz
        self.waveform = waveform
        self.amplitude = amplitude
        self.attack = attack
        self.release = release
    }

    /// The segment's end, from the start of the sound.
    public var end: Duration { start + length }
}

/// A synthesized sound: its total length and the tones in it (they may overlap; overlapping tones sum).
public struct SoundDesign: Hashable, Sendable {
    public var length: Duration
    public var segments: [ToneSegment]

    public init(length: Duration, segments: [ToneSegment]) {
        self.length = length
        self.segments = segments
    }
}
