import Codec8_24

/// The sounds that ship with the appliance, made by the project: synthesized at load time from the designs
/// below (nothing recorded, nothing binary in the tree). All peak at or below half of full scale (−6 dBFS,
/// headroom for mixing over music), start and end at exactly 0, and last well under a second.
///
/// | sound | tones | length |
/// |---|---|---|
/// | click | 2 kHz sine, 0.5 ms attack, 4 ms release | 5 ms |
/// | alert | three 1760 Hz beeps of 100 ms, 60 ms apart | 420 ms |
/// | record start | 880 Hz for 70 ms, then 1320 Hz for 90 ms (a fifth up) | 160 ms |
/// | record stop | 1320 Hz for 70 ms, then 880 Hz for 90 ms (a fifth down) | 160 ms |
/// | error | two 220 Hz band-limited square buzzes of 150 ms, 70 ms apart | 370 ms |
public enum BuiltInSound: String, CaseIterable, Sendable {
    case click
    case alert
    case recordStart = "record-start"
    case recordStop = "record-stop"
    case error

    /// The sound's name as boards and the console spell it.
    public var name: String { rawValue }

    /// What the synthesizer makes.
    public var design: SoundDesign {
        let half = Fixed824(raw: Fixed824.unityRaw / 2)
        switch self {
        case .click:
            return SoundDesign(length: .milliseconds(5), segments: [
                ToneSegment(start: .zero, length: .milliseconds(5), hertz: 2000, amplitude: half,
                            attack: .microseconds(500), release: .milliseconds(4)),
            ])
        case .alert:
            let beeps = (0..<3).map { index in
                ToneSegment(start: .milliseconds(160 * index), length: .milliseconds(100), hertz: 1760,
                            amplitude: half, attack: .milliseconds(5), release: .milliseconds(20))
            }
            return SoundDesign(length: .milliseconds(420), segments: beeps)
        case .recordStart:
            return Self.twoTone(880, 1320)
        case .recordStop:
            return Self.twoTone(1320, 880)
        case .error:
            // The fundamental at 0.4: with its odd harmonics the square peaks near 0.4·1.18·π/4 ≈ 0.37.
            let buzzes = (0..<2).map { index in
                ToneSegment(start: .milliseconds(220 * index), length: .milliseconds(150), hertz: 220,
                            waveform: .square(harmonicsBelow: 4000), amplitude: Fixed824(0.4),
                            attack: .milliseconds(5), release: .milliseconds(25))
            }
            return SoundDesign(length: .milliseconds(370), segments: buzzes)
        }
    }

    /// A two-note chirp: `first` for 70 ms, then `second` for 90 ms, each with its own envelope.
    static func twoTone(_ first: Int, _ second: Int) -> SoundDesign {
        let half = Fixed824(raw: Fixed824.unityRaw / 2)
        return SoundDesign(length: .milliseconds(160), segments: [
            ToneSegment(start: .zero, length: .milliseconds(70), hertz: first, amplitude: half,
                        attack: .milliseconds(4), release: .milliseconds(15)),
            ToneSegment(start: .milliseconds(70), length: .milliseconds(90), hertz: second, amplitude: half,
                        attack: .milliseconds(4), release: .milliseconds(15)),
        ])
    }
}
