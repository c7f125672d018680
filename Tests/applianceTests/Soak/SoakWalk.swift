import Foundation
import HAL
@testable import appliance

/// A seeded random walk of a person using the appliance: console lines across the whole grammar, button
/// gestures (click, double, triple, hold; shift chords; encoder turns), headphone and headset plugs and
/// pulls, and time passing (seconds while something plays or records, sometimes an idle stretch of minutes).
/// After every step `SoakInvariants` checks the appliance; a broken invariant is kept with the step, the seed
/// and the last steps that led to it.
final class SoakWalk {
    struct Counts {
        var steps = 0
        var commands = 0
        var gestures = 0
        var jackEvents = 0
        var takes = 0
        var filesVerified = 0
        var longIdles = 0
        /// ERR replies accepted as right (a state or not-found refusal of a command not legal then), by code.
        var refusals: [String: Int] = [:]
    }

    let rig: SoakRig
    let seed: UInt64
    private var random: SplitMix64
    private(set) var counts = Counts()
    private(set) var failures: [String] = []
    private var history: [String] = []
    let invariants: SoakInvariants

    init(rig: SoakRig, seed: UInt64) {
        self.rig = rig
        self.seed = seed
        random = SplitMix64(seed: seed)
        invariants = SoakInvariants(rig: rig)
    }

    /// What the walk knows before a step, read from `status` as a person would.
    struct Known {
        var transport: String      // stopped, playing, paused
        var recording: Bool
        var plugged: Bool
    }

    var known: Known {
        let lines = rig.daemon.statusLines
        let transport = lines.first { $0.hasPrefix("player: ") }.map { String($0.dropFirst(8)) } ?? "?"
        return Known(transport: transport, recording: rig.recorder.isRecording, plugged: rig.assembly.board.board.jack?.state.isPlugged ?? false)
    }

    /// One step: an action, time passing, the invariants.
    func step() throws {
        counts.steps += 1
        let before = known
        let roll = random.unit()
        if roll < 0.50 {
            command(before)
        } else if roll < 0.62 {
            gesture()
        } else if roll < 0.65 {
            encoder()
        } else if roll < 0.67 {
            try chord()
        } else if roll < 0.72 {
            try jack()
        }
        try dwell()
        for problem in invariants.check() { fail(problem) }
    }

    private func note(_ entry: String) {
        history.append("[\(counts.steps) t=\(SoakInvariants.clockText(rig.clock.now))] \(entry)")
        if history.count > 25 { history.removeFirst() }
    }

    /// Every broken invariant counts; the first ten are kept with their steps (a run goes on to its end, so
    /// its figures cover the whole day and a lasting fault shows how long it lasted).
    private(set) var failureCount = 0

    private func fail(_ problem: String) {
        failureCount += 1
        guard failures.count < 10 else { return }
        failures.append("seed \(seed) step \(counts.steps): \(problem)\n  last steps:\n    " + history.joined(separator: "\n    "))
    }

    // MARK: time

    /// Seconds pass (rendered while something plays or records); now and then the person walks away for
    /// minutes (stopping what plays and records first, or leaving it paused), and the clock jumps.
    private func dwell() throws {
        if random.unit() < 0.012 {
            counts.longIdles += 1
            let state = known
            if state.recording || state.transport == "playing" {
                let line = random.unit() < 0.7 || state.recording ? "stop" : "pause"
                send(line, mustSucceed: true)
            }
            try rig.pass(.seconds(300 + random.below(2100)))
        } else {
            try rig.pass(.milliseconds(random.below(4000)))
        }
    }

    // MARK: console lines

    private static let presets = ["flat", "rock", "pop", "jazz", "classical", "bass booster", "treble booster",
                                  "vocal booster", "hiphop", "Spoken Word", "electronic", "nosuch"]

