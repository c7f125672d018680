import Testing
@testable import HAL

struct PipeTests {
    @Test func linesSentFromAnotherThreadArriveWhole() throws {
        let pipe = try Pipe(nonBlocking: false)
        #expect(SystemThread.start { pipe.send(Array("edge rising ns=5\n".utf8)) })
        #expect(pipe.waitForInput(timeoutMilliseconds: 5_000))
        #expect(String(decoding: pipe.receive(), as: UTF8.self) == "edge rising ns=5\n")
    }

    @Test func anEmptyPipeTimesOutAndANonBlockingOneReadsNothing() throws {
        let pipe = try Pipe(nonBlocking: true)
        #expect(!pipe.waitForInput(timeoutMilliseconds: 10))
        #expect(pipe.receive().isEmpty)
        pipe.send([1, 2, 3])
        pipe.drain()
        #expect(!pipe.waitForInput(timeoutMilliseconds: 0))
    }
}
