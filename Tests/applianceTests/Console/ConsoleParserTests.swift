import HAL
import Testing
@testable import appliance

/// The console grammar of issue 13 (Deliver 6: the command list, "Unknown or malformed commands, wrong
/// arguments, overlong lines, binary garbage ... get an ERR") and the contract's doc comments on
/// ConsoleCommand (the argument forms each command takes). Each expected command below is what those texts
/// say the line means; each ERR code is the one ConsoleErrorCode documents for that kind of mistake.
struct ConsoleParserTests {
    private func parse(_ line: String) -> ConsoleParser.Outcome { ConsoleParser.parse(Array(line.utf8)) }

    private func code(_ line: String) -> ConsoleErrorCode? {
        guard case .rejected(let reply) = parse(line), case .error(let code, _) = reply.outcome else { return nil }
        return code
    }

    private func message(_ line: String) -> String {
        guard case .rejected(let reply) = parse(line) else { return "" }
        return reply.finalLine
    }

    @Test func everyCommandOfTheIssueParses() {
        let expected: [(String, ConsoleCommand)] = [
            ("help", .help(nil)), ("help vol", .help("vol")), ("HELP Record", .help("record")),
            ("status", .status),
            ("play", .player(.play(nil))), ("play song.wav", .player(.play("song.wav"))),
            ("play My Song.wav", .player(.play("My Song.wav"))),
            ("play \"two  spaces.wav\"", .player(.play("two  spaces.wav"))),
            ("pause", .player(.pause)), ("resume", .player(.resume)), ("stop", .stop),
            ("next", .player(.next)), ("prev", .player(.previous)),
            ("seek 90", .player(.seek(.absolute(seconds: 90)))),
            ("seek +10", .player(.seek(.relative(seconds: 10)))),
            ("seek -2.5", .player(.seek(.relative(seconds: -2.5)))),
            // MM:SS: 1 min 30 s = 90 s; H:MM:SS: 3600 + 120 + 3 = 3723 s.
            ("seek 1:30", .player(.seek(.absolute(seconds: 90)))),
            ("seek 1:02:03", .player(.seek(.absolute(seconds: 3723)))),
            ("ls", .player(.list(nil))), ("ls live/2024", .player(.list("live/2024"))),
            ("rm take 1.wav", .player(.remove("take 1.wav"))),
            ("repeat", .player(.repeatMode(nil))), ("repeat all", .player(.repeatMode(.all))),
            ("shuffle on", .player(.shuffle(true))), ("shuffle", .player(.shuffle(nil))),
            ("replaygain", .player(.replayGain(nil))), ("replaygain album", .player(.replayGain(.mode(.album)))),
            ("replaygain OFF", .player(.replayGain(.mode(.off)))),
            ("replaygain preamp +3dB", .player(.replayGain(.preamp(3)))),
            ("replaygain preamp -2.5 dB", .player(.replayGain(.preamp(-2.5)))),
            ("replaygain preamp 15", .player(.replayGain(.preamp(15)))),
            ("record --format flac --bits 16", .recorder(.start(RecordOptions(container: "flac", bits: 16)))),
            ("record --format opus --bitrate 96k", .recorder(.start(RecordOptions(container: "opus", bitRate: 96_000)))),
            ("record --format OPUS --bitrate 64000", .recorder(.start(RecordOptions(container: "opus", bitRate: 64_000)))),
            ("record --format alac", .recorder(.start(RecordOptions(container: "alac")))),
            ("record", .recorder(.start(RecordOptions()))),
            ("record --seconds 3", .recorder(.start(RecordOptions(seconds: 3)))),
            ("record --format caf --bits 24 --rate 48000 --channels 2 --safety",
             .recorder(.start(RecordOptions(container: "caf", bits: 24, rate: 48000, channels: 2, safetyTrack: true)))),
            // --split-minutes 5 = 300 s; --split-mb 650 = 650 x 10^6 bytes (SI megabyte, IEC 80000-13).
            ("record --split-minutes 5 --split-mb 650",
             .recorder(.start(RecordOptions(splitSeconds: 300, splitBytes: 650_000_000)))),
            ("record --vox -35 --seconds 10", .recorder(.start(RecordOptions(seconds: 10, voxThresholdDB: -35)))),
            ("record --vox --seconds 10", .recorder(.start(RecordOptions(seconds: 10, voxAtSavedThreshold: true)))),
            ("record --vox", .recorder(.start(RecordOptions(voxAtSavedThreshold: true)))),
            ("mark", .recorder(.mark(nil))), ("mark chorus start", .recorder(.mark("chorus start"))),
            ("meter", .recorder(.meter(nil))), ("meter on", .recorder(.meter(true))),
            ("vol", .audio(.volume(nil))), ("vol 40", .audio(.volume(.percent(40)))),
            ("vol 0", .audio(.volume(.percent(0)))), ("vol 100", .audio(.volume(.percent(100)))),
            ("vol +5", .audio(.volume(.step(5)))), ("vol -5", .audio(.volume(.step(-5)))),
            ("vol -12dB", .audio(.volume(.decibels(-12)))), ("vol -6.5 dB", .audio(.volume(.decibels(-6.5)))),
            ("mute", .audio(.mute(nil))), ("mute off", .audio(.mute(false))),
            ("eq", .audio(.eq(.show))), ("eq show", .audio(.eq(.show))), ("eq list", .audio(.eq(.list))),
            ("route", .audio(.route(nil))), ("route headphones", .audio(.route(.headphones))),
            ("input", .audio(.input(nil))), ("input headset", .audio(.input(.headset))),
            ("sounds", .sounds(nil)), ("sounds click", .sounds("click")),
            ("button play click", .button(name: "play", gesture: .click)),
            ("button play double", .button(name: "play", gesture: .double)),
            ("button rec hold", .button(name: "rec", gesture: .hold)),
            ("jack out", .jack(.unplugged)), ("jack in", .jack(.headphones)), ("jack in headset", .jack(.headset)),
            ("board", .board), ("stats", .stats), ("selftest", .selftest),
            ("events on", .events(true)), ("events off", .events(false)), ("shutdown", .shutdown),
            // Blanks around words, a tab, a CR before the newline: the same command.
            ("  vol\t40  \r", .audio(.volume(.percent(40)))),
        ]
        for (line, command) in expected {
            #expect(parse(line) == .command(command), "\(line)")
        }
    }

