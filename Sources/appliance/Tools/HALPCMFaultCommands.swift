import ArgumentParser
import HAL

/// The ALSA error paths, forced on a real device for the system test: an underrun, an overrun, a suspend
/// and the tail of a drained capture. Each prints what the HAL counted, so the rig can hold it against
/// what the kernel shows in /proc/asound/.../status while the stream stands stopped.
extension HALPCMCommand.Stream {
    /// Opens the stream, runs `body` on it and closes it; a `PCMError` becomes the command's error.
    /// `usesHardwarePause: false` treats the device as one without pause (as the Pi's bcm2835-i2s).
    func run(_ direction: PCMDirection, usesHardwarePause: Bool = true,
             _ body: (ALSAPCM) throws(PCMError) -> Void) throws {
        let pcm = try open(direction, usesHardwarePause: usesHardwarePause)
        defer { pcm.close() }
        do throws(PCMError) { try body(pcm) } catch { throw HALCommandError(error) }
    }
}

extension HALPCMCommand {
    /// The largest frame count, duration or time a fault command takes: a day of frames at 384 kHz, a day
    /// of seconds or milliseconds, so that counts times rates cannot overflow.
    static let frameLimit = 86_400 * 384_000
    static let secondsLimit = 86_400
    static let millisecondsLimit = 86_400_000

