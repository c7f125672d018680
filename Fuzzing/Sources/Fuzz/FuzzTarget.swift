import Queue

/// Every fuzz target: one parser of the firmware each, fed the input as an untrusted peer or file would.
enum FuzzTarget: String, CaseIterable {
    case wav, rf64, aiff, caf
    case stream
    case repair
    case flac, mp3, opus, aac, alac
    case board
    case settings
    case console
    case dispatcher

    func run(_ input: [UInt8]) {
        switch self {
        case .wav: ContainerFuzz.run(input, type: .wave, extension: "wav")
        case .rf64: ContainerFuzz.run(input, type: .rf64, extension: "rf64")
        case .aiff: ContainerFuzz.run(input, type: .aiff, extension: "aiff")
        case .caf: ContainerFuzz.run(input, type: .caf, extension: "caf")
        case .flac: ContainerFuzz.run(input, type: .flac, extension: "flac")
        case .mp3: ContainerFuzz.run(input, type: .mp3, extension: "mp3")
        case .opus: ContainerFuzz.run(input, type: .ogg, extension: "opus")
        case .aac: ContainerFuzz.run(input, type: .adts, extension: "aac")
        case .alac: ContainerFuzz.run(input, type: .m4a, extension: "m4a")
        case .stream: StreamFuzz.run(input)
        case .repair: RepairFuzz.run(input)
        case .board: BoardFuzz.run(input)
        case .settings: SettingsFuzz.run(input)
        case .console: ConsoleFuzz.run(input)
        case .dispatcher: DispatcherFuzz.run(input)
        }
    }
}