    private func command(_ state: Known) {
        let media = SoakMedia.files
        let n = random.below(40)
        switch n {
        case 0...3: send("play", mustSucceed: true)
        case 4...5: send("play \(quoted(media[random.below(media.count)]))", mustSucceed: true)
        case 6: send("play album", mustSucceed: true)
        case 7...8: send("pause", mustSucceed: state.transport == "playing")
        case 9: send("resume", mustSucceed: state.transport == "paused")
        case 10...11: send("stop", mustSucceed: state.transport != "stopped" || state.recording)
        case 12: send("next", mustSucceed: false)
        case 13: send("prev", mustSucceed: false)
        case 14: send(["seek 1", "seek +1", "seek -1", "seek 0:01", "seek 0"][random.below(5)], mustSucceed: false)
        case 15: send(["ls", "ls album"][random.below(2)], mustSucceed: true)
        case 16: send(["repeat", "repeat off", "repeat one", "repeat all"][random.below(4)], mustSucceed: true)
        case 17: send(["shuffle", "shuffle on", "shuffle off"][random.below(3)], mustSucceed: true)
        case 18: send(["replaygain", "replaygain off", "replaygain track", "replaygain album", "replaygain preamp -3dB",
                       "replaygain preamp 2dB"][random.below(6)], mustSucceed: true)
        case 19...22: record(state)
        case 23: send(["mark", "mark chorus", "mark take-\(random.below(100))"][random.below(3)], mustSucceed: state.recording && rig.recorder.statusLines.first == "recorder: recording")
        case 24: send("meter", mustSucceed: true)
        case 25...26: send(["vol", "vol \(random.below(101))", "vol +5", "vol -5", "vol +20", "vol -40",
                            "vol \(-random.below(60))dB", "vol 0", "vol 100"][random.below(9)], mustSucceed: true)
        case 27: send(["mute", "mute on", "mute off"][random.below(3)], mustSucceed: true)
        case 28: let preset = Self.presets[random.below(Self.presets.count)]
                 send(["eq", "eq list", "eq show", "eq \(preset)"][random.below(4)], mustSucceed: preset != "nosuch")
        case 29: send(["route", "route speaker", "route headphones", "route auto"][random.below(4)], mustSucceed: false)
        case 30: send(["input", "input mic", "input line", "input headset"][random.below(4)], mustSucceed: false)
        case 31: send(["sounds", "sounds click", "sounds alert", "sounds record-start", "sounds error"][random.below(5)], mustSucceed: true)
        case 32: send(["status", "stats", "board"][random.below(3)], mustSucceed: true)
        case 33: send(["help", "help record", "help vol"][random.below(3)], mustSucceed: true)
        case 34: removeRecording()
        case 35: playRecording()
        default: send(["status", "stats"][random.below(2)], mustSucceed: true)
        }
    }

    private func quoted(_ path: String) -> String { path.contains(" ") ? "\"\(path)\"" : path }

    /// `record` with options a person would give: every container the recorder writes, at widths it takes.
    private func record(_ state: Known) {
        var words = ["record"]
        let formats: [(String, [Int])] = [("wav", [16, 24, 32]), ("caf", [16, 24, 32]), ("aiff", [16, 24, 32]),
                                          ("flac", [16, 24]), ("alac", [16, 24]), ("opus", [])]
        if random.unit() < 0.7 {
            let (format, bits) = formats[random.below(formats.count)]
            words += ["--format", format]
            if !bits.isEmpty && random.unit() < 0.6 { words += ["--bits", "\(bits[random.below(bits.count)])"] }
            if format == "opus" && random.unit() < 0.5 { words += ["--bitrate", ["96k", "64000", "128000"][random.below(3)]] }
        }
        if random.unit() < 0.3 { words += ["--channels", "\(1 + random.below(2))"] }
        if random.unit() < 0.3 { words += ["--seconds", "\(1 + random.below(5))"] }
        if random.unit() < 0.15 { words += ["--safety"] }
        if random.unit() < 0.1 { words += ["--split-minutes", "1"] }
        if random.unit() < 0.1 { words += ["--vox", "-50"] }
        let idle = !state.recording
        let reply = send(words.joined(separator: " "), mustSucceed: idle)
        if reply.outcome == .ok { counts.takes += 1 }
    }

