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

    static func decode(_ input: [UInt8], type: AudioFileType, extension fileExtension: String) {
        let path = FuzzScratch.file(named: "input.\(fileExtension)", holding: input)
        guard let file = try? AudioFile.open(path: path, typeHint: type) else { return }
        defer { try? file.close() }
        precondition(file.frameCount >= 0, "a negative length: \(file.frameCount) frames")
        readAll(file)
        if file.frameCount > 0, (try? file.seek(toFrame: file.frameCount / 2)) != nil {
            readAll(file)
        }
    }

    /// Reads from the read position to the end (or the first error, or the budget).
    static func readAll(_ file: AudioFile) {
        let channels = max(1, file.channelCount)
        let buffer = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: 4096 * channels)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while total < frameBudget {
            guard let frames = try? file.readFrames(into: buffer), frames > 0 else { return }
            precondition(frames * channels <= buffer.count, "readFrames wrote past the buffer it was given")
            total += Int64(frames)
        }
    }
}
