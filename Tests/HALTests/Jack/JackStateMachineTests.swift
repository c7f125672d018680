import Testing
@testable import HAL

@Suite("Jack state machine")
struct JackStateMachineTests {
    static func ms(_ value: Int64) -> Timestamp { Timestamp(nanoseconds: value * 1_000_000) }

    @Test func withoutMicrophoneSensingAPlugIsHeadphonesAtOnce() {
        var machine = JackStateMachine(plugged: false, microphone: false, sensesMicrophone: false)
        #expect(machine.state == .unplugged)
        #expect(machine.plug(true, at: Self.ms(100)) == JackEvent(timestamp: Self.ms(100), state: .headphones, previous: .unplugged))
        #expect(machine.deadline == nil)
        // The microphone signal means nothing on such a board.
        #expect(machine.microphone(true, at: Self.ms(120)) == nil)
        #expect(machine.plug(true, at: Self.ms(130)) == nil, "the same level again is no change")
        #expect(machine.plug(false, at: Self.ms(900)) == JackEvent(timestamp: Self.ms(900), state: .unplugged, previous: .headphones))
    }

    @Test func anInsertionWaitsForTheMicrophoneRingAndReportsOneEventAtThePlugsTime() {
        var machine = JackStateMachine(plugged: false, microphone: false, sensesMicrophone: true,
                                       microphoneSettle: .milliseconds(150))
        #expect(machine.plug(true, at: Self.ms(100)) == nil)
        #expect(machine.deadline == Self.ms(250))
        #expect(machine.microphone(true, at: Self.ms(130)) == nil, "during the insertion the deadline decides")
        #expect(machine.settle(at: Self.ms(249)) == nil)
        #expect(machine.settle(at: Self.ms(250)) == JackEvent(timestamp: Self.ms(100), state: .headset, previous: .unplugged))
        #expect(machine.deadline == nil && machine.state == .headset)
        // Pulled: at once, from headset.
        #expect(machine.plug(false, at: Self.ms(2000)) == JackEvent(timestamp: Self.ms(2000), state: .unplugged, previous: .headset))
        // A floating microphone line while unplugged is ignored.
        #expect(machine.microphone(false, at: Self.ms(2010)) == nil)
        // A three-pole plug: headphones.
        #expect(machine.plug(true, at: Self.ms(3000)) == nil)
        #expect(machine.settle(at: Self.ms(3150)) == JackEvent(timestamp: Self.ms(3000), state: .headphones, previous: .unplugged))
        // A microphone connected later (an adapter) is its own change, and so is its removal.
        #expect(machine.microphone(true, at: Self.ms(5000)) == JackEvent(timestamp: Self.ms(5000), state: .headset, previous: .headphones))
        #expect(machine.microphone(false, at: Self.ms(6000)) == JackEvent(timestamp: Self.ms(6000), state: .headphones, previous: .headset))
    }

    /// The decision rule (see `JackStateMachine`): at the plug's change + 150 ms, later while the mic line
    /// is still moving, never later than the limit (default twice the settle time: 300 ms).
    @Test func aMovingMicrophoneLineDelaysTheDecisionUpToTheLimit() {
        var machine = JackStateMachine(plugged: false, microphone: false, sensesMicrophone: true,
                                       microphoneSettle: .milliseconds(150))
        #expect(machine.microphoneSettleLimit == .milliseconds(300))
        #expect(machine.plug(true, at: Self.ms(1000)) == nil)
        machine.microphoneLine(quietAt: Self.ms(1100))          // quiet long before the decision: no wait
        #expect(machine.deadline == Self.ms(1150))
        machine.microphoneLine(quietAt: Self.ms(1150))          // quiet exactly then: no wait
        #expect(machine.deadline == Self.ms(1150))
        machine.microphoneLine(quietAt: Self.ms(1172))          // an edge at 1152 with a 20 ms debounce
        #expect(machine.settle(at: Self.ms(1150)) == nil)
        #expect(machine.deadline == Self.ms(1172))
        #expect(machine.microphone(true, at: Self.ms(1149)) == nil, "the mic's change joins the pending decision")
        #expect(machine.settle(at: Self.ms(1172)) == JackEvent(timestamp: Self.ms(1000), state: .headset, previous: .unplugged))

        // Still moving at the limit: decided then, from the debounced level.
        #expect(machine.plug(false, at: Self.ms(2000)) != nil)
        #expect(machine.microphone(false, at: Self.ms(2000)) == nil)
        #expect(machine.plug(true, at: Self.ms(3000)) == nil)
        machine.microphoneLine(quietAt: Self.ms(3500))
        #expect(machine.deadline == Self.ms(3300))
        #expect(machine.settle(at: Self.ms(3299)) == nil)
        #expect(machine.settle(at: Self.ms(3300)) == JackEvent(timestamp: Self.ms(3000), state: .headphones, previous: .unplugged))
        // A limit shorter than the settle time means the settle time.
        #expect(JackStateMachine(plugged: false, microphone: false, sensesMicrophone: true,
                                 microphoneSettle: .milliseconds(150), microphoneSettleLimit: .milliseconds(100))
                    .microphoneSettleLimit == .milliseconds(150))
    }

    @Test func aPlugPulledBeforeTheDecisionReportsNothing() {
        var machine = JackStateMachine(plugged: false, microphone: false, sensesMicrophone: true,
                                       microphoneSettle: .milliseconds(150))
        #expect(machine.plug(true, at: Self.ms(100)) == nil)
        #expect(machine.plug(false, at: Self.ms(180)) == nil, "never reported as plugged, so no unplug either")
        #expect(machine.deadline == nil && machine.settle(at: Self.ms(1000)) == nil)
        #expect(machine.state == .unplugged)
    }

    @Test func theInitialStateComesFromTheLevelsWithoutAnEvent() {
        #expect(JackStateMachine(plugged: true, microphone: true, sensesMicrophone: true).state == .headset)
        #expect(JackStateMachine(plugged: true, microphone: true, sensesMicrophone: false).state == .headphones)
        #expect(JackStateMachine(plugged: true, microphone: false, sensesMicrophone: true).state == .headphones)
        #expect(JackStateMachine(plugged: false, microphone: true, sensesMicrophone: true).state == .unplugged)
    }
}
