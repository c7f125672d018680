import Board
import Codec8_24
import HAL
import Queue

/// Turns one console line into a `ConsoleCommand`, or into the `ERR` reply that says what is wrong with it.
/// The same for every connection (serial, stdin, control socket): it checks form, never state, and never
/// changes anything, so a rejected line leaves the appliance as it was.
enum ConsoleParser {
    /// What a line became.
    enum Outcome: Hashable, Sendable {
        /// Only blanks: no reply at all (a person pressed Enter).
        case empty
        case command(ConsoleCommand)
        case rejected(ConsoleReply)
    }

    /// The longest line taken, in bytes without the line end (a path of PATH_MAX fits in four of these
    /// no more than a person types; anything longer is a runaway sender).
    static let maximumLineBytes = 1024

    /// Parses the bytes of one line (without its `\n`; a final `\r` is ignored).
    static func parse(_ bytes: [UInt8]) -> Outcome {
        var bytes = bytes[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard bytes.count <= maximumLineBytes else { return .rejected(overlong(bytes.count)) }
        if let control = bytes.first(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 == 0x7F }) {
            let hex = String(control, radix: 16, uppercase: true)
            return .rejected(.error(.input, "the line holds a control character (0x\(hex.count == 1 ? "0" + hex : hex)); type text only"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .rejected(.error(.input, "the line is not UTF-8 text"))
        }
        return parse(text)
    }

    /// Parses a line already known to be text.
    static func parse(_ line: String) -> Outcome {
        let words: [Word]
        switch split(line) {
        case .success(let split): words = split
        case .failure(let reply): return .rejected(reply)
        }
        guard let first = words.first else { return .empty }
        let name = first.text.lowercased()
        guard let entry = ConsoleHelp.entry(name) else { return .rejected(unknownCommand(first.text)) }
        var arguments = Arguments(entry: entry, words: Array(words.dropFirst()), line: line)
        do throws(ConsoleReply) {
            return .command(try command(name, &arguments))
        } catch {
            return .rejected(error)
        }
    }

    /// `ERR input` for a line of `count` bytes, over the limit.
    static func overlong(_ count: Int) -> ConsoleReply {
        .error(.input, "the line is \(count) bytes long; at most \(maximumLineBytes)")
    }

    /// `ERR unknown` for a word that is not a command, with the nearest command when one is close.
    static func unknownCommand(_ word: String) -> ConsoleReply {
        let shown = word.count > 40 ? String(word.prefix(40)) + "..." : word
        if let near = NearMatch.closest(to: word, in: ConsoleHelp.names) {
            return .error(.unknown, "'\(shown)' is not a command; did you mean '\(near)'? ('help' lists them)")
        }
        return .error(.unknown, "'\(shown)' is not a command ('help' lists them)")
    }

    // MARK: - Commands

    private static func command(_ name: String, _ arguments: inout Arguments) throws(ConsoleReply) -> ConsoleCommand {
        switch name {
        case "help":
            guard let topic = try arguments.optionalWord() else { return .help(nil) }
            try arguments.end()
            guard ConsoleHelp.entry(topic.lowercased()) != nil else { throw unknownCommand(topic) }
            return .help(topic.lowercased())
        case "status": try arguments.end(); return .status
        case "play": return .player(.play(try arguments.rest()))
        case "pause": try arguments.end(); return .player(.pause)
        case "resume": try arguments.end(); return .player(.resume)
        case "stop": try arguments.end(); return .stop
        case "next": try arguments.end(); return .player(.next)
        case "prev": try arguments.end(); return .player(.previous)
        case "seek":
            let word = try arguments.requiredWord("a position")
            try arguments.end()
            guard let target = seekTarget(word) else { throw arguments.usage("'\(word)' is not a position") }
            return .player(.seek(target))
        case "ls": return .player(.list(try arguments.rest()))
        case "rm":
            guard let path = try arguments.rest() else { throw arguments.usage("a PATH is needed") }
            return .player(.remove(path))
        case "repeat": return .player(.repeatMode(try arguments.optionalChoice(RepeatMode.self)))
        case "shuffle": return .player(.shuffle(try arguments.optionalSwitch()))
        case "replaygain": return .player(.replayGain(try replayGainChange(&arguments)))
        case "record": return .recorder(.start(try recordOptions(&arguments)))
        case "mark": return .recorder(.mark(try arguments.rest()))
        case "meter": return .recorder(.meter(try arguments.optionalSwitch()))
        case "vol": return .audio(.volume(try volumeChange(&arguments)))
        case "mute": return .audio(.mute(try arguments.optionalSwitch()))
        case "eq":
            guard let word = try arguments.rest() else { return .audio(.eq(.show)) }
            switch word.lowercased() {
            case "show": return .audio(.eq(.show))
            case "list": return .audio(.eq(.list))
            default:
                if let preset = EQPreset.named(word) { return .audio(.eq(.preset(preset.name))) }
                var near = EQPreset.closeMatches(to: word).map { "'\($0.name)'" }
                // Two letters swapped ("rokc") is one slip for NearMatch, two edits for closeMatches.
                if near.isEmpty, let swapped = NearMatch.closest(to: word, in: EQPreset.all.map(\.name)) { near = ["'\(swapped)'"] }
                let hint = near.isEmpty ? "" : "; did you mean \(near.joined(separator: " or "))?"
                throw ConsoleReply.error(.notFound, "no EQ preset '\(word)'\(hint) ('eq list' shows them)")
            }
        case "route": return .audio(.route(try arguments.optionalChoice(RouteRequest.self)))
        case "input": return .audio(.input(try arguments.optionalChoice(InputChoice.self)))
        case "sounds":
            guard let word = try arguments.optionalWord() else { return .sounds(nil) }
            try arguments.end()
            guard let sound = BuiltInSound(rawValue: word.lowercased()) else {
                let near = NearMatch.closest(to: word, in: BuiltInSound.allCases.map(\.name))
                throw ConsoleReply.error(.notFound, "no system sound '\(word)'"
                                         + (near.map { "; did you mean '\($0)'?" } ?? "") + " ('sounds' lists them)")
            }
            return .sounds(sound.name)
        case "button":
            let button = try arguments.requiredWord("a button NAME")
            guard button.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw arguments.usage("'\(button)' is not a button name (letters, digits, - and _)")
            }
            guard let gesture = try arguments.optionalChoice(SimulatedGesture.self) else {
                throw arguments.usage("a gesture is needed")
            }
            return .button(name: button, gesture: gesture)
        case "jack":
            switch try arguments.requiredWord("in or out").lowercased() {
            case "out": try arguments.end(); return .jack(.unplugged)
            case "in":
                guard let kind = try arguments.optionalWord() else { return .jack(.headphones) }
                try arguments.end()
                switch kind.lowercased() {
                case "headphones": return .jack(.headphones)
                case "headset": return .jack(.headset)
                default: throw arguments.usage("'\(kind)' is not headphones or headset")
                }
            case let other: throw arguments.usage("'\(other)' is not in or out")
            }
        case "board": try arguments.end(); return .board
        case "stats": try arguments.end(); return .stats
        case "selftest": try arguments.end(); return .selftest
        case "events":
            guard let on = try arguments.optionalSwitch() else { throw arguments.usage("on or off is needed") }
            return .events(on)
        case "shutdown": try arguments.end(); return .shutdown
        default:
            throw unknownCommand(name)
        }
    }

    /// `SECONDS`, `+SECONDS`, `-SECONDS`, `MM:SS`, `H:MM:SS`.
    private static func seekTarget(_ word: String) -> SeekTarget? {
        if let sign = word.first, sign == "+" || sign == "-" {
            guard let seconds = decimal(word.dropFirst()) else { return nil }
            return .relative(seconds: sign == "-" ? -seconds : seconds)
        }
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let last = decimal(parts.last!) else { return nil }
        if parts.count == 1 { return .absolute(seconds: last) }
        // Minutes and seconds of a clock: each field after the first below 60.
        guard last < 60 else { return nil }
        var seconds = last
        var scale = 60.0
        for (index, part) in parts.dropLast().reversed().enumerated() {
            guard let value = Int(part), value >= 0, part.allSatisfy(\.isASCII) else { return nil }
            if index == 0 && parts.count == 3 && value >= 60 { return nil }
            seconds += Double(value) * scale
            scale *= 60
        }
        return .absolute(seconds: seconds)
    }

    /// `off|track|album`, `preamp NdB` (or `preamp N dB`, `preamp N`), or nothing.
    private static func replayGainChange(_ arguments: inout Arguments) throws(ConsoleReply) -> ReplayGainChange? {
        guard let word = try arguments.optionalWord() else { return nil }
        guard word.lowercased() == "preamp" else {
            try arguments.end()
            guard let mode = ReplayGainMode(rawValue: word.lowercased()) else {
                throw arguments.usage("'\(word)' is not off, track, album or preamp")
            }
            return .mode(mode)
        }
        var level = try arguments.requiredWord("a level in dB after preamp")
        if let unit = try arguments.optionalWord() {
            guard unit.lowercased() == "db" else { throw arguments.usage("'\(unit)' after the preamp level") }
            level += unit
        }
        try arguments.end()
        let number = level.lowercased().hasSuffix("db") ? level.dropLast(2) : level[...]
        let range = AppliedReplayGain.preampRange
        guard let value = signedDecimal(number), range.contains(value) else {
            throw arguments.usage("preamp \(level): not a level of \(Int(range.lowerBound)) to +\(Int(range.upperBound)) dB")
        }
        return .preamp(value)
    }

    /// `12`, `+1.5`, `-12` as a number (a sign, then `decimal`'s digits).
    private static func signedDecimal(_ number: Substring) -> Double? {
        let negative = number.first == "-"
        let digits = negative || number.first == "+" ? number.dropFirst() : number
        return decimal(digits).map { negative ? -$0 : $0 }
    }

    /// `40`, `+5`, `-5`, `-12dB` (or `-12 dB`).
    private static func volumeChange(_ arguments: inout Arguments) throws(ConsoleReply) -> VolumeChange? {
        guard var word = try arguments.optionalWord() else { return nil }
        if let unit = try arguments.optionalWord() {
            guard unit.lowercased() == "db" else { throw arguments.usage("'\(unit)' after the volume") }
            word += unit
        }
        if word.lowercased().hasSuffix("db") {
            guard let value = signedDecimal(word.dropLast(2)) else { throw arguments.usage("'\(word)' is not a level in dB") }
            return .decibels(value)
        }
        if let sign = word.first, sign == "+" || sign == "-" {
            guard let points = Int(word.dropFirst()), word.dropFirst().allSatisfy(\.isASCII), (1...100).contains(points) else {
                throw arguments.usage("'\(word)' is not a step of 1 to 100 points")
            }
            return .step(sign == "-" ? -points : points)
        }
        guard let percent = Int(word), word.allSatisfy(\.isASCII), (0...100).contains(percent) else {
            throw arguments.usage("'\(word)' is not 0-100, +N, -N or NdB")
        }
        return .percent(percent)
    }

    private static func recordOptions(_ arguments: inout Arguments) throws(ConsoleReply) -> RecordOptions {
        var options = RecordOptions()
        var seen: Set<String> = []
        let known = ["--format", "--bits", "--rate", "--channels", "--seconds", "--safety", "--vox",
                     "--split-minutes", "--split-mb", "--bitrate"]
        while let option = try arguments.optionalWord() {
            guard known.contains(option) else {
                let near = NearMatch.closest(to: option, in: known).map { "; did you mean \($0)?" } ?? ""
                throw arguments.usage(option.hasPrefix("-") ? "no option \(option)\(near)" : "'\(option)' is not an option")
            }
            guard seen.insert(option).inserted else { throw arguments.usage("\(option) is given twice") }
            switch option {
            case "--format":
                let value = try arguments.requiredWord("a format after --format").lowercased()
                guard let kind = AudioFileKind(rawValue: value) else {
                    throw arguments.usage("--format \(value): not \(AudioFileKind.choices)")
                }
                options.container = kind.rawValue
            case "--bitrate":
                let value = try arguments.requiredWord("a bit rate after --bitrate")
                guard let rate = AudioFileKind.bitRate(value) else {
                    throw arguments.usage("--bitrate \(value): not \(AudioFileKind.bitRateRangeText) (bits/s, or kb/s with k: 96k)")
                }
                options.bitRate = rate
            case "--bits":
                let value = try arguments.requiredWord("a sample size after --bits")
                guard let bits = Int(value), [16, 24, 32].contains(bits) else { throw arguments.usage("--bits \(value): not 16, 24 or 32") }
                options.bits = bits
            case "--rate":
                let value = try arguments.requiredWord("a sample rate after --rate")
                guard let rate = Int(value), StandardSampleRate(hertz: rate) != nil else {
                    let rates = StandardSampleRate.allCases.map { String($0.hertz) }.joined(separator: ", ")
                    throw arguments.usage("--rate \(value): not one of \(rates)")
                }
                options.rate = rate
            case "--channels":
                let value = try arguments.requiredWord("a channel count after --channels")
                guard let channels = Int(value), [1, 2].contains(channels) else { throw arguments.usage("--channels \(value): not 1 or 2") }
                options.channels = channels
            case "--seconds":
                options.seconds = try positive(&arguments, option)
            case "--safety":
                options.safetyTrack = true
            case "--vox":
                // The threshold is optional: a next word that is an option (or nothing) means the saved one.
                if let next = arguments.peek(), !next.hasPrefix("--") {
                    _ = try arguments.optionalWord()
                    let digits = next.hasPrefix("-") ? next.dropFirst() : next[...]
                    guard let value = decimal(digits) else { throw arguments.usage("--vox \(next): not a level in dBFS") }
                    let level = next.hasPrefix("-") ? -value : value
                    guard level <= 0 else { throw arguments.usage("--vox \(next): a level in dBFS is at most 0") }
                    options.voxThresholdDB = level
                } else {
                    options.voxAtSavedThreshold = true
                }
            case "--split-minutes":
                options.splitSeconds = try positive(&arguments, option) * 60
            case "--split-mb":
                let value = try arguments.requiredWord("a size after --split-mb")
                // MB as SI (IEC 80000-13): 10^6 bytes.
                guard let megabytes = Int64(value), megabytes > 0, megabytes <= Int64.max / 1_000_000 else {
                    throw arguments.usage("--split-mb \(value): not a whole number of MB above 0")
                }
                options.splitBytes = megabytes * 1_000_000
            default:
                break
            }
        }
        return options
    }

    private static func positive(_ arguments: inout Arguments, _ option: String) throws(ConsoleReply) -> Double {
        let value = try arguments.requiredWord("a number after \(option)")
        guard let number = decimal(value[...]), number > 0 else { throw arguments.usage("\(option) \(value): not a number above 0") }
        return number
    }

    /// Digits with an optional fraction (`12`, `0.5`): no signs, exponents, `nan` or hex, which `Double(_:)`
    /// would take.
    private static func decimal(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
              parts.allSatisfy({ part in part.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.count == 1 || !parts[1].isEmpty
        else { return nil }
        return Double(text)
    }

    // MARK: - Words

    /// A word of the line and where it started (for arguments that take the rest of the line).
    struct Word {
        var text: String
        var start: String.Index
    }

    /// Words separated by blanks; `"..."` makes one word of what is inside (blanks included).
    private static func split(_ line: String) -> Result<[Word], ConsoleReply> {
        var words: [Word] = []
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == " " || character == "\t" { index = line.index(after: index); continue }
            let start = index
            if character == "\"" {
                let open = line.index(after: index)
                guard let close = line[open...].firstIndex(of: "\"") else {
                    return .failure(.error(.usage, "a quote is not closed: \(line)"))
                }
                words.append(Word(text: String(line[open..<close]), start: start))
                index = line.index(after: close)
            } else {
                let end = line[index...].firstIndex(where: { $0 == " " || $0 == "\t" }) ?? line.endIndex
                words.append(Word(text: String(line[index..<end]), start: start))
                index = end
            }
        }
        return .success(words)
    }

    /// The arguments after the command word, taken in order.
    struct Arguments {
        let entry: ConsoleHelp.Entry
        var words: [Word]
        let line: String

        /// `ERR usage` with what is wrong and the command's usage.
        func usage(_ problem: String) -> ConsoleReply {
            .error(.usage, "\(entry.name): \(problem); usage: \(entry.usage)")
        }

        func peek() -> String? { words.first?.text }

        mutating func optionalWord() throws(ConsoleReply) -> String? {
            words.isEmpty ? nil : words.removeFirst().text
        }

        mutating func requiredWord(_ what: String) throws(ConsoleReply) -> String {
            guard let word = try optionalWord() else { throw usage("\(what) is needed") }
            return word
        }

        /// Nothing more may follow.
        mutating func end() throws(ConsoleReply) {
            guard let extra = words.first else { return }
            throw usage("unexpected '\(extra.text)'")
        }

        /// Everything after the command word as one argument (a path or a name with blanks); a single quoted
        /// word loses its quotes. Nil when there is nothing.
        mutating func rest() throws(ConsoleReply) -> String? {
            defer { words.removeAll() }
            guard let first = words.first else { return nil }
            if words.count == 1 { return first.text }
            var text = line[first.start...]
            while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
            return String(text)
        }

        /// One of a closed set of words, or nothing.
        mutating func optionalChoice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) throws(ConsoleReply) -> Choice?
        where Choice.RawValue == String {
            guard let word = try optionalWord() else { return nil }
            try end()
            guard let choice = Choice(rawValue: word.lowercased()) else {
                let names = Choice.allCases.map(\.rawValue)
                let near = NearMatch.closest(to: word, in: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw usage("'\(word)' is not \(names.joined(separator: ", "))\(near)")
            }
            return choice
        }

        /// `on` / `off`, or nothing.
        mutating func optionalSwitch() throws(ConsoleReply) -> Bool? {
            guard let word = try optionalWord() else { return nil }
            try end()
            switch word.lowercased() {
            case "on": return true
            case "off": return false
            default: throw usage("'\(word)' is not on or off")
            }
        }
    }
}

extension ConsoleReply: Error {}
