import CFLAC
import Codec8_24

/// A native or Ogg FLAC file decoded by libFLAC (RFC 9639), bit-exact, behind `AudioFile`.
///
/// Length is STREAMINFO's total samples; a file whose STREAMINFO says 0 (unknown: a stream captured to disk,
/// a recording never finished) is decoded once at open to count them.
///
/// Timeline: frame 0 of the file is the first frame in it. A stream recorded from the middle, or one whose
/// first frames were lost, starts with a frame whose header says a later sample, and its samples are numbered
/// from there (STREAMINFO's total, like the headers, counts from sample 0 of the whole stream). Frames missing
/// further on are silence, as libFLAC makes them, so a seek lands where the read from the start has the same
/// frame. A frame numbered before the end of those already read (out of order, a copy) is damage, said once;
/// the read goes on in the file's order.
///
/// Damage: a file cut short gives every whole frame before the cut, then `.truncated` naming the frame in
/// progress. A corrupt frame (CRC-16 mismatch, lost sync, bad header) gives `.malformed` once, at the byte
/// where the good frames end; its audio is dropped (libFLAC would hand over silence) and the next `read`
/// carries on from the next good frame, so a player can say what happened and still play the rest of the
/// track, as MPD and Rockbox do.
final class FLACFileReader: CompressedFileReader {
    let info: CompressedFileInfo
    private let decoder: FLACDecoder
    private let input: LibraryInput
    /// The next frame `read` delivers.
    private var position: Int64 = 0
    private var atEnd = false
    private var truncationReported = false
    /// Where to seek before the next read (after a frame whose CRC failed), on the stream's timeline.
    private var resumeSample: UInt64?
    /// The stream sample the file's first frame starts at (its header's number): frame 0 of the file.
    private let origin: UInt64

    init(_ input: LibraryInput, ogg: Bool) throws {
        self.input = input
        do {
            decoder = try FLACDecoder(.file(input), ogg: ogg)
        } catch var error as AudioFileError {
            error.path = input.path
            throw error
        }
        guard let stream = decoder.streamInfo else { throw AudioFileError(.malformed, "no STREAMINFO", offset: 0, path: input.path) }
        guard (1...8).contains(stream.channels), (4...32).contains(stream.bitsPerSample) else {
            throw AudioFileError(.unsupported, "FLAC with \(stream.channels) channels of \(stream.bitsPerSample) bits is outside 1 ... 8 channels of 4 ... 32 bits",
                                 offset: 8, path: input.path)
        }
        let audioStart = ogg ? 0 : (decoder.lastGoodEnd ?? 0)
        var total = Int64(stream.totalSamples)
        if total > 0 {
            // The first frame, to learn where the audio starts; it stays decoded for the first read (and damage
            // met on the way stays for it to report).
            while decoder.firstFrameSample == nil, decoder.state != FLAC__STREAM_DECODER_END_OF_STREAM, decoder.processSingle() {}
            if let failure = input.failure { throw failure }
        } else {
            // Unknown length: decode once to count (a long file costs a decode at open; seeking needs the count).
            decoder.countingOnly = true
            while decoder.state != FLAC__STREAM_DECODER_END_OF_STREAM && decoder.processSingle() {}
            decoder.countingOnly = false
            total = Int64(decoder.countedSamples)
            if let failure = input.failure { throw failure }
            guard decoder.rewind() else {
                throw AudioFileError(.malformed, "cannot return to the first frame after counting: \(decoder.stateText)", path: input.path)
            }
        }
        origin = decoder.firstFrameSample ?? 0
        guard origin == 0 || UInt64(total) > origin else {
            throw AudioFileError(.malformed, "STREAMINFO says the stream has \(total) samples, but the first FLAC frame starts at sample \(origin)",
                                 offset: audioStart, path: input.path)
        }
        total -= Int64(origin)
        let metadata = VorbisComment.metadata(decoder.comments)
        let seconds = Double(total) / Double(stream.sampleRate)
        let bitRate = seconds > 0 ? Int((Double(input.length - audioStart) * 8 / seconds).rounded()) : nil
        info = CompressedFileInfo(fileType: ogg ? .ogg : .flac, format: stream.format, frameCount: total,
                                  bitRate: bitRate, encoder: decoder.vendor, metadata: metadata)
    }

    deinit { decoder.close() }

