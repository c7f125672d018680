#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HAL
import Synchronization

struct SignalWatcherTests {
    /// A blocked SIGHUP sent to this thread stays pending (signal(7)) and comes out of the signalfd as SIGHUP
    /// (1 in signal(7)'s table); once read, nothing more is pending. Runs on a thread of its own so the
    /// test runner's threads keep their masks.
    @Test func aBlockedSignalIsReadFromTheDescriptorInsteadOfKillingTheProcess() throws {
        let result = Mutex<(SignalWatcher.Signal?, SignalWatcher.Signal?, Bool)?>(nil)
        let done = try Pipe(nonBlocking: false)
        #expect(SystemThread.start {
            defer { done.send([1]) }
            do {
                try SignalWatcher.blockTerminationSignals()
                defer { SignalWatcher.unblockTerminationSignals() }
                let watcher = try SignalWatcher()
                let nothing = watcher.next()
                _ = pthread_kill(pthread_self(), SIGHUP)
                var entries = [pollfd(fd: watcher.readDescriptor, events: Int16(POLLIN), revents: 0)]
                let readable = ((try? Poll.wait(&entries, timeoutMilliseconds: 5_000)) ?? 0) == 1
                let first = watcher.next()
                let second = watcher.next()
                result.withLock { $0 = (nothing, first, readable && second == nil) }
            } catch {
                result.withLock { $0 = nil }
            }
        })
        #expect(done.waitForInput(timeoutMilliseconds: 10_000))
        let (nothing, first, readableThenEmpty) = try #require(result.withLock { $0 })
        #expect(nothing == nil)
        #expect(first == .hangUp)
        #expect(first?.rawValue == SIGHUP)
        #expect(readableThenEmpty)
    }
}