    /// `play recordings/NAME`: a finished take plays on the appliance itself, whatever container it is in.
    private func playRecording() {
        guard let name = invariants.verifiedRecordings.randomElement(using: &random) else { return }
        send("play \(quoted("recordings/" + name))", mustSucceed: true)
    }

    /// `rm` of a finished recording (never one being written: that one is refused).
    private func removeRecording() {
        let finished = invariants.verifiedRecordings
        guard let name = finished.randomElement(using: &random) else {
            send("ls", mustSucceed: true)
            return
        }
        // The file playing (or paused) is refused, rightly: "is playing; stop it first".
        let current = rig.daemon.statusLines.contains { $0.hasPrefix("file: recordings/\(name) ") }
        if send("rm \(quoted("recordings/" + name))", mustSucceed: !current).outcome == .ok { invariants.forget(name) }
    }

    @discardableResult
    private func send(_ line: String, mustSucceed: Bool) -> ConsoleReply {
        counts.commands += 1
        let reply = rig.send(line)
        note("\(line) -> \(reply.finalLine)")
        if case .error(let code, let message) = reply.outcome {
            let refusal: Bool
            switch code {
            case .state, .notFound, .denied: refusal = !mustSucceed
            default: refusal = false
            }
            if refusal {
                counts.refusals[code.rawValue, default: 0] += 1
            } else {
                fail("'\(line)' answered ERR \(code.rawValue) \(message)")
            }
        }
        return reply
    }

    // MARK: buttons and the jack

    private static let buttons = ["play", "play", "play", "volume-up", "volume-down", "record", "shift"]

    private func gesture() {
        counts.gestures += 1
        let name = Self.buttons[random.below(Self.buttons.count)]
        let gesture = ["click", "click", "double", "triple", "hold"][random.below(5)]
        send("button \(name) \(gesture)", mustSucceed: true)
        rig.busyUntil = rig.clock.now + .seconds(3)
    }

    private func encoder() {
        counts.gestures += 1
        let detents = (1 + random.below(6)) * (random.unit() < 0.5 ? -1 : 1)
        do {
            let until = try rig.buttons.simulateTurn(encoder: "volume", detents: detents)
            rig.busyUntil = until + .milliseconds(100)
            note("encoder volume \(detents)")
        } catch {
            fail("encoder turn \(detents): \(error)")
        }
    }

    /// Shift held while the remote clicks: a marker in the recording (ButtonInputTests' chord).
    private func chord() throws {
        counts.gestures += 1
        let config = rig.assembly.board.board.config
        guard let shift = config.buttons.first(where: { $0.name == "shift" }),
              let remote = config.buttons.first(where: { $0.name == "play" }) else { throw SoakFailure("no shift chord on the board") }
        let gpio = rig.assembly.board.board.gpio
        let start = rig.clock.now + .milliseconds(10)
        for (line, polarity, down, up) in [(shift.input.line, shift.input.active, 0, 300), (remote.input.line, remote.input.active, 100, 180)] {
            try gpio.drive(line: line, active: true, polarity: polarity, at: start + .milliseconds(down), bounce: .tactSwitch)
            try gpio.drive(line: line, active: false, polarity: polarity, at: start + .milliseconds(up), bounce: .tactSwitch)
        }
        rig.busyUntil = start + .seconds(1)
        note("shift + play click")
    }

    private func jack() throws {
        counts.jackEvents += 1
        try rig.settle()   // a volume key still repeating would turn the headphones up after the plug
        let wasPlugged = known.plugged
        send(["jack in", "jack in headphones", "jack in headset", "jack out", "jack out"][random.below(5)], mustSucceed: true)
        rig.busyUntil = rig.clock.now + .seconds(1)
        try rig.settle()
        if !wasPlugged && known.plugged { for problem in invariants.checkPlugIn() { fail(problem) } }
    }

    var lastSteps: String { history.joined(separator: "\n") }
}

/// A small seeded generator (SplitMix64, Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014), the same sequence on every platform for a seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
