import HAL

/// What turning an encoder does.
public enum EncoderRole: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// One volume step per detent, clockwise louder.
    case volume

    public var description: String { rawValue }
}

/// A rotary encoder (quadrature, one detent per full Gray-code cycle) on two GPIO lines. Its lines are read
/// raw, without debouncing: the decoder's state table ignores contact bounce by itself, and a debounce time
/// would lose edges of a fast turn.
public struct EncoderConfig: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    /// Channel A: it leads B when turned clockwise.
    public var lineA: Int
    public var lineB: Int
    /// The contacts' active level: common-to-ground encoders with pull-ups are active low (open at rest).
    public var active: ActiveLevel
    public var bias: GPIOBias
    public var role: EncoderRole

    public init(name: String, lineA: Int, lineB: Int, active: ActiveLevel = .low, bias: GPIOBias? = nil,
                role: EncoderRole = .volume) {
        self.name = name
        self.lineA = lineA
        self.lineB = lineB
        self.active = active
        self.bias = bias ?? GPIOInputLine.defaultBias(for: active)
        self.role = role
    }

    public var description: String { "\(role), A GPIO\(lineA) B GPIO\(lineB) \(active), bias \(bias)" }
}
