/// Decodes a rotary encoder's two quadrature lines into detents: a pure value fed the lines' levels at
/// each edge, one detent per full cycle of the four Gray-code states (a "full-period" encoder, the common
/// mechanical kind with both contacts open at rest: Linux's Documentation/input/devices/rotary-encoder.rst).
///
/// The Gray-code sequence, A then B (Ben Buxton, "Rotary encoder handler for arduino",
/// github.com/buxtronix/arduino libraries/Rotary/README.md): rest 00, 1/4 turn 10, 1/2 turn 11, 3/4 turn
/// 01, next rest 00 — turning the other way reads the table upwards. Each move to a neighbouring state is a
/// quarter step forward (+1, the table read down: A leads B) or back (-1); a jump across the cycle (00 to
/// 11, 10 to 01) means an edge was lost and gives no direction, so it counts nothing. A detent is counted
/// when the lines come back to rest having moved at least half a cycle one way (so a lost quarter still
/// counts, and contact bounce, which only goes back and forth between two neighbouring states, counts
/// nothing).
public struct QuadratureDecoder: Hashable, Sendable {
    /// The lines' levels packed as A << 1 | B.
    public private(set) var state: UInt8
    /// The state with both contacts at rest (00 for contacts open at rest read active-high).
    public let rest: UInt8
    /// Quarter steps since the last rest: +4 is a full cycle forward.
    public private(set) var quarters = 0
    /// Jumps across the cycle seen (lost edges).
    public private(set) var invalidJumps = 0

    /// Quarter-step direction of each move, indexed by old << 2 | new: +1 along 00 -> 10 -> 11 -> 01 -> 00,
    /// -1 against it, 0 for no move or a jump across (the 16-entry table widely used for 2-bit Gray code,
    /// e.g. Oleg Mazurov's "Reading rotary encoder on Arduino": {0,-1,1,0,1,0,0,-1,-1,0,0,1,0,1,-1,0}, with
    /// the state packed A << 1 | B and the sign read so the sequence above is forward).
    static let moves: [Int8] = [0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0]

    public init(a: Bool, b: Bool, restA: Bool = false, restB: Bool = false) {
        state = Self.pack(a, b)
        rest = Self.pack(restA, restB)
    }

    static func pack(_ a: Bool, _ b: Bool) -> UInt8 { (a ? 2 : 0) | (b ? 1 : 0) }

    /// Takes in the lines' levels after an edge; returns the detents completed: +1 forward, -1 back, 0 none.
    public mutating func update(a: Bool, b: Bool) -> Int {
        let new = Self.pack(a, b)
        defer { state = new }
        guard new != state else { return 0 }
        if new ^ state == 0b11 {
            invalidJumps += 1
        } else {
            quarters += Int(Self.moves[Int(state << 2 | new)])
        }
        guard new == rest else { return 0 }
        defer { quarters = 0 }
        if quarters >= 2 { return 1 }
        if quarters <= -2 { return -1 }
        return 0
    }
}
