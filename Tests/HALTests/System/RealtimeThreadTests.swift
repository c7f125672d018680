import Synchronization
import Testing
@testable import HAL

@Suite("Real-time thread")
struct RealtimeThreadTests {
    @Test func runsTheBodyAndJoins() throws {
        let ran = Atomic<Int>(0)
        let thread = try RealtimeThread(stackBytes: 64 * 1024, fifoPriority: nil) { ran.add(1, ordering: .releasing) }
        thread.join()
        #expect(ran.load(ordering: .acquiring) == 1)
        #expect(thread.scheduling == .standard(refusal: nil))     // not asked: no refusal to report
        thread.join()                                              // a second join does nothing
    }

    @Test func asksForSchedFifoAndReportsWhatItGot() throws {
        let ran = Atomic<Int>(0)
        let thread = try RealtimeThread(fifoPriority: 10) { ran.add(1, ordering: .releasing) }
        thread.join()
        #expect(ran.load(ordering: .acquiring) == 1)
        // sched(7): granted with CAP_SYS_NICE or RLIMIT_RTPRIO >= 10, else EPERM; either way the body ran.
        switch thread.scheduling {
        case .fifo(let priority): #expect(priority == 10)
        case .standard(let refusal): #expect(refusal?.errno == .notPermitted)
        }
    }

    @Test func anImpossiblePriorityIsATypedError() {
        // sched_get_priority_max(SCHED_FIFO) is 99 on Linux: 500 is EINVAL, not a refusal to carry on from.
        #expect(throws: SystemError.self) { try RealtimeThread(fifoPriority: 500) {} }
    }

    @Test func memoryLockErrorsCarryAHint() {
        // mlockall(2): ENOMEM when over RLIMIT_MEMLOCK; the hint names the limit to raise.
        let error = SystemError("lock memory", path: "process", errno: .outOfMemory)
        #expect(error.reason.contains("ENOMEM"))
        #expect(error.reason.contains("LimitMEMLOCK"))
    }
}
