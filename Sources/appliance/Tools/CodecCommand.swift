import ArgumentParser
import Board
import HAL

/// `appliance codec ...`: field diagnostics for the board's codec, for a person with the datasheet, a scope
/// or a logic analyser.
struct CodecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codec",
        abstract: "Show the codec's registers and the I2C writes its operations make.",
        subcommands: [Dump.self, Trace.self]
    )

    /// Which board, and where to find its file.
    struct BoardOptions: ParsableArguments {
        @Option(help: "A board name or board file (default: the HAT's board if its EEPROM names one, else 'simulated').")
        var board: String?

        @Option(help: "Look for board files in this directory first.")
        var boards: String?

        func load() throws -> BoardConfig {
            guard let board else { return BoardCatalog.standard(explicit: boards).detect() ?? SimulatedBoard.config }
            return try BoardCommand.load(board, boards: boards)
        }
    }

    /// The stream and levels an operation uses.
    struct StreamOptions: ParsableArguments {
        @Option(help: "Sample rate in Hz for power-up (and the new rate of rate-change).")
        var rate: Int = 48_000

        @Option(name: .customLong("word-length"), help: "I2S word length in bits.")
        var wordLength: Int = 16

        @Option(parsing: .unconditional, help: "Output level in dB (default: the board's default volume).")
        var volume: Double?

        @Option(help: "Output: headphones, speaker or line (default: the board's default output).")
        var output: String?
    }
}

/// The operations a trace or dump can run, in the order the appliance runs them.
enum CodecOperation: String, CaseIterable {
    case reset
    case powerUp = "power-up"
    case rateChange = "rate-change"
    case volume
    case standby
    case wake
    case powerDown = "power-down"

    static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The operation a command-line word names, or a one-line error listing them.
    static func parse(_ word: String) throws -> CodecOperation {
        guard let operation = CodecOperation(rawValue: word) else {
            throw ValidationError("unknown operation '\(word)'; use one of \(list)")
        }
        return operation
    }
}

extension CodecCommand {
    /// `appliance codec dump [--board B] [--after OP] [--hardware [--read-back]]`
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the codec's registers with their fields decoded.",
            discussion: """
                By default the board's codec runs on its simulated twin (same bus, address and clock), after the \
                operation given with --after, and the dump ends with the analog state the registers imply. \
                With --hardware the real chip on /dev/i2c-N is opened and nothing is written: readable chips \
                (SGTL5000, PCM5122) are read back with --read-back; the WM8960 and WM8731 cannot be read, so only \
                the running appliance knows what they hold.
                """)

        @OptionGroup var board: BoardOptions
        @OptionGroup var stream: StreamOptions

        @Option(help: "Run this operation on the simulated twin first (\(CodecOperation.list)).")
        var after: String?

        @Flag(help: "Open the board's real codec instead of its simulated twin (never writes).")
        var hardware = false

        @Flag(name: .customLong("read-back"), help: "With --hardware: read the registers from the chip.")
        var readBack = false

        func validate() throws {
            if let after { _ = try CodecOperation.parse(after) }
            if hardware && after != nil { throw ValidationError("--after runs on the simulated twin only; drop --hardware") }
            if readBack && !hardware { throw ValidationError("--read-back needs --hardware") }
        }

        func run() throws {
            let config = try board.load()
            let clock = ManualClock(skipsSleeps: true)
            let maximum = config.volume.maximumDB
            let codec = try hardware
                ? BoardCodec.hardware(config.codec, frame: config.i2s, maximumVolumeDB: maximum, clock: SystemClock())
                : BoardCodec.simulated(config.codec, frame: config.i2s, maximumVolumeDB: maximum, clock: clock)
            let after = try self.after.map(CodecOperation.parse)
            var streamRate: Int?
            if let after {
                let session = try CodecSession(config: config, codec: codec, stream: stream)
                try session.prepare(for: after)
                try session.perform(after)
                streamRate = session.streamRate(after: after)
            }
            let target = codec.bus.target
            let source = hardware ? (readBack ? "read back from the chip" : "the driver's cache (nothing written)")
                : "simulated twin" + (after.map { ", after \($0.rawValue)" } ?? ", at power-on")
            print("\(config.codec.chip.displayName) on i2c-\(target.bus) at \(target.address), \(config.codec.clock) "
                + "(board '\(config.name)'; \(source))")
            // The twin can always be read where the chip could be: its status and ID registers then show.
            let read = hardware ? readBack : codec.bus.layout.isReadable
            print(RegisterDump(map: codec.registerMap, cache: codec.registers, layout: codec.bus.layout, readBack: read))
            if let model = codec.model {
                print("")
                print(model.describeState(streamRate: streamRate))
            }
        }
    }

    /// `appliance codec trace OPERATION [--board B] [--rate HZ] [--volume DB] [--output O]`
    struct Trace: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the I2C writes an operation makes on the board's codec, with the reason for each.",
            discussion: """
                Runs on the codec's simulated twin (nothing touches hardware) with the board's bus, address and \
                clock, so the i2ctransfer lines are the bytes a logic analyser sees on the real board. \
                power-up traces from power-on (reset, clocks, levels, power); the other operations start from a \
                powered-up codec at 48000 Hz (rate-change goes to --rate, volume to --volume).
                """)

        @Argument(help: "The operation: \(CodecOperation.list).")
        var operation: String

        func validate() throws { _ = try CodecOperation.parse(operation) }

        @OptionGroup var board: BoardOptions
        @OptionGroup var stream: StreamOptions

        func run() throws {
            let operation = try CodecOperation.parse(self.operation)
            let config = try board.load()
            let codec = try BoardCodec.simulated(config.codec, frame: config.i2s, maximumVolumeDB: config.volume.maximumDB,
                                                 clock: ManualClock(skipsSleeps: true))
            let session = try CodecSession(config: config, codec: codec, stream: stream)
            try session.prepare(for: operation)
            // The driver hands back what it did: each recipe step with the transfers it made.
            codec.codec.transcript = CodecTranscript()
            try session.perform(operation)
            let transcript = codec.codec.transcript ?? CodecTranscript()
            codec.codec.transcript = nil
            let target = codec.bus.target
            print("\(config.codec.chip.displayName) on i2c-\(target.bus) at \(target.address), \(config.codec.clock) "
                + "(board '\(config.name)'): \(operation.rawValue), \(session.summary(of: operation))")
            if let level = session.volumeSet(by: operation) { print(Self.fineGain(of: level)) }
            print(CodecTranscriptReport(transcript: transcript, target: target, layout: codec.bus.layout))
        }

        /// What the codec's steps could not make, as the 8.24 stage applies it:
        /// `speaker -30.25 dB = codec -30.00 dB + fine -0.25 dB: the 8.24 stage scales by 0.97162795 (raw 16301212)`.
        static func fineGain(of level: VolumeSetting) -> String {
            if level.isMuted { return "\(level.output) muted: the 8.24 stage scales by 0 (raw 0)" }
            let gain = level.fineGain
            return "\(level.output) \(formatDecibels(level.levelDB, decimals: 2)) = codec "
                + "\(formatDecibels(level.codecDB, decimals: 2)) + fine \(formatDecibels(level.fineDB, decimals: 2)): "
                + "the 8.24 stage scales by \(formatFixed(gain.doubleValue, decimals: 8)) (raw \(gain.raw))"
        }
    }
}

