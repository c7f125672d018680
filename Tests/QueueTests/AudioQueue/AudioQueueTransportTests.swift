import HAL
import Testing
@testable import Queue

/// The transport as a table: every call in every state, and the render side's reports. Expected transitions
/// follow core-audio-iphone-2008.md 1.5 (start, stop, pause keeps the engine primed, prime makes start
/// immediate, reset discards for seeks, flush plays out what is held back) and behaviours 27-31 (pause keeps
/// the position, reset still returns the buffers, flush-then-stop plays every sample).
struct AudioQueueTransportTests {
    typealias T = AudioQueueTransport
    static let t0 = Timestamp(nanoseconds: 1_000)
    static let t1 = Timestamp(nanoseconds: 2_000)

    /// A machine driven into `state` through the public calls and reports only.
    static func machine(in state: T.State) throws -> T {
        var m = T(at: .zero)
        switch state {
        case .stopped: break
        case .primed: _ = try m.handle(.prime, at: .zero)
        case .starting(let at): _ = try m.handle(.start(at: at), at: .zero)
        case .running:
            _ = try m.handle(.start(at: nil), at: .zero)
            _ = m.handle(.started(at: 0), at: .zero)
        case .pausing:
            m = try machine(in: .running)
            _ = try m.handle(.pause, at: .zero)
        case .paused:
            m = try machine(in: .pausing)
            _ = m.handle(.fadedOut, at: .zero)
        case .stopping(let immediately):
            m = try machine(in: .running)
            _ = try m.handle(.stop(immediately: immediately), at: .zero)
        }
        #expect(m.state == state)
        return m
    }

    static let states: [T.State] = [.stopped, .primed, .starting(at: nil), .starting(at: 4800), .running, .pausing,
                                    .paused, .stopping(immediately: true), .stopping(immediately: false)]

    /// Expected result of each call in each state: the new state and actions, or an error.
    enum Expect { case to(T.State, [T.Action]), same([T.Action]), refused }

    static func expected(_ call: T.Call, in state: T.State) -> Expect {
        switch (call, state) {
        // Prime prepares a stopped queue (1.5 "Prime prepares the queue in advance"); a playing one refuses.
        case (.prime, .stopped), (.prime, .primed): .to(.primed, [.decodeAhead])
        case (.prime, .paused): .same([.decodeAhead])
        case (.prime, _): .refused
        // Start from stopped/primed begins crisp; from a pause it resumes with a fade in (behaviour 29).
        case (.start(let at), .stopped), (.start(let at), .primed): .to(.starting(at: at), [.begin(at: at, fadeIn: false)])
        case (.start(let at), .paused), (.start(let at), .pausing): .to(.starting(at: at), [.begin(at: at, fadeIn: true)])
        case (.start, .starting), (.start, .running): .same([])
        case (.start, .stopping): .refused
        case (.pause, .running), (.pause, .starting): .to(.pausing, [.fadeOutAndHold])
        case (.pause, .pausing), (.pause, .paused): .same([])
        case (.pause, _): .refused
        case (.stop(true), .running), (.stop(true), .starting), (.stop(true), .pausing), (.stop(true), .stopping(false)):
            .to(.stopping(immediately: true), [.fadeOutAndDiscard(keepRunning: false)])
        case (.stop(true), .stopping(true)): .same([])
        case (.stop, .stopped), (.stop, .primed), (.stop(true), .paused): .to(.stopped, [.discard])
        case (.stop(false), .running), (.stop(false), .starting): .to(.stopping(immediately: false), [.playOut])
        case (.stop(false), .stopping): .same([])
        case (.stop(false), _): .refused
        // Reset discards and keeps the transport (1.5 "for seek and skip"; behaviour 30).
        case (.reset, .running), (.reset, .starting), (.reset, .pausing), (.reset, .stopping(false)):
            .same([.fadeOutAndDiscard(keepRunning: true)])
        case (.reset, .primed): .to(.stopped, [.discard])
        case (.reset, .paused), (.reset, .stopped): .same([.discard])
        case (.reset, _): .same([])
        case (.flush, _): .same([.flush])
        }
    }

