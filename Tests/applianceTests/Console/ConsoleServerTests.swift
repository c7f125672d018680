import Foundation
import Glibc
import HAL
import Testing
@testable import appliance

/// The console server with real descriptors (a Unix socket, pipes): lines in, dispatched commands and
/// replies out, EVENT lines only where asked for (issue 13, Deliver 6: "`events on` streams asynchronous
/// lines ... prefixed EVENT"; every command answers with result lines and exactly one final OK or ERR line).
struct ConsoleServerTests {
    @Test func twoSocketClientsGetTheirOwnRepliesAndOnlyTheOneThatAskedGetsEvents() throws {
        let rig = try ConsoleTestRig()
        rig.answers[.audio(.volume(nil))] = .ok(["volume: 40", "OK"])
        try rig.server.listen(path: rig.socketPath)
        let watcher = try LineClient(path: rig.socketPath)
        let typist = try LineClient(path: rig.socketPath)
        #expect(rig.turn { rig.server.connections.count == 2 })

        try watcher.send("events on")
        #expect(try watcher.reply(turning: rig) == ["OK"])
        try typist.send("vol")
        // A result line that reads "OK" is indented so the final line stays the only "OK" (ConsoleReply).
        #expect(try typist.reply(turning: rig) == ["volume: 40", "  OK", "OK"])
        #expect(rig.dispatched == [.audio(.volume(nil))])   // `events` is the server's, not the daemon's

        rig.server.broadcast(ApplianceEvent(.volume, "40 route=speaker"))
        #expect(rig.turn { (try? watcher.takeLine()) == "EVENT volume 40 route=speaker" })
        rig.turnAFew()
        #expect(try typist.takeLine() == nil)

        try typist.send("stauts")
        #expect(try typist.reply(turning: rig) == ["ERR unknown 'stauts' is not a command; did you mean 'status'? ('help' lists them)"])
        #expect(rig.dispatched.count == 1)   // a rejected line changes nothing

        try watcher.send("events off")
        #expect(try watcher.reply(turning: rig) == ["OK"])
        rig.server.broadcast(ApplianceEvent(.jack, "out"))
        rig.turnAFew()
        #expect(try watcher.takeLine() == nil)

        // A client that hangs up is closed and forgotten; the other carries on.
        watcher.socket.close()
        #expect(rig.turn { rig.server.connections.count == 1 })
        try typist.send("status")
        #expect(try typist.reply(turning: rig) == ["OK"])
        rig.server.close()
        #expect(!FileManager.default.fileExists(atPath: rig.socketPath))
    }

    /// Issue 16 Deliver 5, "bound every line": a client that connects again and again holds a descriptor
    /// each; past `maximumClients` the next one is told why and closed, and those connected carry on.
    @Test func clientsPastTheLimitAreToldAndClosed() throws {
        let rig = try ConsoleTestRig()
        try rig.server.listen(path: rig.socketPath)
        var clients: [LineClient] = []
        // Each accepted before the next connects: connect(2) blocks once the listen backlog (8) is full.
        for count in 1...ConsoleServer.maximumClients {
            clients.append(try LineClient(path: rig.socketPath))
            #expect(rig.turn { rig.server.connections.count == count })
        }
        let extra = try LineClient(path: rig.socketPath)
        #expect(try extra.reply(turning: rig) == ["ERR state 16 control-socket clients are connected already; try again later"])
        #expect(rig.server.connections.count == ConsoleServer.maximumClients)
        try clients[0].send("stop")
        #expect(try clients[0].reply(turning: rig) == ["OK"])
        // One leaves: a new one is served.
        clients.removeLast().socket.close()
        #expect(rig.turn { rig.server.connections.count == ConsoleServer.maximumClients - 1 })
        let next = try LineClient(path: rig.socketPath)
        try next.send("stop")
        #expect(try next.reply(turning: rig) == ["OK"])
    }

    @Test func garbageAndOverlongLinesGetAnErrAndTheConnectionStillAnswers() throws {
        let rig = try ConsoleTestRig()
        try rig.server.listen(path: rig.socketPath)
        let client = try LineClient(path: rig.socketPath)
        try client.socket.send([0xFF, 0xFE, 0x00, 0x01, 0x0A])
        #expect(try client.reply(turning: rig) == ["ERR input the line holds a control character (0x00); type text only"])
        try client.socket.send([UInt8](repeating: UInt8(ascii: "a"), count: 5000) + [0x0A])
        #expect(try client.reply(turning: rig) == ["ERR input the line is 5000 bytes long; at most 1024"])
        try client.send("")
        try client.send("stop")
        #expect(try client.reply(turning: rig) == ["OK"])
        #expect(rig.dispatched == [.stop])
    }

    @Test func aPlainConsoleOverPipesAnswersEachLineAndReportsItsEnd() throws {
        let rig = try ConsoleTestRig()
        rig.answers[.status] = .ok(["state: stopped"])
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        defer { close(input[0]); close(output[0]); close(output[1]) }
        let connection = ConsoleConnection(input: StreamDescriptor(input[0], name: "pipe"),
                                           output: StreamDescriptor(output[1], name: "pipe"), name: "pipe")
        #expect(!connection.isEdited)   // a pipe is no terminal: plain lines
        var ended: [String] = []
        rig.server.onConsoleEnd = { ended.append($0.name) }
        rig.server.attach(connection)
        let script = "status\nvol 101\n\nstop"   // the last line has no newline: it still counts at the end
        _ = script.withCString { write(input[1], $0, strlen($0)) }
        close(input[1])
        #expect(rig.turn { !ended.isEmpty })
        #expect(ended == ["pipe"])
        #expect(rig.dispatched == [.status, .stop])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(output[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self) == """
            state: stopped
            OK
            ERR usage vol: '101' is not 0-100, +N, -N or NdB; usage: vol [0-100|+N|-N|NdB]
            OK

            """)
        #expect(rig.server.connections.isEmpty)
    }
}
