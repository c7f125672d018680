/// A codec's power state. Every driver moves through the same three.
public enum CodecPowerState: Hashable, Sendable {
    case off, standby, on
}

/// The power operations the `AudioCodec` protocol offers.
enum CodecPowerOperation {
    case powerUp, powerDown, standby, wake

    /// The state this operation leads to from `state`, or nil when it does nothing there: standby only
    /// from `on`, wake only from `standby`; power-up and power-down always run (they are safe to repeat).
    func target(from state: CodecPowerState) -> CodecPowerState? {
        switch self {
        case .powerUp: .on
        case .powerDown: .off
        case .standby: state == .on ? .standby : nil
        case .wake: state == .standby ? .on : nil
        }
    }
}

/// A driver whose operations are recipes. What every chip does the same way lives here once: the
/// bookkeeping after a soft reset, configuring as plan-the-clocks-then-run-the-recipe, the power moves
/// between states, and collecting the transcript. A driver supplies its clock plan and its recipes.
protocol RecipeDrivenCodec: AudioCodec {
    /// How the chip makes a format's clocks (its dividers or PLL settings).
    associatedtype ClockPlan
    var clock: any MonotonicClock { get }
    var format: CodecStreamFormat? { get set }
    var clockPlan: ClockPlan? { get set }
    var powerState: CodecPowerState { get set }
    /// How the chip clocks `format` from the board's clock and I2S frame, or why it cannot.
    func plan(for format: CodecStreamFormat) throws(CodecError) -> ClockPlan
    /// Clocks, word length and framing for `format` on `plan`, without touching the chip.
    func configureRecipe(_ format: CodecStreamFormat, plan: ClockPlan) throws(CodecError) -> CodecRecipe
    func powerUpRecipe() -> CodecRecipe
    func powerDownRecipe() -> CodecRecipe
    func standbyRecipe() -> CodecRecipe
    func wakeRecipe() -> CodecRecipe
}

extension RecipeDrivenCodec {
    public func configure(_ format: CodecStreamFormat) throws(CodecError) { try configureClocks(format) }

    /// Plans `format`'s clocks, runs the recipe, then records format and plan; a plan the chip cannot make
    /// or a failed transfer leaves the previous ones recorded.
    func configureClocks(_ format: CodecStreamFormat) throws(CodecError) {
        let plan = try plan(for: format)
        try run(configureRecipe(format, plan: plan))
        self.format = format
        clockPlan = plan
    }

    /// The recipe `configure(format)` runs, its clock plan made on the way; touches nothing.
    public func configureRecipe(_ format: CodecStreamFormat) throws(CodecError) -> CodecRecipe {
        try configureRecipe(format, plan: plan(for: format))
    }

    /// After the chip reset itself: the cache back at reset values, power off, no format or clock plan.
    func forgetChipState() {
        registers.resetToDefaults()
        powerState = .off
        format = nil
        clockPlan = nil
    }

    public func powerUp() throws(CodecError) { try changePower(.powerUp) }
    public func powerDown() throws(CodecError) { try changePower(.powerDown) }
    public func standby() throws(CodecError) { try changePower(.standby) }
    public func wake() throws(CodecError) { try changePower(.wake) }

    /// The recipe that performs `operation`, built from the current settings.
    func recipe(for operation: CodecPowerOperation) -> CodecRecipe {
        switch operation {
        case .powerUp: powerUpRecipe()
        case .powerDown: powerDownRecipe()
        case .standby: standbyRecipe()
        case .wake: wakeRecipe()
        }
    }

    /// Runs `operation`'s recipe if it applies in the current state, then records the new state. Power-up
    /// needs a configured format (the clocks must run before the analog side powers).
    func changePower(_ operation: CodecPowerOperation) throws(CodecError) {
        guard let target = operation.target(from: powerState) else { return }
        if operation == .powerUp && format == nil {
            throw .notConfigured(codec: name, operation: "power-up")
        }
        try run(recipe(for: operation))
        powerState = target
    }

    /// Runs `recipe` on the driver's registers and clock, adding what it did to the transcript if one is
    /// being collected.
    func run(_ recipe: CodecRecipe) throws(CodecError) {
        let done = try recipe.run(on: registers, clock: clock)
        transcript?.append(done)
    }
}
