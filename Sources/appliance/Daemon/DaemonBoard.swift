import HAL

/// What the daemon needs of the board it runs on: `AssembledDaemonBoard` in the appliance, a fake in tests.
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
