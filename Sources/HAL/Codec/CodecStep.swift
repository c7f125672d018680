/// One step of a codec recipe: a register write, a bit-field update, or a wait, each with the reason it is
/// there (the datasheet's why), so a trace can be read against the datasheet and a person with a logic
/// analyser can tell which step a transfer belongs to.
public enum CodecStep: Hashable, Sendable, CustomStringConvertible {
    /// Writes the whole register (always goes out, even when the cache already holds the value).
    case write(RegisterAddress, RegisterValue, reason: String)
    /// Sets the bits of `mask` to `value`'s; goes out only when the register changes (the cache decides).
    case update(RegisterAddress, mask: RegisterValue, value: RegisterValue, reason: String)
    /// Waits on the driver's clock (VMID charging, a soft-mute ramp, a discharge).
    case delay(Duration, reason: String)

    public var reason: String {
        switch self {
        case .write(_, _, let reason), .update(_, _, _, let reason), .delay(_, let reason): reason
        }
    }

    public var description: String {
        switch self {
        case .write(let reg, let value, let reason):
            "write R\(reg) = 0x\(hex(value))  (\(reason))"
        case .update(let reg, let mask, let value, let reason):
            "update R\(reg) mask 0x\(hex(mask)) = 0x\(hex(value & mask))  (\(reason))"
        case .delay(let duration, let reason):
            "wait \(duration)  (\(reason))"
        }
    }

    private func hex(_ value: RegisterValue) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}

/// An ordered list of steps that takes the codec from one state to another without pops: power-up,
/// power-down, standby, wake, a rate change. Data first, so it can be printed, compared and traced before
/// any byte goes out.
public struct CodecRecipe: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var steps: [CodecStep]

    public init(_ name: String, _ steps: [CodecStep]) {
        self.name = name
        self.steps = steps
    }

    /// The time the recipe spends waiting, the sum of its delays.
    public var totalDelay: Duration {
        steps.reduce(.zero) { total, step in
            if case .delay(let duration, _) = step { return total + duration }
            return total
        }
    }

    public var description: String {
        ([name + ":"] + steps.map { "  " + $0.description }).joined(separator: "\n")
    }

    /// Runs the steps in order on `registers`, sleeping on `clock` for delays, and returns each step with
    /// the exchanges it caused. Stops at the first failed transfer: the cache then still holds what the
    /// chip accepted.
    @discardableResult
    public func run(on registers: RegisterCache, clock: any MonotonicClock) throws(CodecError) -> CodecTranscript {
        var transcript = CodecTranscript()
        for step in steps {
            let exchanges: [RegisterBusExchange]
            do {
                switch step {
                case .write(let reg, let value, _):
                    exchanges = try registers.write(reg, value)
                case .update(let reg, let mask, let value, _):
                    exchanges = try registers.update(reg, mask: mask, value: value).exchanges
                case .delay(let duration, _):
                    clock.sleep(for: duration)
                    exchanges = []
                }
            } catch {
                throw .transferFailed(recipe: name, step: step, error)
            }
            transcript.entries.append(.init(recipe: name, step: step, reason: step.reason, exchanges: exchanges))
        }
        return transcript
    }
}