    /// Refuses an option outside `range`, naming it: these commands multiply and sleep with them.
    static func check(_ value: Int, _ range: ClosedRange<Int>, option: String) throws {
        guard range.contains(value) else {
            throw ValidationError("--\(option) \(value) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
    }

    /// Writes silence until `frames` frames are written, or until the device takes none (a write of 0:
    /// it would take none the next time either); returns what was written.
    static func writeSilence(_ pcm: ALSAPCM, frames: Int) throws(PCMError) -> Int {
        let silence = [UInt8](repeating: 0, count: pcm.parameters.periodFrames * pcm.parameters.bytesPerFrame)
        return try inPeriods(pcm, frames: frames) { bytes throws(PCMError) in
            // withUnsafeBytes rethrows untyped: the error crosses it as a Result.
            try silence.withUnsafeBytes { buffer in
                Result { () throws(PCMError) in try pcm.write(UnsafeRawBufferPointer(rebasing: buffer[0..<bytes])) }
            }.get()
        }
    }

    /// Reads `frames` frames, or until the end of the stream (a read of 0 after a drain); returns what was read.
    static func read(_ pcm: ALSAPCM, frames: Int) throws(PCMError) -> Int {
        var space = [UInt8](repeating: 0, count: pcm.parameters.periodFrames * pcm.parameters.bytesPerFrame)
        return try inPeriods(pcm, frames: frames) { bytes throws(PCMError) in
            try space.withUnsafeMutableBytes { buffer in
                Result { () throws(PCMError) in try pcm.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes])) }
            }.get()
        }
    }

    /// Moves `frames` frames a period at a time through `transfer` (given the bytes of one step, returning
    /// the frames moved), stopping early when a transfer moves none; returns the frames moved.
    private static func inPeriods(_ pcm: ALSAPCM, frames: Int,
                                  _ transfer: (Int) throws(PCMError) -> Int) throws(PCMError) -> Int {
        var done = 0
        while done < frames {
            let moved = try transfer(min(pcm.parameters.periodFrames, frames - done) * pcm.parameters.bytesPerFrame)
            if moved == 0 { break }
            done += moved
        }
        return done
    }

    static func report(_ pcm: ALSAPCM) -> String {
        let xruns = pcm.xruns.report
        return "xruns=\(xruns.count) suspends=\(xruns.suspends) frame=\(xruns.lastFrame.map(String.init) ?? "none")"
    }

    /// Plays `frames` frames of silence, stops feeding for `stall` (the device runs dry: an underrun),
    /// then plays on: the write recovers and counts the underrun at the frame where playback stopped.
    struct Underrun: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Force a playback underrun and recover.")
        @OptionGroup var stream: Stream
        @Option(help: "Frames to play before stalling.") var frames: Int = 16384
        @Option(name: .customLong("stall-ms")) var stallMilliseconds: Int = 3000

        func validate() throws {
            try check(frames, 0...frameLimit, option: "frames")
            try check(stallMilliseconds, 0...millisecondsLimit, option: "stall-ms")
        }

        func run() throws {
            try stream.run(.playback) { pcm throws(PCMError) in
                let written = try writeSilence(pcm, frames: frames)
                emit("stalled written=\(written) state=\(pcm.state)")
                SystemClock.shared.sleep(for: .milliseconds(stallMilliseconds))
                emit("waking state=\(pcm.state)")
                _ = try writeSilence(pcm, frames: pcm.parameters.bufferFrames)
                try pcm.drain()
                emit("underrun \(report(pcm)) position=\(try pcm.framePosition().frame)")
            }
        }
    }

    /// Captures `frames` frames, stops reading for `stall` (the buffer fills: an overrun), then reads on:
    /// the read recovers and counts the overrun at the frame where the kernel stopped the stream, and the
    /// position counts the frames the stopped stream never captured.
    struct Overrun: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Force a capture overrun and recover.")
        @OptionGroup var stream: Stream
        @Option(help: "Frames to capture before stalling.") var frames: Int = 16384
        @Option(name: .customLong("stall-ms")) var stallMilliseconds: Int = 3000

        func validate() throws {
            try check(frames, 0...frameLimit, option: "frames")
            try check(stallMilliseconds, 0...millisecondsLimit, option: "stall-ms")
        }

        func run() throws {
            try stream.run(.capture) { pcm throws(PCMError) in
                let read = try HALPCMCommand.read(pcm, frames: frames)
                let stalled = SystemClock.shared.now
                emit("stalled read=\(read) state=\(pcm.state)")
                SystemClock.shared.sleep(for: .milliseconds(stallMilliseconds))
                emit("waking state=\(pcm.state)")
                _ = try HALPCMCommand.read(pcm, frames: pcm.parameters.periodFrames)
                let position = try pcm.framePosition()
                let stoppedAt = pcm.xruns.lastTime ?? stalled
                emit("overrun \(report(pcm)) position=\(position.frame) stopped-ns=\(stoppedAt.nanoseconds) "
                     + "recovered-ns=\(position.time.nanoseconds) stall-start-ns=\(stalled.nanoseconds)")
            }
        }
    }

    /// Plays silence for `seconds`; a suspend of the system meanwhile (the rig forces one) must be met
    /// with ESTRPIPE, resumed (or prepared) and counted, and the playback must carry on to the end.
    struct Suspend: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Play through a system suspend.")
        @OptionGroup var stream: Stream
        @Option(help: "Seconds to play.") var seconds: Int = 12

        func validate() throws { try check(seconds, 1...secondsLimit, option: "seconds") }

        func run() throws {
            try stream.run(.playback) { pcm throws(PCMError) in
                let total = seconds * pcm.parameters.rate
                var done = try writeSilence(pcm, frames: pcm.parameters.bufferFrames)
                emit("playing state=\(pcm.state)")
                while done < total {
                    let more = try writeSilence(pcm, frames: pcm.parameters.periodFrames)
                    if more == 0 { break }   // the device takes no more: report what was written
                    done += more
                }
                try pcm.drain()
                emit("suspend \(report(pcm)) written=\(done) position=\(try pcm.framePosition().frame)")
            }
        }
    }

    /// Captures `frames` frames, drains, holds the drained stream for `hold` (the rig reads the kernel's
    /// view of it then), and reads the tail until the end of the stream. `--no-pause` drains as on a
    /// device without pause (the Pi's bcm2835-i2s): the tail is read from the running ring, so a hold
    /// longer than the buffer time loses it (counted as an overrun).
    struct Tail: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Drain a capture and read its tail.")
        @OptionGroup var stream: Stream
        @Option(help: "Frames to capture before draining.") var frames: Int = 16384
        @Option(name: .customLong("wait-ms"), help: "Let frames gather unread before draining.") var waitMilliseconds: Int = 40
        @Option(name: .customLong("hold-ms")) var holdMilliseconds: Int = 2000
        @Flag(name: .customLong("no-pause"), help: "Drain as on a device without hardware pause.") var noPause = false

        func validate() throws {
            try check(frames, 0...frameLimit, option: "frames")
            try check(waitMilliseconds, 0...millisecondsLimit, option: "wait-ms")
            try check(holdMilliseconds, 0...millisecondsLimit, option: "hold-ms")
        }

        func run() throws {
            try stream.run(.capture, usesHardwarePause: !noPause) { pcm throws(PCMError) in
                let read = try HALPCMCommand.read(pcm, frames: frames)
                SystemClock.shared.sleep(for: .milliseconds(waitMilliseconds))
                try pcm.drain()
                let drained = try pcm.framePosition().frame
                emit("drained read=\(read) state=\(pcm.state) position=\(drained) pause=\(pcm.canPause)")
                SystemClock.shared.sleep(for: .milliseconds(holdMilliseconds))
                let tail = try HALPCMCommand.read(pcm, frames: Int.max)
                emit("tail frames=\(tail) state=\(pcm.state) position=\(try pcm.framePosition().frame) \(report(pcm))")
            }
        }
    }
}
