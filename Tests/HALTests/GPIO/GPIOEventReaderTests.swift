import Foundation
import Testing
@testable import HAL

/// The event thread, driven by pipes standing in for line requests: each byte written is one edge whose
/// timestamp is the byte's value in ms (odd: rising).
@Suite("GPIOEventReader")
struct GPIOEventReaderTests {
    final class PipeSource: GPIOEventSource, @unchecked Sendable {
        let line: GPIOLineID
        private let readEnd: Int32
        private let writeEnd: Int32

        init(offset: Int) {
            line = GPIOLineID(chip: "pipe", offset: offset)
            var fds: [Int32] = [-1, -1]
            precondition(pipe(&fds) == 0)
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            (readEnd, writeEnd) = (fds[0], fds[1])
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }

        var fd: Int32 { readEnd }

        func send(_ bytes: [UInt8]) { precondition(write(writeEnd, bytes, bytes.count) == bytes.count) }

        func readEvents(into events: UnsafeMutablePointer<GPIOEdgeEvent>) -> Int {
            var bytes = [UInt8](repeating: 0, count: gpioEventBatch)
            let count = read(readEnd, &bytes, bytes.count)
            guard count > 0 else { return count == 0 ? -1 : 0 }
            for i in 0..<count {
                events[i] = GPIOEdgeEvent(line: line, edge: bytes[i] % 2 == 1 ? .rising : .falling,
                                          timestamp: Timestamp(nanoseconds: Int64(bytes[i]) * 1_000_000))
            }
            return count
        }
    }

    /// A pipe whose bytes are line sequence numbers (odd: rising), read through the same gap check as
    /// `LinuxGPIORequest`; `level` is the line's level when read again.
    final class SequencedPipeSource: GPIOEventSource, @unchecked Sendable {
        let pipe = PipeSource(offset: 6)
        var gaps = GPIOEdgeGapCheck()
        let level: Bool
        init(level: Bool) { self.level = level }

        func readEvents(into events: UnsafeMutablePointer<GPIOEdgeEvent>) -> Int {
            let count = pipe.readEvents(into: events)
            guard count > 0 else { return count }
            for i in 0..<count {
                let sequence = UInt64(events[i].timestamp.nanoseconds / 1_000_000)
                events[i].origin = .kernel(sequence: sequence)
            }
            return gaps.finish(events, count: count, line: pipe.line, level: { level },
                               now: { Timestamp(nanoseconds: 99_000_000) })
        }
    }

    final class Received: @unchecked Sendable {
        private let condition = Condition()
        private let arrived = DispatchSemaphore(value: 0)
        private var events: [GPIOEdgeEvent] = []
        func append(_ event: GPIOEdgeEvent) {
            condition.locked { events.append(event) }
            arrived.signal()
        }
        var all: [GPIOEdgeEvent] { condition.locked { events } }
        /// Waits for `count` more events, each within `seconds` of wall time (a bound for a broken build).
        func wait(for count: Int, within seconds: Double = 10) -> Bool {
            (0..<count).allSatisfy { _ in arrived.wait(timeout: .now() + seconds) == .success }
        }
    }

    @Test func eventsArriveInOrderAndTheThreadEndsWithTheLastSource() {
        let reader = GPIOEventReader()
        let first = PipeSource(offset: 1)
        let second = PipeSource(offset: 2)
        let received = Received()
        #expect(!reader.isRunning)
        #expect(reader.add(first, fd: first.fd, handler: received.append))
        #expect(reader.add(second, fd: second.fd, handler: received.append))
        #expect(reader.isRunning)
        first.send([1, 2, 3])
        #expect(received.wait(for: 3))
        second.send([11, 12])
        #expect(received.wait(for: 2))
        first.send(Array(20...59))             // more than one batch
        #expect(received.wait(for: 40))
        let firstLine = received.all.filter { $0.line == first.line }.map(\.timestamp.nanoseconds)
        #expect(firstLine == ([1, 2, 3] + Array(20...59)).map { Int64($0) * 1_000_000 })
        #expect(received.all.filter { $0.line == second.line }.map(\.edge) == [.rising, .falling])
        reader.remove(first)
        #expect(reader.isRunning)
        reader.remove(second)
        #expect(!reader.isRunning)            // remove waited for the thread, which ended with no sources
        // And starts again with a new source.
        #expect(reader.add(first, fd: first.fd, handler: received.append))
        first.send([7])
        #expect(received.wait(for: 1))
        reader.remove(first)
        #expect(!reader.isRunning)
    }

    @Test func aHandlerThatRemovesItsSourceGetsNoMoreEvents() {
        let reader = GPIOEventReader()
        let source = PipeSource(offset: 3)
        let witness = PipeSource(offset: 4)
        let received = Received()
        #expect(reader.add(source, fd: source.fd) { event in
            received.append(event)
            reader.remove(source)              // on the reader thread: returns at once
        })
        #expect(reader.add(witness, fd: witness.fd, handler: received.append))
        source.send([1, 3, 5])                 // one batch; only the first is delivered
        #expect(received.wait(for: 1))
        witness.send([9])                      // handled after the batch above, by the same thread
        #expect(received.wait(for: 1))
        #expect(received.all.map(\.line) == [source.line, witness.line])
        reader.remove(witness)
        #expect(!reader.isRunning)
    }

    /// A full batch of 16 with a sequence gap: the reader delivers all 16 and the level read again (a 17th).
    @Test func aFullBatchWithAGapDeliversTheLevelReadAgain() {
        let reader = GPIOEventReader()
        let source = SequencedPipeSource(level: false)
        let received = Received()
        #expect(reader.add(source, fd: source.pipe.fd, handler: received.append))
        source.pipe.send(Array(1...15) + [41])        // 16...40 lost; 41 rises, but the line is low
        #expect(received.wait(for: 17))
        #expect(received.all.count == 17)
        #expect(received.all.last == GPIOEdgeEvent(line: source.pipe.line, edge: .falling,
                                                   timestamp: Timestamp(nanoseconds: 99_000_000), origin: .reread(lost: 25)))
        reader.remove(source)
    }

    @Test func theReaderDoesNotKeepASourceAlive() {
        let reader = GPIOEventReader()
        var source: PipeSource? = PipeSource(offset: 5)
        weak var watched: PipeSource?   // `weak let` needs Swift 6.1; the ARM toolchain is 6.0
        watched = source
        #expect(reader.add(source!, fd: source!.fd) { _ in })
        reader.remove(source!)
        source = nil
        #expect(watched == nil)
    }
}
