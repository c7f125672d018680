import Board
import HAL

/// The board part's `AssembledBoard` as the daemon drives it: power, the simulated jack, `board`, `selftest`'s
/// codec check, and the board's own time (the simulated clock pump, the jack's debounce) as a subsystem
/// ticked on the control loop.
final class AssembledDaemonBoard: DaemonBoard, Subsystem {
    let board: AssembledBoard
    let log: ServiceLog
    /// Jack changes, on the loop's thread (the route policy's input).
    var jackChanged: (JackEvent) -> Void = { _ in }
    /// Simulated presses (the buttons part's ButtonInput), when present.
    var pressButton: ((String, SimulatedGesture) throws(DaemonError) -> Void)?
    /// `selftest`'s tone out and back, where the board loops output to input.
    var signalCheck: (() -> SelfTestCheck)?
    /// Extra `stats` lines (the engine's).
    var engineStats: () -> [String] = { [] }

    init(board: AssembledBoard, loop: ControlLoop, log: ServiceLog) {
        self.board = board
        self.log = log
        let owner = LoopBound(self)
        board.onJackEvent { event in loop.post { owner.value?.jackChanged(event) } }
    }

    var name: String { board.config.name }
    var isSimulated: Bool { board.isSimulated }

    var descriptionLines: [String] {
        var lines = ["board: \(board.config.name) (\(board.config.description))",
                     "codec: \(board.codec.chip.rawValue) on \(board.isSimulated ? "its simulated twin" : "/dev/i2c-\(board.config.codec.bus)")",
                     "playback: \(board.pcms.playbackName)", "capture: \(board.pcms.captureName ?? "none")",
                     "jack: \(board.jack.map { "\($0.state)" } ?? "not sensed")",
                     "buttons: " + (board.config.buttons.isEmpty ? "none" : board.config.buttons.map(\.name).joined(separator: ", "))]
        if let amplifier = board.amplifier { lines.append("amplifier: \(amplifier)") }
        return lines
    }

    var statsLines: [String] { engineStats() }

    /// The codec's bring-up. One that fails part-way (a NACK or EIO after the bus's retries) would leave the
    /// chip half powered, its references charged and outputs half set: it is reset to its defaults (outputs
    /// off and muted, the datasheet's reset values) before the error goes on, or said to be unreachable.
    func powerUp() throws(DaemonError) {
        do { try board.powerUp(sampleRate: ApplianceAssembly.rate, wordLength: 24) } catch {
            do throws(CodecError) {
                try board.codec.codec.reset()
            } catch {
                throw .device("\(error); the codec did not take its reset either")
            }
            throw .device("\(error); the codec was reset to its defaults (outputs off and muted)")
        }
    }

    func powerDown() -> String? {
        defer { board.shutdown() }
        do { try board.powerDown() } catch { return "\(error)" }
        return nil
    }

    func simulateJack(_ state: JackState) throws(DaemonError) {
        guard isSimulated else { throw .denied("jack in|out drives the simulated board only (this is \(name))") }
        do {
            try board.simulateJack(state)   // the board's deadlines then cover the bounce, debounce and decision
        } catch {
            throw .device("\(error)")
        }
    }

    func simulateButton(_ button: String, _ gesture: SimulatedGesture) throws(DaemonError) {
        let names = board.config.buttons.map(\.name)
        guard names.contains(button) else {
            throw .notFound("no button '\(button)' on \(name); buttons: \(names.joined(separator: ", "))")
        }
        guard isSimulated else { throw .denied("button presses are simulated on the simulated board only (this is \(name))") }
        guard let pressButton else { throw .notAvailable("simulated buttons are not part of this build yet") }
        try pressButton(button, gesture)
    }

    /// The codec's registers against the driver's cache: on a chip that reads back, every readable,
    /// non-volatile register the cache holds is read over I2C. A write-only chip (WM8960, WM8731) cannot be
    /// read, so one cached register is written again with its cached value and the chip must acknowledge it
    /// (an absent or NACKing chip fails with the bus error); on its simulated twin the twin's registers are
    /// compared too.
    func selfTest() -> [SelfTestCheck] {
        [codecCheck()] + (signalCheck.map { [$0()] } ?? [])
    }

    private func codecCheck() -> SelfTestCheck {
        let codec = board.codec
        var acknowledged: String?
        if !codec.bus.layout.isReadable {
            let candidate = codec.registerMap.definitions.keys.sorted().lazy.compactMap { address -> (RegisterDefinition, RegisterValue)? in
                guard let definition = codec.registerMap.definitions[address], !definition.isVolatile,
                      definition.access != .readOnly, let cached = codec.registers.cachedValue(address) else { return nil }
                return (definition, cached)
            }.first
            guard let (definition, cached) = candidate else {
                return SelfTestCheck(name: "codec", passed: false, detail: "no cached register to write back to the write-only chip")
            }
            do throws(I2CError) {
                try codec.bus.write(definition.address, cached)
            } catch {
                return SelfTestCheck(name: "codec", passed: false, detail: "\(definition.name) not acknowledged: \(error)")
            }
            acknowledged = "\(definition.name) rewritten and acknowledged"
        }
        var compared = 0
        var mismatches: [String] = []
        for address in codec.registerMap.definitions.keys.sorted() {
            guard let definition = codec.registerMap.definitions[address], !definition.isVolatile,
                  let cached = codec.registers.cachedValue(address) else { continue }
            let actual: RegisterValue?
            if codec.bus.layout.isReadable && definition.access != .writeOnly {
                actual = try? codec.bus.read(address)
                if actual == nil { return SelfTestCheck(name: "codec", passed: false, detail: "\(definition.name) did not answer on I2C") }
            } else if let model = codec.model {
                actual = model.bus.registerValue(address)
            } else {
                continue
            }
            compared += 1
            if actual != cached { mismatches.append("\(definition.name) is 0x\(String(actual ?? 0, radix: 16)), expected 0x\(String(cached, radix: 16))") }
        }
        guard compared > 0 else {
            return SelfTestCheck(name: "codec", passed: acknowledged != nil, detail: acknowledged ?? "no register to compare")
        }
        let matched = "\(compared) registers as the driver set them" + (acknowledged.map { "; \($0)" } ?? "")
        return SelfTestCheck(name: "codec", passed: mismatches.isEmpty,
                             detail: mismatches.isEmpty ? matched : mismatches.prefix(3).joined(separator: "; "))
    }

    // MARK: Subsystem

    var statusLines: [String] {
        ["jack: \(board.jack.map { "\($0.state)" } ?? "not sensed")"]
    }

    var nextDeadline: Timestamp? { board.nextDeadline }

    func tick(now: Timestamp) {
        do { try board.tick() } catch { log.warning("board: \(error)") }
    }

    func shutdown() {}
}