    @Test(arguments: states)
    func everyCallInState(_ state: T.State) throws {
        let calls: [T.Call] = [.prime, .start(at: nil), .start(at: 960), .pause, .stop(immediately: true),
                               .stop(immediately: false), .reset, .flush]
        for call in calls {
            var m = try Self.machine(in: state)
            let wasRunning = m.isRunning
            switch Self.expected(call, in: state) {
            case .to(let next, let actions):
                let outcome = try m.handle(call, at: Self.t1)
                #expect(m.state == next, "\(call) in \(state)")
                #expect(outcome.actions == actions, "\(call) in \(state)")
                // Calls never change is-running themselves: the render side's reports do.
                #expect(outcome.isRunningChanged == nil && m.isRunning == wasRunning)
                if next != state { #expect(m.since == Self.t1) }
            case .same(let actions):
                let outcome = try m.handle(call, at: Self.t1)
                #expect(m.state == state, "\(call) in \(state)")
                #expect(outcome.actions == actions, "\(call) in \(state)")
                #expect(m.since == .zero)
            case .refused:
                #expect(throws: AudioQueueError.self, "\(call) in \(state)") { try m.handle(call, at: Self.t1) }
                do { _ = try m.handle(call, at: Self.t1) } catch {
                    #expect(error.kind == .wrongState)
                    #expect(error.message.contains("\(state)"), "the error names the state")
                    #expect(!error.hint.isEmpty)
                }
                #expect(m.state == state)
            }
        }
    }

    @Test func isRunningFollowsTheRenderSide() throws {
        var m = T(at: .zero)
        _ = try m.handle(.start(at: 4800), at: Self.t0)
        #expect(!m.isRunning, "not running before the first frame is out")
        #expect(m.handle(.started(at: 4800), at: Self.t1) == T.Outcome(isRunningChanged: true))
        #expect(m.state == .running && m.isRunning && m.since == Self.t1)
        _ = try m.handle(.pause, at: Self.t1)
        #expect(m.isRunning, "still sounding while the pause fades")
        #expect(m.handle(.fadedOut, at: Self.t1) == T.Outcome(isRunningChanged: false))
        #expect(m.state == .paused)
        _ = try m.handle(.start(at: nil), at: Self.t1)
        #expect(m.handle(.started(at: 9600), at: Self.t1).isRunningChanged == true)
        _ = try m.handle(.stop(immediately: false), at: Self.t1)
        #expect(m.isRunning && m.handle(.underrun, at: Self.t1) == .none)
        #expect(m.handle(.playedOut, at: Self.t1) == T.Outcome(isRunningChanged: false))
        #expect(m.state == .stopped && !m.isRunning)
    }

    @Test func staleReportsChangeNothing() throws {
        // A pause's fade that ends after the queue was started again: the start wins.
        var m = try Self.machine(in: .pausing)
        _ = try m.handle(.start(at: nil), at: Self.t1)
        #expect(m.handle(.fadedOut, at: Self.t1) == .none)
        #expect(m.state == .starting(at: nil) && m.isRunning)
        // Reports that do not fit the state.
        for state in Self.states {
            for report in [T.Report.fadedOut, .playedOut] {
                var m = try Self.machine(in: state)
                let fits = (report == .fadedOut && (state == .pausing || state == .stopping(immediately: true)))
                    || (report == .playedOut && state == .stopping(immediately: false))
                let before = m
                _ = m.handle(report, at: Self.t1)
                if !fits { #expect(m == before, "\(report) in \(state)") } else { #expect(m.state != state) }
            }
        }
    }

    @Test func aStartReportedAfterAPauseOrStopStillCountsAsRunning() throws {
        // The render side began sounding before the pause or stop reached it: is-running turns true, then
        // false when the fade ends, so listeners see both changes.
        for call in [T.Call.pause, .stop(immediately: true)] {
            var m = try Self.machine(in: .starting(at: nil))
            _ = try m.handle(call, at: Self.t0)
            let state = m.state
            #expect(m.handle(.started(at: 0), at: Self.t1).isRunningChanged == true)
            #expect(m.state == state)
            #expect(m.handle(.fadedOut, at: Self.t1).isRunningChanged == false)
        }
    }

    @Test func stopAfterEnqueuedFromStartingRunsThenStops() throws {
        var m = try Self.machine(in: .starting(at: nil))
        _ = try m.handle(.stop(immediately: false), at: Self.t0)
        #expect(m.handle(.started(at: 0), at: Self.t1).isRunningChanged == true)
        #expect(m.state == .stopping(immediately: false))
        #expect(m.handle(.playedOut, at: Self.t1).isRunningChanged == false)
        #expect(m.state == .stopped)
    }

    @Test func underrunsAreCounted() throws {
        var m = try Self.machine(in: .running)
        _ = m.handle(.underrun, at: Self.t1)
        _ = m.handle(.underrun, at: Self.t1)
        #expect(m.underruns == 2 && m.state == .running && m.isRunning)
    }
}
