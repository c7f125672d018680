import ArgumentParser
import Board
import HAL

/// `appliance buttons monitor`: the board's buttons and encoders as they are pressed and turned — raw
/// edges (line, level, time) and the gestures and events decoded from them — for wiring up a board and
/// tuning its timings in the field.
struct ButtonsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "buttons",
        abstract: "Watch the board's buttons and encoders.",
        subcommands: [Monitor.self])

    struct Monitor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print raw edges and decoded gestures and events as they happen.",
            discussion: """
                Times are from the start, on the edges' own timestamps. On the simulated board nothing presses \
                the buttons: --simulate plays gestures on them, one after another, as a person would (with \
                contact bounce), e.g. --simulate "play double, volume-up click, volume +2" (a button and \
                click|double|triple|hold, or an encoder and +N|-N detents).
                """)

        @OptionGroup var board: CodecCommand.BoardOptions

        @Option(help: "Stop after this many seconds (default: when the simulated gestures are decided, else never).")
        var seconds: Double?

        @Option(help: "Gestures to play on the simulated board, comma-separated: NAME click|double|triple|hold, or ENCODER +N|-N.")
        var simulate: String?

        func validate() throws {
            if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
                throw ValidationError("--seconds \(seconds) is not a positive number of seconds (at most a day)")
            }
            if let simulate { _ = try MonitorScript.parse(simulate) }
        }

        func run() throws {
            let config = try board.load()
            let script = try simulate.map(MonitorScript.parse) ?? []
            let gpio: BoardGPIO
            do {
                gpio = try BoardGPIO(config: config, simulated: config.isSimulated, timing: .realTime)
            } catch {
                throw AudioToolError("cannot watch the buttons of board '\(config.name)': \(error)")
            }
            if !script.isEmpty, gpio.simulated == nil {
                throw ValidationError("--simulate needs the simulated board; board '\(config.name)' has real buttons")
            }
            let loop = try ControlLoop(clock: SystemClock.shared)
            let start = gpio.clock.now
            let output = MonitorOutput(start: start)
            output.header(config, simulated: gpio.simulated != nil)
            let buttons: ButtonInput
            do {
                buttons = try ButtonInput(config: config, gpio: gpio, loop: loop, onEdge: { edge in
                    loop.post { output.edge(edge) }
                }, handler: { action in output.action(action) })
            } catch {
                throw AudioToolError("cannot watch the buttons of board '\(config.name)': \(error)")
            }
            defer { buttons.shutdown() }
            loop.addTimer(deadline: { buttons.nextDeadline }, fire: { buttons.tick(now: $0) })
            var end = seconds.map { start + .nanoseconds(Int64(($0 * 1e9).rounded())) }
            if !script.isEmpty {
                var decided = start
                for step in script {
                    do {
                        switch step {
                        case .press(let name, let gesture): decided = try buttons.simulate(button: name, gesture: gesture)
                        case .turn(let name, let detents): decided = try buttons.simulateTurn(encoder: name, detents: detents)
                        }
                    } catch {
                        throw AudioToolError("cannot simulate \(step): \(error)")
                    }
                }
                // A little after the last gesture is decided, so its event is printed.
                end = end ?? decided + .milliseconds(100)
            }
            if let end { loop.addTimer(deadline: { end }, fire: { _ in loop.stop() }) }
            loop.run()
            loop.turn(maximumWait: .zero)     // what the last turn posted (an event decided as it stopped)
        }
    }
}

/// One step of `--simulate`.
enum MonitorStep: Hashable, Sendable, CustomStringConvertible {
    case press(String, SimulatedGesture)
    case turn(String, Int)

    var description: String {
        switch self {
        case .press(let name, let gesture): "'\(name) \(gesture.rawValue)'"
        case .turn(let name, let detents): "'\(name) \(detents > 0 ? "+" : "")\(detents)'"
        }
    }
}

enum MonitorScript {
    /// `play double, volume-up click, volume +2`.
    static func parse(_ text: String) throws -> [MonitorStep] {
        try text.split(separator: ",").map { item in
            let words = item.split(separator: " ").map(String.init)
            guard words.count == 2 else {
                throw ValidationError("--simulate: '\(item.trimmingSpaces)' is not NAME GESTURE (e.g. 'play double', 'volume +2')")
            }
            if let gesture = SimulatedGesture(rawValue: words[1]) { return .press(words[0], gesture) }
            if let sign = words[1].first, sign == "+" || sign == "-", let detents = Int(words[1]), detents != 0, abs(detents) <= 100 {
                return .turn(words[0], detents)
            }
            throw ValidationError("--simulate: '\(words[1])' is not a gesture: click, double, triple, hold, or +N/-N detents")
        }
    }
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

/// The monitor's lines, times in milliseconds from the start.
struct MonitorOutput: Sendable {
    let start: Timestamp

    func header(_ config: BoardConfig, simulated: Bool) {
        let buttons = config.buttons.map { "\($0.name) GPIO\($0.input.line) (\($0.role))" }
        let encoders = config.encoders.map { "\($0.name) GPIO\($0.lineA)/GPIO\($0.lineB) (\($0.role))" }
        print("board '\(config.name)'\(simulated ? " (simulated)" : ""): "
              + ((buttons + encoders).isEmpty ? "no buttons" : (buttons + encoders).joined(separator: ", ")))
    }

    func edge(_ edge: ButtonEdge) {
        line(edge.timestamp, "edge", "GPIO\(edge.line) \(edge.name) \(edge.active ? "active" : "inactive")")
    }

    func action(_ action: ButtonAction) {
        switch action {
        case .remote(_, let gesture), .chord(_, let gesture), .gesture(let gesture):
            line(gesture.timestamp, "gesture", "\(action)")
        case .encoder(_, _, _, let time):
            line(time, "encoder", "\(action)")
        }
    }

    private func line(_ time: Timestamp, _ kind: String, _ text: String) {
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        let stamp = "+" + formatFixed(Double((time - start).nanoseconds) / 1e6, decimals: 3) + " ms"
        print(padded(stamp, 14) + padded(kind, 9) + text)
    }
}
