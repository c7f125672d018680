/// What each console command does and how it is typed: one table that `help`, `help CMD` and the parser's
/// `ERR usage` messages all read, so the usage a person is shown is the one the parser checks.
enum ConsoleHelp {
    struct Entry: Sendable {
        /// The word that starts the line.
        let name: String
        /// The command with its arguments, as typed.
        let usage: String
        /// One line for `help`.
        let summary: String
        /// More lines for `help CMD`: arguments and effects.
        let details: [String]
    }

    /// Every command, in the order `help` lists them.
    static let entries: [Entry] = [
        Entry(name: "help", usage: "help [CMD]", summary: "list the commands, or explain one",
              details: ["Without CMD: one line per command. With CMD: its usage and what it does."]),
        Entry(name: "status", usage: "status", summary: "what plays or records, volume, route, input",
              details: ["A few 'name: value' lines from each part of the appliance."]),
        Entry(name: "play", usage: "play [PATH]", summary: "play a file or folder of the media directory",
              details: ["PATH is relative to the media directory; a folder plays as a gapless playlist.",
                        "Without PATH: resumes when paused, else plays the whole media directory.",
                        "Quote a PATH with two spaces in a row: play \"a  b.wav\"."]),
        Entry(name: "pause", usage: "pause", summary: "pause playback, keeping the position", details: []),
        Entry(name: "resume", usage: "resume", summary: "resume paused playback", details: []),
        Entry(name: "stop", usage: "stop", summary: "stop recording (file finalized), then playback", details: []),
        Entry(name: "next", usage: "next", summary: "next track of the playlist", details: []),
        Entry(name: "prev", usage: "prev", summary: "previous track (or the start of this one)", details: []),
        Entry(name: "seek", usage: "seek SECONDS|+SECONDS|-SECONDS|MM:SS", summary: "move in the playing file",
              details: ["SECONDS or MM:SS (or H:MM:SS) from the start; +SECONDS / -SECONDS from here."]),
        Entry(name: "ls", usage: "ls [DIR]", summary: "list the media directory (or a folder in it) and the recordings",
              details: []),
        Entry(name: "rm", usage: "rm PATH", summary: "delete a file of the media or recordings directory",
              details: ["Only files inside those directories; symbolic links are resolved and checked."]),
        Entry(name: "repeat", usage: "repeat [off|one|all]", summary: "show or set the repeat mode", details: []),
        Entry(name: "shuffle", usage: "shuffle [on|off]", summary: "show or set shuffle", details: []),
        Entry(name: "replaygain", usage: "replaygain [off|track|album] | replaygain preamp NdB",
              summary: "show or set the ReplayGain mode and preamp",
              details: ["track: each file's own gain; album: the album's (the track's when a file has none); off: none.",
                        "The gain comes from the file's tags and never lifts its peak above full scale.",
                        "preamp NdB (-15 to +15) is added to the tagged gain. Kept in the settings."]),
        Entry(name: "record",
              usage: "record [--format wav|caf|aiff|flac|opus|alac] [--bits 16|24|32] [--rate HZ] [--channels 1|2]"
                  + " [--bitrate N] [--seconds N] [--safety] [--vox [DBFS]] [--split-minutes N] [--split-mb N]",
              summary: "record from the selected input into a new dated file",
              details: ["Options left out take the settings' (or the board's) defaults.",
                        "flac and alac (in fragmented M4A) are lossless, 16 or 24 bits;",
                        "opus is lossy at --bitrate bits/s",
                        "(6000 to 510000, or 96k; libopusenc's default without it);",
                        "--seconds N stops after N seconds; --safety adds a second track 12 dB lower;",
                        "--vox starts and stops on the input level (threshold in dBFS, at most 0);",
                        "--split-minutes / --split-mb start a new file every N minutes / N MB (10^6 bytes)."]),
        Entry(name: "mark", usage: "mark [NAME]", summary: "a marker at the current position of the recording",
              details: []),
        Entry(name: "meter", usage: "meter [on|off]", summary: "input and output levels, once or as events",
              details: ["With on: 'EVENT meter' lines (needs 'events on') until 'meter off'."]),
        Entry(name: "vol", usage: "vol [0-100|+N|-N|NdB]", summary: "show or set the volume of the current route",
              details: ["0-100 on the board's scale, +N/-N points from here, or NdB (e.g. -12dB) directly."]),
        Entry(name: "mute", usage: "mute [on|off]", summary: "mute or unmute (toggles without an argument)",
              details: []),
        Entry(name: "eq", usage: "eq [list|show|PRESET]", summary: "show, list or choose the EQ preset",
              details: ["Preset names ignore case, spaces and hyphens ('hip hop', 'HipHop')."]),
        Entry(name: "route", usage: "route [speaker|headphones|auto]", summary: "show or force the output route",
              details: ["auto: follow the headphone jack (the default)."]),
        Entry(name: "input", usage: "input [mic|line|headset]", summary: "show or choose the recording input",
              details: []),
        Entry(name: "sounds", usage: "sounds [NAME]", summary: "list the system sounds, or play one", details: []),
        Entry(name: "button", usage: "button NAME click|double|triple|hold", summary: "simulate a board button",
              details: ["The gesture goes through the board's mapping as a real press would."]),
        Entry(name: "jack", usage: "jack in [headphones|headset]|out", summary: "simulate a plug (simulated board)",
              details: []),
        Entry(name: "board", usage: "board", summary: "what the board file says and what came up", details: []),
        Entry(name: "stats", usage: "stats",
              summary: "xruns, buffer fill, worst render time, actual vs nominal rate, I2C retries",
              details: ["Then the faults lived through since start, one 'name: N' line each: codec recovered, codec failed,",
                        "pcm lost, gpio missing, settings corrupt, media missing, disk full."]),
        Entry(name: "selftest", usage: "selftest", summary: "check the codec, play a tone, loop it back if possible",
              details: []),
        Entry(name: "events", usage: "events on|off", summary: "stream EVENT lines on this connection",
              details: ["Route, volume, transport, record, xrun, button, device and error events, as 'EVENT <kind> <detail>'."]),
        Entry(name: "shutdown", usage: "shutdown", summary: "finish recording, save settings, power down, exit",
              details: []),
    ]

    /// The command words, for "did you mean".
    static let names: [String] = entries.map(\.name)

    static func entry(_ name: String) -> Entry? { entries.first { $0.name == name } }

    /// `help` (nil) or `help CMD`.
    static func reply(for topic: String?) -> ConsoleReply {
        guard let topic else {
            let width = (names.map(\.count).max() ?? 0) + 2
            return .ok(entries.map { $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary })
        }
        guard let entry = entry(topic.lowercased()) else { return ConsoleParser.unknownCommand(topic) }
        return .ok(["usage: " + entry.usage, entry.summary] + entry.details)
    }
}
