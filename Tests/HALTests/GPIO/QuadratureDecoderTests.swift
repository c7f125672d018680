import Testing
import HAL

/// The sequence: Ben Buxton's "Rotary encoder handler for arduino" (github.com/buxtronix/arduino,
/// libraries/Rotary/README.md), one detent from rest to rest as (A, B): 00, 10, 11, 01, 00; "the table simply
/// goes in the other direction" for the other way. Contact bounce (a line flipping back and forth before it
/// settles) visits only the two neighbouring states of that line's edge.
@Suite("Quadrature decoder")
struct QuadratureDecoderTests {
    typealias AB = (Bool, Bool)
    static let forward: [AB] = [(true, false), (true, true), (false, true), (false, false)]
    static let backward: [AB] = [(false, true), (true, true), (true, false), (false, false)]

    /// Feeds the states in order, each reached with `chatter` extra back-and-forth flips of the line that
    /// changed; returns the detents reported, in order.
    func turn(_ decoder: inout QuadratureDecoder, _ states: [AB], chatter: Int = 0) -> [Int] {
        var reported: [Int] = []
        var previous = (decoder.state & 2 != 0, decoder.state & 1 != 0)
        for state in states {
            for _ in 0..<chatter {
                for bounce in [state, previous] {
                    let steps = decoder.update(a: bounce.0, b: bounce.1)
                    if steps != 0 { reported.append(steps) }
                }
            }
            let steps = decoder.update(a: state.0, b: state.1)
            if steps != 0 { reported.append(steps) }
            previous = state
        }
        return reported
    }

    @Test func oneFullCycleIsOneDetentEachWay() {
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(turn(&decoder, Self.forward) == [1])
        #expect(turn(&decoder, Self.backward) == [-1])
        #expect(turn(&decoder, Self.forward + Self.forward + Self.forward) == [1, 1, 1])
    }

    /// The detent is reported on the last state of the cycle, not before.
    @Test func nothingBeforeTheCycleEnds() {
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(turn(&decoder, Array(Self.forward.prefix(3))) == [])
        #expect(turn(&decoder, [Self.forward[3]]) == [1])
    }

    @Test(arguments: [1, 2, 5])
    func bounceOnEveryEdgeChangesNothing(chatter: Int) {
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(turn(&decoder, Self.forward + Self.forward, chatter: chatter) == [1, 1])
        #expect(turn(&decoder, Self.backward, chatter: chatter) == [-1])
        #expect(decoder.invalidJumps == 0)
    }

    /// A turn started and taken back (a knob nudged past the detent and let go) is nothing.
    @Test func halfATurnAndBackIsNothing() {
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(turn(&decoder, [(true, false), (true, true), (true, false), (false, false)]) == [])
    }

    /// A jump across the cycle (both lines at once: an edge lost) gives no direction: ignored and counted.
    @Test func invalidJumpsAreIgnored() {
        var decoder = QuadratureDecoder(a: false, b: false)
        #expect(decoder.update(a: true, b: true) == 0)
        #expect(decoder.update(a: false, b: false) == 0)
        #expect(decoder.invalidJumps == 2)
        // One lost quarter in a forward turn still reaches rest more than half a cycle on: one detent.
        #expect(turn(&decoder, [(true, false), (true, true), (false, false)]) == [1])
        #expect(decoder.invalidJumps == 3)
    }
}
