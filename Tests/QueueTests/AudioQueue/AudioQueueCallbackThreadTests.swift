import HAL
import Synchronization
import Testing
@testable import Queue

struct AudioQueueCallbackThreadTests {
    final class Log: @unchecked Sendable {
        let entries = Mutex<[Int]>([])
        func add(_ value: Int) { entries.withLock { $0.append(value) } }
        var values: [Int] { entries.withLock { $0 } }
    }

    @Test func runsWorkInPostedOrderOnItsOwnThread() throws {
        let thread = try AudioQueueCallbackThread(name: "aq-test")
        defer { thread.end() }
        #expect(!thread.isCurrent)
        let log = Log()
        for i in 0..<100 { thread.async { log.add(thread.isCurrent ? i : -1) } }
        let onThread = thread.sync { thread.isCurrent }
        #expect(onThread)
        #expect(log.values == Array(0..<100), "in order, all on the callback thread")
    }

    @Test func syncFromTheThreadItselfRunsInline() throws {
        let thread = try AudioQueueCallbackThread(name: "aq-inline")
        defer { thread.end() }
        let value = thread.sync { thread.sync { 42 } }
        #expect(value == 42)
    }

    @Test func refusesANonPositivePollInterval() {
        #expect(throws: AudioQueueError.self) { try AudioQueueCallbackThread(name: "x", pollInterval: .zero) }
    }

    @Test func afterEndSyncRunsOnTheCaller() throws {
        let thread = try AudioQueueCallbackThread(name: "aq-end")
        thread.end()
        #expect(thread.sync { 7 } == 7)
    }
}
