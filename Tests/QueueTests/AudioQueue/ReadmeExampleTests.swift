import Codec8_24
import Foundation
import HAL
import Testing
import TestSupport
@testable import Queue

/// The README's example of playing a file with an AudioQueue, verbatim (between the markers), played
/// through a test host: it must compile, and it must play the whole file as sox decodes it.
@Suite(.serialized)
struct ReadmeExampleTests {
    @Test func theReadmeExamplePlaysTheWholeFile() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("song.wav")
        try run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "0.75", "sine", "440", "sine", "550", "gain", "-3"])
        let engine = TestRenderHost(maximumFrames: 256)

        // README example begins
        let file = try AudioFile.open(path: path)                            // WAV, AIFF, CAF: PCM, µ-law, A-law, IMA4
        let feed = AudioFileFeed(file: file)                                 // reads packets into queue buffers, in order
        let thread = try AudioQueueCallbackThread(name: "player")            // callbacks run here, never on the render thread
        let queue = try OutputQueue(format: file.dataFormat, host: engine, callbackThread: thread) { queue, buffer, event in
            guard event.stage == .consumed, !event.discarded else { return } // the buffer is ours again: refill it
            if (try? feed.enqueueNext(buffer, on: queue)) != true { try? queue.stop(immediately: false) } // end: play out
        }
        for _ in 0..<3 { try feed.enqueueNext(queue.allocateBuffer(byteCapacity: 32768), on: queue) }
        try queue.prime()
        try queue.start()
        // README example ends

        defer { queue.dispose(); thread.end() }
        var out: [Fixed824] = []
        for _ in 0..<1000 where queue.state != .stopped {
            out += engine.renderPeriod()
            queue.deliverCallbacks()
        }
        let reference = try soxSamples(path)
        #expect(queue.state == .stopped && queue.underruns == 0)
        #expect(Array(out.prefix(reference.count)).asSox == reference)

        let readme = try String(contentsOfFile: SourceTree.root() + "/README.md", encoding: .utf8)
        // From the source tree, not #filePath: the aarch64 tests run outside the build environment's paths.
        let source = try String(contentsOfFile: SourceTree.root() + "/Tests/QueueTests/AudioQueue/ReadmeExampleTests.swift", encoding: .utf8)
        let example = source.components(separatedBy: "// README example begins\n")[1]
            .components(separatedBy: "        // README example ends")[0]
            .split(separator: "\n").map { $0.dropFirst(8) }.joined(separator: "\n")
        #expect(readme.contains(example), "README.md shows the example exactly as tested")
    }
}