    @Test func eqPresetsAreFoundByTheirNamesAndAliases() {
        // The preset table (Codec8_24/EQ/EQPreset+Table.swift) names "Rock"; lookup ignores case (EQPreset.named).
        guard case .command(.audio(.eq(.preset(let name)))) = parse("eq ROCK") else {
            Issue.record("eq ROCK did not parse as a preset")
            return
        }
        #expect(name.lowercased() == "rock")
        #expect(code("eq rokc") == .notFound)
        #expect(message("eq rokc").contains("did you mean"))
    }

    @Test func aBlankLineIsNothing() {
        #expect(parse("") == .empty)
        #expect(parse("   \t ") == .empty)
        #expect(parse("\r") == .empty)
    }

    @Test func unknownWordsAreUnknownWithTheNearestCommand() {
        #expect(code("stauts") == .unknown)
        #expect(message("stauts") == "ERR unknown 'stauts' is not a command; did you mean 'status'? ('help' lists them)")
        #expect(message("xyzzy") == "ERR unknown 'xyzzy' is not a command ('help' lists them)")
        #expect(code("help xyzzy") == .unknown)
        #expect(code("vol40") == .unknown)
    }

    @Test func wrongArgumentsAreUsageErrorsNamingTheProblemAndTheUsage() {
        let usage: [String] = [
            "status now", "pause 1", "seek", "seek abc", "seek 1:75", "seek nan", "seek 1e3", "seek 0x10",
            "rm", "repeat twice", "shuffle maybe", "meter loud", "mute please",
            "vol 101", "vol -0", "vol +101", "vol abc", "vol 40 50", "vol -12dBFS", "vol 1e2",
            "route car", "input usb", "button", "button play", "button play wiggle", "button pl@y click",
            "jack", "jack sideways", "jack in earbuds", "events", "events maybe", "board 1", "stats all",
            "selftest now", "shutdown now",
            "record --format mp3", "record --bits 20", "record --rate 12345", "record --channels 3",
            "record --seconds", "record --seconds 0", "record --seconds -3", "record --vox 3",
            "record --split-mb 1.5", "record --seconds 3 --seconds 4", "record --secs 3", "record now",
            "play \"unclosed",
            "replaygain loud", "replaygain track album", "replaygain preamp", "replaygain preamp 16",
            "replaygain preamp -15.5dB", "replaygain preamp 3 dBFS", "replaygain preamp nan",
            "record --format opus --bitrate 5000", "record --format opus --bitrate 600k",
            "record --format opus --bitrate fast", "record --bitrate",
        ]
        for line in usage {
            #expect(code(line) == .usage, "\(line)")
        }
        #expect(message("vol 101") == "ERR usage vol: '101' is not 0-100, +N, -N or NdB; usage: vol [0-100|+N|-N|NdB]")
        #expect(message("record --secnds 3").contains("did you mean --seconds?"))
        #expect(message("replaygain loud") == "ERR usage replaygain: 'loud' is not off, track, album or preamp; "
                + "usage: replaygain [off|track|album] | replaygain preamp NdB")
        #expect(message("record --format opus --bitrate 5000").hasPrefix(
            "ERR usage record: --bitrate 5000: not 6000 to 510000 (bits/s, or kb/s with k: 96k)"))
        #expect(message("record --format mp3").hasPrefix("ERR usage record: --format mp3: not wav, caf, aiff, flac, opus, alac"))
        #expect(message("route hedphones").contains("did you mean 'headphones'?"))
        #expect(code("sounds bang") == .notFound)
    }

    @Test func overlongBinaryAndControlBytesAreInputErrors() {
        // 1024 bytes is the longest line taken; 1025 is over.
        let longest = "play " + String(repeating: "a", count: 1019)
        #expect(parse(longest) == .command(.player(.play(String(repeating: "a", count: 1019)))))
        #expect(code(longest + "a") == .input)
        #expect(message(longest + "a") == "ERR input the line is 1025 bytes long; at most 1024")
        // 0xFF never occurs in UTF-8 (RFC 3629, section 1); 0xC3 0x28 is a lead byte without its continuation.
        for bytes: [UInt8] in [[0x70, 0x6C, 0x61, 0x79, 0x20, 0xFF], [0xC3, 0x28], [0xFE, 0xFF, 0x00, 0x01]] {
            guard case .rejected(let reply) = ConsoleParser.parse(bytes), case .error(let code, _) = reply.outcome else {
                Issue.record("\(bytes) was not rejected")
                continue
            }
            #expect(code == .input)
        }
        #expect(code("vol\u{7}40") == .input)
        #expect(code("status\u{1B}[A") == .input)
        #expect(code("stat\0us") == .input)
        // Text that is not ASCII is fine where a name is free.
        #expect(parse("play Dvořák.flac") == .command(.player(.play("Dvořák.flac"))))
    }

    @Test func helpListsEveryCommandOnceAndExplainsOne() {
        let listing = ConsoleHelp.reply(for: nil)
        #expect(listing.outcome == .ok)
        // The issue's command list, each with a line of its own.
        let issueCommands = ["help", "status", "play", "pause", "resume", "stop", "next", "prev", "seek", "ls", "rm",
                             "record", "mark", "vol", "mute", "eq", "route", "input", "meter", "sounds", "button",
                             "jack", "board", "stats", "selftest", "shutdown", "events"]
        for command in issueCommands {
            #expect(listing.lines.filter { $0.hasPrefix(command + " ") }.count == 1, "\(command)")
        }
        let vol = ConsoleHelp.reply(for: "vol")
        #expect(vol.lines.first == "usage: vol [0-100|+N|-N|NdB]")
        #expect(vol.wireLines.last == "OK")
        #expect(ConsoleHelp.reply(for: "volume").finalLine.hasPrefix("ERR unknown 'volume' is not a command"))
        // Every command word the parser knows has help, and every usage line starts with its word.
        for entry in ConsoleHelp.entries { #expect(entry.usage.hasPrefix(entry.name)) }
    }
}

/// The splitter between a peer's bytes and the parser: lines at `\n`, an overlong line counted, never kept.
struct ConsoleLineSplitterTests {
    @Test func linesArriveWholeAcrossReads() {
        var splitter = ConsoleLineSplitter(limit: 16)
        #expect(splitter.feed(Array("sta".utf8)).isEmpty)
        #expect(splitter.feed(Array("tus\nvol 4".utf8)) == [.line(Array("status".utf8))])
        #expect(splitter.feed(Array("0\r\n\n".utf8)) == [.line(Array("vol 40\r".utf8)), .line([])])
        #expect(splitter.finish() == nil)
        _ = splitter.feed(Array("mute".utf8))
        #expect(splitter.finish() == .line(Array("mute".utf8)))
    }

    @Test func anOverlongLineIsCountedThenTheNextOneIsFine() {
        var splitter = ConsoleLineSplitter(limit: 16)
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 40)
        #expect(splitter.feed(long).isEmpty)
        #expect(splitter.feed(long + Array("\nok\n".utf8)) == [.overlong(80), .line(Array("ok".utf8))])
    }
}