    func seek(toFrame frame: Int64) throws {
        guard frame >= 0, frame <= info.frameCount else {
            throw AudioFileError(.misuse, "cannot seek to frame \(frame): the file has \(info.frameCount) frames", path: input.path)
        }
        decoder.damage = nil
        decoder.resumeSample = nil
        resumeSample = nil
        decoder.frames = 0
        decoder.consumed = 0
        position = frame
        atEnd = frame == info.frameCount
        truncationReported = false
        guard !atEnd, let pointer = decoder.decoder else { return }
        let target = origin + UInt64(frame)
        if FLAC__stream_decoder_seek_absolute(pointer, target) != 0 {
            if let damage = decoder.damage { throw taking(damage) }
            // libFLAC's seek passes over a frame whose CRC fails without a word and lands after it (handing
            // over silence): the frame sought into is corrupt. Said now; the next read goes on after it.
            guard decoder.frames > 0, decoder.firstSample == target else {
                resumeSample = decoder.frames > 0 ? decoder.firstSample : nil
                decoder.frames = 0
                throw AudioFileError(.malformed, "cannot seek to frame \(frame): the FLAC frame holding it is corrupt", path: input.path)
            }
            return
        }
        // libFLAC's seek failed (damage on the way, or a file it cannot bisect): start over and decode forward.
        if let failure = input.failure { throw failure }
        guard decoder.rewind() else {
            throw AudioFileError(.malformed, "cannot seek to frame \(frame): \(decoder.stateText)", path: input.path)
        }
        decoder.damage = nil
        while true {
            guard decoder.processSingle(), decoder.state != FLAC__STREAM_DECODER_END_OF_STREAM || decoder.frames > 0 else {
                throw AudioFileError(.malformed, "cannot seek to frame \(frame): the file's frames end before it", path: input.path)
            }
            if let damage = decoder.damage {
                // Damage at or before the target: said now. When the corrupt frame held the target, the next
                // read goes on after it; otherwise it goes on from where libFLAC resynchronised.
                let error = taking(damage)
                if let resume = resumeSample, resume <= target { resumeSample = nil }
                throw AudioFileError(.malformed, "cannot seek to frame \(frame): \(error.message)", offset: error.offset, path: input.path)
            }
            let end = decoder.firstSample + UInt64(decoder.frames)
            if decoder.frames > 0 && end > target {
                decoder.consumed = Int(target - min(target, decoder.firstSample))
                return
            }
            decoder.frames = 0
        }
    }

    /// Fills `buffer` with whole frames as far as the file goes; damage met after some frames were copied is
    /// thrown by the next call.
    func read(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        let channels = decoder.channels
        guard let output = buffer.baseAddress, buffer.count >= channels, channels > 0 else { return 0 }
        let wanted = buffer.count / channels
        var done = 0
        while done < wanted {
            if let damage = decoder.damage {
                if done > 0 { return done }
                throw taking(damage)
            }
            if let sample = resumeSample {
                resumeSample = nil
                try seek(toFrame: min(Int64(sample - min(sample, origin)), info.frameCount))
            }
            if decoder.consumed < decoder.frames, let samples = decoder.samples {
                let at = Int64(decoder.firstSample) - Int64(origin) + Int64(decoder.consumed)
                if at > position {
                    // Frames missing before this one. libFLAC fills such a gap with silence (FLAC/stream_decoder.h
                    // of 1.5, MISSING_FRAME; 1.4 too, unannounced) in the same call that decodes the frame after
                    // it, so the decoder's one-frame buffer keeps only that frame: the silence is made here.
                    let n = Int(min(at - position, Int64(wanted - done)))
                    (output + done * channels).update(repeating: .zero, count: n * channels)
                    done += n
                    position += Int64(n)
                    if position == at, position < info.frameCount {
                        // libFLAC 1.4 hands over the frame after the gap as silence too (1.5 decodes it); a seek
                        // decodes it again, whole, as a seek to it from anywhere else would.
                        do { try seek(toFrame: position) } catch { decoder.damage = error as? AudioFileError }
                    }
                    continue
                }
                if at < position {
                    // A frame numbered before the end of the frames already read: out of order, or a copy. Said
                    // once; the read then goes on in the file's order, from this frame's place.
                    decoder.damage = AudioFileError(.malformed, "FLAC frame \(decoder.frameIndex - 1) says it starts at sample \(decoder.firstSample), before sample \(Int64(origin) + position) where the frames before it end: the frames are out of order")
                    position = at
                    continue
                }
                let n = min(decoder.frames - decoder.consumed, wanted - done)
                (output + done * channels).update(from: samples + decoder.consumed * channels, count: n * channels)
                decoder.consumed += n
                done += n
                position = Int64(decoder.firstSample) - Int64(origin) + Int64(decoder.consumed)
                continue
            }
            if atEnd {
                if done == 0 && position < info.frameCount && !truncationReported {
                    truncationReported = true
                    throw truncation()
                }
                return done
            }
            let ok = decoder.processSingle()
            if let failure = input.failure { throw failure }
            if decoder.state == FLAC__STREAM_DECODER_END_OF_STREAM {
                atEnd = true
                // libFLAC reports a frame cut off by the end of the file as lost sync: it is the truncation.
                if decoder.consumed >= decoder.frames && position < info.frameCount { decoder.damage = nil }
            } else if !ok && decoder.damage == nil {
                atEnd = true
                truncationReported = true
                if done > 0 { return done }
                throw AudioFileError(.malformed, "libFLAC stopped after frame \(decoder.frameIndex): \(decoder.stateText)",
                                     offset: decoder.lastGoodEnd, path: input.path)
            }
        }
        return done
    }

    /// The damage to throw, with the path; after a bad frame, the next read resumes at the frame after it.
    private func taking(_ damage: AudioFileError) -> AudioFileError {
        decoder.damage = nil
        resumeSample = decoder.resumeSample
        decoder.resumeSample = nil
        var error = damage
        error.path = input.path
        return error
    }

    /// The file ends before STREAMINFO's total: names the frame the cut fell in.
    private func truncation() -> AudioFileError {
        let stream = decoder.streamInfo
        let fixed = stream.map { $0.minimumBlockSize == $0.maximumBlockSize && $0.maximumBlockSize > 0 } ?? false
        let frame = fixed ? " \((position + Int64(origin)) / Int64(stream!.maximumBlockSize))" : ""
        return AudioFileError(.truncated, "the file ends inside FLAC frame\(frame) (from sample \(position)); \(info.frameCount - position) of \(info.frameCount) samples are missing",
                              offset: input.length, path: input.path)
    }

    func close() { decoder.close() }
}
