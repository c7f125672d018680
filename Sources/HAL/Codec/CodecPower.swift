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

/// A driver whose power operations are recipes: the rules for moving between states live here once, the
/// drivers supply only their recipes.
protocol RecipeDrivenCodec: AudioCodec {
    var clock: any MonotonicClock { get }
    var format: CodecStreamFormat? { get }
    var powerState: CodecPowerState { get set }
    func powerUpRecipe() -> CodecRecipe
    func powerDownRecipe() -> CodecRecipe
    func standbyRecipe() -> CodecRecipe
    func wakeRecipe() -> CodecRecipe
}

extension RecipeDrivenCodec {
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
