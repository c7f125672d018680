import Codec8_24
@testable import Queue
import Synchronization

/// A file reader fed the input as a whole file: open it (the type hint and the file's extension name the
/// format, as the player's are), then decode every packet to the end, then seek half way and read again.
/// Errors are the expected outcome for most inputs; a crash, a hang, a leak or an ASan report is the finding.
enum ContainerFuzz {
    /// Decoding stops after this many frames: an input may legitimately promise hours of audio in few bytes
    /// (a FLAC constant subframe), which is not a finding but would read as a hang.
    static let frameBudget: Int64 = 1 << 24

    static func run(_ input: [UInt8], type: AudioFileType, extension fileExtension: String) {
        decode(input, type: type, extension: fileExtension)
        // LeakSanitizer skips libopusfile's allocations (Fuzzing/lsan.supp: a leak of its own inside
        // op_open_callbacks), so it would not see an OggOpusFile the reader forgot to free: this does.
        precondition(OpusFileReader.openHandles.load(ordering: .relaxed) == 0, "an OggOpusFile was left open (no op_free)")
    }

    /// Frames compared after the seek (see `decode`).
    static let seekWindow = 1024

    static func decode(_ input: [UInt8], type: AudioFileType, extension fileExtension: String) {
        let path = FuzzScratch.file(named: "input.\(fileExtension)", holding: input)
        guard let file = try? AudioFile.open(path: path, typeHint: type) else { return }
        defer { try? file.close() }
        precondition(file.frameCount >= 0, "a negative length: \(file.frameCount) frames")
        let middle = file.frameCount / 2
        var fromStart = Window(at: middle, frames: seekWindow, channels: max(1, file.channelCount))
        let ending = readAll(file, capturing: &fromStart)
        if file.frameCount > 0, (try? file.seek(toFrame: middle)) != nil {
            var afterSeek = Window(at: middle, frames: seekWindow, channels: max(1, file.channelCount))
            readAll(file, capturing: &afterSeek)
            // Where every packet decodes on its own, there is one right answer: the frames a seek lands on are
            // the ones the read from the start had there (the readers promise sample-exact seeks), in a file
            // that reads to its end, or to where it is cut short, without a complaint. (In one damaged inside,
            // packets out of order, say, a seek may find what the read from the start had not reached yet: the
            // promise there is a clear error.) Decoders that carry state from packet to packet may start a seek
            // from another state, so only their lengths are held to account (by AudioFile).
            if ending == nil || ending == .truncated, decodesPacketsAlone(file.dataFormat.formatID) {
                let common = min(fromStart.filled, afterSeek.filled) * fromStart.channels
                precondition(fromStart.samples.prefix(common) == afterSeek.samples.prefix(common),
                             "a seek to frame \(middle) of \(file.frameCount) did not land on the frames the read from the start had there")
            }
        }
    }

    /// Apple's IMA4 keeps the running predictor when a packet's header agrees with it (as QuickTime and FFmpeg
    /// decode it), so a packet decoded after a seek may differ from the same packet decoded in sequence; the lossy
    /// codecs' decoders carry state (overlap, bit reservoir, pre-roll). Microsoft's IMA ADPCM block header holds
    /// the whole predictor, so its blocks stand alone.
    static func decodesPacketsAlone(_ format: AudioFormatID) -> Bool {
        switch format {
        case .linearPCM, .muLaw, .aLaw, .microsoftIMAADPCM, .flac, .appleLossless: true
        case .appleIMA4, .mpegLayer3, .opus, .mpeg4AAC: false
        }
    }

    /// Frames `start ..< start + capacity` of a read, kept to compare two reads of the same place.
    struct Window {
        let start: Int64
        let channels: Int
        var samples: [Int32]
        /// Frames kept so far (from `start` on, without a gap).
        var filled = 0

        init(at start: Int64, frames: Int, channels: Int) {
            self.start = start
            self.channels = channels
            samples = [Int32](repeating: 0, count: frames * channels)
        }

        /// Keeps what of `frames` frames read at `position` falls in the window.
        mutating func keep(_ buffer: UnsafeMutableBufferPointer<Fixed824>, frames: Int, at position: Int64) {
            let capacity = samples.count / channels
            let first = start + Int64(filled)
            guard filled < capacity, position <= first, first < position + Int64(frames) else { return }
            let offset = Int(first - position)
            let count = min(frames - offset, capacity - filled)
            for i in 0..<(count * channels) {
                samples[filled * channels + i] = buffer[offset * channels + i].raw
            }
            filled += count
        }
    }

    /// Reads from the read position to the end (or the first error, or the budget), keeping `window`'s frames;
    /// returns the kind of the error that ended it, if one did.
    @discardableResult
    static func readAll(_ file: AudioFile, capturing window: inout Window) -> AudioFileError.Kind? {
        let channels = max(1, file.channelCount)
        let buffer = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: 4096 * channels)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while total < frameBudget {
            let position = file.framePosition
            let frames: Int
            do { frames = try file.readFrames(into: buffer) } catch { return (error as? AudioFileError)?.kind ?? .io }
            guard frames > 0 else { return nil }
            precondition(frames * channels <= buffer.count, "readFrames wrote past the buffer it was given")
            window.keep(buffer, frames: frames, at: position)
            total += Int64(frames)
        }
        return nil
    }
}
