import Board
import HAL
import Queue

/// One raw edge of a button or encoder line, for `buttons monitor`.
struct ButtonEdge: Hashable, Sendable {
    /// The board file's name of the button or encoder channel (`volume.A`).
    var name: String
    var line: Int
    /// The logical level after the edge (true: active, pressed).
    var active: Bool
    var timestamp: Timestamp
}

/// The board's buttons and encoders at run time: button lines -> `DebouncedInputs` -> `RemoteControlDecoder`
/// (the board's roles mapped like a headset remote, volume keys and a record button; the board's hold
/// action), shift chords, encoder detents. Every action reaches `handler` on the control loop
/// (`loop.post`), in order.
///
/// Time: edges carry their own timestamps; what time decides (a closed click window, a hold) is reported
/// when `tick(now:)` runs at or after `nextDeadline` — the daemon's loop, or a test after advancing its
/// `ManualClock`. On the simulated board `simulate(button:gesture:)` presses the simulated line with
/// realistic bounce and timings, so the same debouncer and decoder decode it.
///
/// Wiring, in the daemon: `ButtonInput(config: board.config, gpio: board.gpio, loop: loop) { action in ... }`,
/// then `loop.addTimer(deadline: { buttons.nextDeadline }, fire: { buttons.tick(now: $0) })`.
///
/// Threading: `@unchecked Sendable` because edges arrive on the GPIO event thread (or whoever advances the
/// simulated clock) and only post to the loop; the handler and the rest run on the loop's thread.
final class ButtonInput: Subsystem, @unchecked Sendable {
    typealias Handler = (ButtonAction) -> Void

    let config: BoardConfig
    let gpio: BoardGPIO
    private let loop: ControlLoop
    private let handler: Handler
    private let inputs: DebouncedInputs
    private let decoder: RemoteControlDecoder
    /// Lets the decoder's and encoders' callbacks, made before `self` exists, reach it.
    private let relay: ActionRelay
    private let chords: ShiftChords
    private var lines: [any HAL.GPIOInputLine] = []
    private var encoders: [EncoderInput] = []
    /// When the last simulated gesture's presses are over, so the next starts after it (loop thread).
    private var simulatedUntil: Timestamp = .zero
    private(set) var actionCount = 0

    /// Requests the board's button and encoder lines. `onEdge` sees every raw edge (on the edge's thread).
    init(config: BoardConfig, gpio: BoardGPIO, loop: ControlLoop, onEdge: (@Sendable (ButtonEdge) -> Void)? = nil,
         handler: @escaping Handler) throws(ButtonInputError) {
        self.config = config
        self.gpio = gpio
        self.loop = loop
        self.handler = handler
        let chords = ShiftChords(config: config)
        self.chords = chords
        let relay = ActionRelay(loop: loop)
        self.relay = relay
        let mapping: ButtonMapping
        do {
            mapping = try ButtonMapping(config: config, lineID: gpio.lineID)
        } catch {
            throw .device(error)
        }
        let decoder: RemoteControlDecoder
        do {
            decoder = try RemoteControlDecoder(buttons: mapping.buttons, mapping: mapping.mapping,
                                               edgeDelay: mapping.edgeDelay, clock: gpio.clock) { gesture, event in
                relay.post(chords.action(for: gesture, event: event))
            }
        } catch {
            throw .decoder(error)
        }
        self.decoder = decoder
        let names = Dictionary(mapping.buttons.compactMap { button in button.line.map { ($0, button.name) } },
                               uniquingKeysWith: { first, _ in first })
        inputs = DebouncedInputs(clock: gpio.clock) { change in
            if let name = names[change.line] { chords.note(button: name, pressed: change.active) }
            decoder.handle(change)
        }
        relay.owner = self
        for button in config.buttons { try request(button, onEdge: onEdge) }
        for encoder in config.encoders {
            do {
                encoders.append(try EncoderInput(encoder, gpio: gpio, onEdge: { event in
                    let channel = event.line.offset == encoder.lineA ? "A" : "B"
                    onEdge?(ButtonEdge(name: "\(encoder.name).\(channel)", line: event.line.offset, active: event.edge.level,
                                       timestamp: event.timestamp))
                }, onSteps: { steps, time in
                    relay.post(.encoder(name: encoder.name, role: encoder.role, steps: steps, at: time))
                }))
            } catch {
                throw .device(error)
            }
        }
    }

    /// Requests a button's line with both edges; each edge goes to the debouncer (and `onEdge`).
    private func request(_ button: ButtonConfig, onEdge: (@Sendable (ButtonEdge) -> Void)?) throws(ButtonInputError) {
        let input = GPIOInputConfig(bias: button.input.bias, activeLow: button.input.active.isLow, edges: .both)
        let inputs = self.inputs
        do {
            let line = try gpio.controller.requestInput(.offset(button.input.line), on: gpio.chip, input) { event in
                onEdge?(ButtonEdge(name: button.name, line: event.line.offset, active: event.edge.level, timestamp: event.timestamp))
                inputs.handle(event)
            }
            inputs.add(line.id, debounce: .milliseconds(button.input.debounceMilliseconds), level: try line.value())
            lines.append(line)
        } catch {
            throw .device(.gpio(what: "button '\(button.name)' on GPIO\(button.input.line)", error))
        }
    }