/// The sequence of driver calls behind each operation, from the board's defaults and the options.
struct CodecSession {
    let config: BoardConfig
    let codec: BoardCodec
    let format: CodecStreamFormat
    let newFormat: CodecStreamFormat
    let output: CodecOutput
    let startVolume: Double
    let newVolume: Double

    init(config: BoardConfig, codec: BoardCodec, stream: CodecCommand.StreamOptions) throws {
        self.config = config
        self.codec = codec
        format = CodecStreamFormat(sampleRate: 48_000, wordLength: stream.wordLength, role: config.codec.role,
                                   frame: config.i2s)
        newFormat = CodecStreamFormat(sampleRate: stream.rate, wordLength: stream.wordLength, role: config.codec.role,
                                      frame: config.i2s)
        if let name = stream.output {
            guard let chosen = CodecOutput(rawValue: name) else {
                throw ValidationError("unknown output '\(name)'; use headphones, speaker or line")
            }
            output = chosen
        } else {
            output = config.route.output
        }
        startVolume = config.volume.defaultDB
        newVolume = stream.volume ?? config.volume.defaultDB
    }

    /// Brings the codec to where `operation` starts (untraced).
    func prepare(for operation: CodecOperation) throws {
        let driver = codec.codec
        switch operation {
        case .reset, .powerUp:
            return
        case .rateChange, .volume, .standby, .powerDown:
            try powerUp(format)
        case .wake:
            try powerUp(format)
            try driver.standby()
        }
    }

    /// Runs `operation`.
    func perform(_ operation: CodecOperation) throws {
        let driver = codec.codec
        switch operation {
        case .reset: try driver.reset()
        case .powerUp: try powerUp(operation == .powerUp ? newFormat : format)
        case .rateChange: try driver.configure(newFormat)
        case .volume: try driver.setVolume(newVolume, output: output)
        case .standby: try driver.standby()
        case .wake: try driver.wake()
        case .powerDown: try driver.powerDown()
        }
    }

    /// From power-on to playing: reset, clocks and format, output and level, power.
    private func powerUp(_ format: CodecStreamFormat) throws {
        let driver = codec.codec
        try driver.reset()
        try driver.configure(format)
        try driver.select(output: output)
        try driver.setVolume(startVolume, output: output)
        try driver.powerUp()
    }

    /// The output level `operation` sets, whose fine part the 8.24 stage applies (nil for the others).
    func volumeSet(by operation: CodecOperation) -> VolumeSetting? {
        switch operation {
        case .powerUp, .volume: codec.codec.volume(of: output)
        case .reset, .rateChange, .standby, .wake, .powerDown: nil
        }
    }

    /// The rate the I2S runs at after `operation` (nil once it stopped).
    func streamRate(after operation: CodecOperation) -> Int? {
        switch operation {
        case .reset, .powerDown, .standby: nil
        case .powerUp, .rateChange: newFormat.sampleRate
        case .volume, .wake: format.sampleRate
        }
    }

    /// What the operation was run with, for the trace's heading.
    func summary(of operation: CodecOperation) -> String {
        switch operation {
        case .reset: "from any state"
        case .powerUp: "\(newFormat), \(output) at \(startVolume) dB"
        case .rateChange: "\(format.sampleRate) Hz -> \(newFormat.sampleRate) Hz while playing"
        case .volume: "\(output) \(startVolume) dB -> \(codec.codec.volume(of: output).levelDB) dB"
        case .standby, .wake, .powerDown: "from \(format), \(output) at \(startVolume) dB"
        }
    }
}
