import Board
import HAL

/// What the daemon needs of the board it runs on. The one board-facing file of the daemon: the board part's
/// AssembledBoard (codec, PCMs, GPIO, jack, buttons) will stand behind it; until then `ConfiguredBoard` offers
/// what a validated board file alone can.
protocol DaemonBoard: AnyObject {
    var name: String { get }
    /// The simulated board: `jack` and `button` may drive it.
    var isSimulated: Bool { get }
    /// `board`: what the file says and what came up.
    var descriptionLines: [String] { get }
    /// `stats`: device counters (xruns, render times, rates, I2C retries).
    var statsLines: [String] { get }
    /// Pop-free codec power-up (configure, then the driver's power-up recipe).
    func powerUp() throws(DaemonError)
    /// Pop-free power-down; never fails the shutdown (problems are returned for the log).
    func powerDown() -> String?
    func simulateJack(_ state: JackState) throws(DaemonError)
    func simulateButton(_ name: String, _ gesture: SimulatedGesture) throws(DaemonError)
    /// `selftest`'s checks, in order.
    func selfTest() -> [SelfTestCheck]
}

/// One `selftest` line: `PASS name: detail` or `FAIL name: detail`.
struct SelfTestCheck: Hashable, Sendable {
    var name: String
    var passed: Bool
    var detail: String

    var line: String { "\(passed ? "PASS" : "FAIL") \(name): \(detail)" }
}

/// A board known from its file only (no devices opened yet).
final class ConfiguredBoard: DaemonBoard {
    let config: BoardConfig

    init(config: BoardConfig) { self.config = config }

    var name: String { config.name }
    var isSimulated: Bool { config.name == "simulated" }

    var descriptionLines: [String] {
        ["board: \(config.name) (\(config.description))", "codec: \(config.codec.chip.rawValue)"]
            + ["buttons: " + (config.buttons.isEmpty ? "none" : config.buttons.map(\.name).joined(separator: ", "))]
    }

    var statsLines: [String] { [] }

    func powerUp() throws(DaemonError) {}
    func powerDown() -> String? { nil }

    func simulateJack(_ state: JackState) throws(DaemonError) {
        guard isSimulated else { throw .denied("jack is simulated on the simulated board only (this is \(name))") }
        throw .notAvailable("the simulated jack needs the assembled board")
    }

    func simulateButton(_ name: String, _ gesture: SimulatedGesture) throws(DaemonError) {
        guard config.buttons.contains(where: { $0.name == name }) else {
            throw .notFound("no button '\(name)' on \(self.name); buttons: \(config.buttons.map(\.name).joined(separator: ", "))")
        }
        guard isSimulated else { throw .denied("buttons are simulated on the simulated board only (this is \(self.name))") }
        throw .notAvailable("simulated presses need the assembled board")
    }

    func selfTest() -> [SelfTestCheck] {
        [SelfTestCheck(name: "board file", passed: true, detail: "\(config.name) validated")]
    }
}