    fileprivate func deliver(_ action: ButtonAction) {
        actionCount += 1
        handler(action)
    }

    // MARK: Subsystem

    var statusLines: [String] {
        var lines = ["buttons: " + (config.buttons.isEmpty ? "none"
                                     : config.buttons.map { "\($0.name) (\($0.role))" }.joined(separator: ", "))]
        if !config.encoders.isEmpty {
            lines.append("encoders: " + config.encoders.map { "\($0.name) (\($0.role))" }.joined(separator: ", "))
        }
        if let shift = config.shift { lines.append("shift: \(shift)") }
        return lines
    }

    /// The earliest of: a scheduled simulated edge, a pending debounce, a gesture decided by time.
    var nextDeadline: Timestamp? {
        [gpio.pump?.nextDeadline, inputs.nextDeadline, decoder.nextDeadline].compactMap { $0 }.min()
    }

    /// Brings the simulated clock up to real time (on the simulated board), settles debounced levels and
    /// reports what time has decided.
    func tick(now: Timestamp) {
        gpio.pumpToRealTime()
        inputs.settle()
        decoder.tick()
    }

    func shutdown() {
        for line in lines { line.release() }
        for encoder in encoders { encoder.release() }
        lines = []
        encoders = []
    }

    // MARK: simulation

    /// The board's button called `name`, or a typed error listing them.
    func button(_ name: String) throws(ButtonInputError) -> ButtonConfig {
        guard let button = config.buttons.first(where: { $0.name == name }) else {
            throw .unknownButton(name, known: config.buttons.map(\.name))
        }
        return button
    }

    /// Presses the simulated button as a person would for `gesture`, with a tact switch's bounce at each
    /// edge, starting now (or once the previous simulated gesture has been decided, so two `button play
    /// click` commands in a row are two clicks, not a double click). Returns when the decoder will have
    /// decided it.
    @discardableResult
    func simulate(button name: String, gesture: SimulatedGesture) throws(ButtonInputError) -> Timestamp {
        guard gpio.simulated != nil else { throw .notSimulated(board: config.name) }
        let button = try button(name)
        let press = SimulatedPress(gesture, button: button)
        let start = max(gpio.clock.now, simulatedUntil)
        do {
            for (down, up) in press.presses {
                try gpio.drive(line: button.input.line, active: true, polarity: button.input.active, at: start + down,
                               bounce: .tactSwitch)
                try gpio.drive(line: button.input.line, active: false, polarity: button.input.active, at: start + up,
                               bounce: .tactSwitch)
            }
        } catch {
            throw .device(error)
        }
        simulatedUntil = start + press.decidedAfter
        gpio.pump?.expectChanges(until: simulatedUntil)
        return simulatedUntil
    }

    /// Turns the simulated encoder `name` by `detents` (positive clockwise): each detent a full Gray-code
    /// cycle, A leading B, an edge every 4 ms with a little chatter. Returns when the last edge has passed.
    @discardableResult
    func simulateTurn(encoder name: String, detents: Int) throws(ButtonInputError) -> Timestamp {
        guard gpio.simulated != nil else { throw .notSimulated(board: config.name) }
        guard let encoder = config.encoders.first(where: { $0.name == name }) else {
            throw .unknownButton(name, known: config.encoders.map(\.name))
        }
        // Forward: A leads (A on, B on, A off, B off); back: B leads.
        let first = detents >= 0 ? encoder.lineA : encoder.lineB
        let second = detents >= 0 ? encoder.lineB : encoder.lineA
        let chatter = ContactBounce(toggles: [.microseconds(300), .microseconds(700)])
        var time = max(gpio.clock.now, simulatedUntil)
        do {
            for _ in 0..<abs(detents) {
                for (line, active) in [(first, true), (second, true), (first, false), (second, false)] {
                    time = time + .milliseconds(4)
                    try gpio.drive(line: line, active: active, polarity: encoder.active, at: time, bounce: chatter)
                }
            }
        } catch {
            throw .device(error)
        }
        simulatedUntil = time + .milliseconds(4)
        return simulatedUntil
    }
}

/// Hands actions from any thread to the `ButtonInput` on its loop.
private final class ActionRelay: @unchecked Sendable {
    let loop: ControlLoop
    /// Set once, right after the input is made, before any line is requested.
    weak var owner: ButtonInput?

    init(loop: ControlLoop) {
        self.loop = loop
    }

    func post(_ action: ButtonAction) {
        loop.post { [self] in owner?.deliver(action) }
    }
}
