import CFFmpeg
import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Hostile numbers in AAC / Apple Lossless containers (built here byte by byte, or tagged by ffmpeg): each gives
/// a clamped value or one clear AudioFileError, never an arithmetic trap.
@Suite struct FFmpegHostileInputTests {
    /// iTunSMPB (Apple's gapless tag: " flags delay padding length" in hexadecimal) with a padding of 2^63 - 1
    /// and length 0: before the clamp, `length` became about -2^63 and the padding sum trapped. Every field is now
    /// clamped to the frames the packets hold, so the tag would say "all of it is padding"; its counts do not add
    /// up to the packets' (delay + padding > all of them), so it is not believed and the file plays whole.
    @Test func iTunSMPBWithAHugePaddingIsNotBelievedAndDoesNotTrap() throws {
        let decodedCount: Int64 = 1024 + 44100 + 956   // the decoded count of the 1 s M4A of iTunSMPBTrimsWhenThereIsNoEditList
        let hostile = try #require(ITunesGaplessInfo(" 00000000 00000400 7FFFFFFFFFFFFFFF 0000000000000000", decoded: decodedCount))
        #expect(hostile.delay == 1024)          // 0x400
        #expect(hostile.padding == decodedCount)     // clamped from 2^63 - 1
        #expect(hostile.playable == 0)
        #expect(!hostile.addsUp)
        let huge = try #require(ITunesGaplessInfo(" 00000000 7FFFFFFFFFFFFFFF 00000000 7FFFFFFFFFFFFFFF", decoded: decodedCount))
        #expect(huge.delay == decodedCount)
        #expect(huge.playable == 0)
        // The sane tag of that test still trims to its stated length 0xAC44 = 44100.
        let sane = try #require(ITunesGaplessInfo(" 00000000 00000400 000003BC 000000000000AC44", decoded: decodedCount))
        #expect(sane.playable == 44100)
        #expect(sane.addsUp)

        // End to end: ffmpeg writes the hostile tag into an M4A without an edit list.
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "hostile.m4a", [
            "-c:a", "aac", "-b:a", "128k", "-use_editlist", "0", "-movflags", "use_metadata_tags",
            "-metadata", "iTunSMPB= 00000000 00000400 7FFFFFFFFFFFFFFF 0000000000000000"])
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        // The stream's own length: its packets' durations, 1024 + 44100 (ffmpeg's muxer shortens the last), the
        // priming included, as no edit list and no believed tag removes it.
        let durations = try ReferenceTool.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "packet=duration",
                                                          "-of", "csv=p=0", path])
        let stated = String(decoding: durations, as: UTF8.self).split(separator: "\n").compactMap { Int64($0) }.reduce(0, +)
        #expect(stated == 45124)
        #expect(reader.info.frameCount == stated)
        #expect(reader.info.encoderDelay == 0)
        let decoded = try FFmpegFixture.decodeAll(reader)
        #expect(decoded.count == 2 * Int(stated))
    }

    /// Time-base scaling in 128 bits: closed-form values, and a hostile 64-bit timestamp clamped, not trapped.
    @Test func clockScalesExactlyAndClampsHostileTimestamps() {
        // 1/1000 s ticks (ffmpeg's movie timescale) at 44.1 kHz: 453 ms = 453 * 44.1 = 19977.3 -> 19977 frames.
        let milliseconds = FFmpegClock(timeBase: AVRational(num: 1, den: 1000), sampleRate: 44100)
        #expect(milliseconds.frames(453) == 19977)
        #expect(milliseconds.timestamp(19977) == 453)
        #expect(milliseconds.frames(-453) == -19977)
        #expect(milliseconds.frames(Int64.max) == FFmpegClock.limit)
        #expect(milliseconds.frames(Int64.min) == -FFmpegClock.limit)
        let hostile = FFmpegClock(timeBase: AVRational(num: Int32.max, den: 1), sampleRate: Int(Int32.max))
        #expect(hostile.frames(Int64.max) == FFmpegClock.limit)
        #expect(hostile.timestamp(Int64.max) == 2)   // (2^63 - 1) / (2^31 - 1)^2 = 2.0000000019, rounded
    }

    static func box(_ name: String, _ payload: [UInt8]) -> [UInt8] {
        be(UInt64(8 + payload.count), 4) + Array(name.utf8) + payload
    }

    static func be(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }

    /// moov > trak > mdia > hdlr ('soun') + mdhd version 1 (ISO/IEC 14496-12 8.4.2: version, flags, 8-byte
    /// creation and modification times, 4-byte timescale, 8-byte duration).
    static func movie(timescale: UInt64, duration: UInt64) -> [UInt8] {
        let hdlr = box("hdlr", [0, 0, 0, 0] + [0, 0, 0, 0] + Array("soun".utf8) + [UInt8](repeating: 0, count: 13))
        // Built in steps: one long + chain of arrays is too much for Swift 6.0.3's type checker.
        var fields: [UInt8] = [1, 0, 0, 0]
        fields += be(0, 8)
        fields += be(0, 8)
        fields += be(timescale, 4)
        fields += be(duration, 8)
        fields += [0, 0, 0, 0]
        let mdhd = box("mdhd", fields)
        return box("moov", box("trak", box("mdia", hdlr + mdhd)))
    }

    static func mediaFrames(_ bytes: [UInt8], sampleRate: Int) throws -> Int64? {
        let directory = TemporaryDirectory()
        let path = directory.file("hostile.m4a")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let input = try LibraryInput(FileDescriptor.open(path, writable: false))
        return MP4MediaDuration.frames(input, sampleRate: sampleRate)
    }

    /// A 64-bit box size of 2^64 - 1 (ISO/IEC 14496-12 4.2: size 1 means a 64-bit largesize follows) is no
    /// Int64; a sane mdhd gives its duration in frames; a hostile sample rate is clamped.
    @Test func mp4BoxSizesAndDurationsCannotOverflow() throws {
        let huge = Self.be(1, 4) + Array("moov".utf8) + Self.be(UInt64.max, 8) + [UInt8](repeating: 0, count: 16)
        let hugeFrames = try Self.mediaFrames(huge, sampleRate: 44100)
        #expect(hugeFrames == nil)
        // After an 8-byte 'free' box, a largesize of 2^63 - 1 is an Int64, but offset + size overflows.
        var overflowing = Self.box("free", []) + Self.be(1, 4)
        overflowing += Array("moov".utf8)
        overflowing += Self.be(UInt64(Int64.max), 8)
        overflowing += [UInt8](repeating: 0, count: 16)
        let overflowingFrames = try Self.mediaFrames(overflowing, sampleRate: 44100)
        #expect(overflowingFrames == nil)
        // 44100 ticks at timescale 44100 = 1 s = 48000 frames at 48 kHz.
        let second = try Self.mediaFrames(Self.movie(timescale: 44100, duration: 44100), sampleRate: 48000)
        #expect(second == 48000)
        // (2^40 - 1) s at (2^31 - 1) Hz is about 2^71 frames: clamped, not trapped.
        let clamped = try Self.mediaFrames(Self.movie(timescale: 1, duration: (1 << 40) - 1), sampleRate: Int(Int32.max))
        #expect(clamped == FFmpegClock.limit)
    }

    /// An ADTS header (ISO/IEC 13818-7 6.2.1: syncword 0xFFF, ID, layer 00, protection_absent 1, profile LC,
    /// sampling_frequency_index 4 = 44.1 kHz, channel_configuration 2, frame_length 17, buffer fullness 0x7FF,
    /// number_of_raw_data_blocks_in_frame `blocks - 1`) and 10 payload bytes.
    static func adtsFrame(blocks: Int) -> [UInt8] {
        [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x3F, 0xFC | UInt8(blocks - 1)] + [UInt8](repeating: 0, count: 10)
    }

    @Test func adtsFrameWithSeveralRawDataBlocksIsRefused() throws {
        let one = try ADTSStreamParserTests.parse(Self.adtsFrame(blocks: 1) + Self.adtsFrame(blocks: 1), chunk: 5)
        #expect(one.packets.count == 2)
        let error = thrownAudioFileError { _ = try ADTSStreamParserTests.parse(Self.adtsFrame(blocks: 1) + Self.adtsFrame(blocks: 3), chunk: 5) }
        #expect(error?.kind == .unsupported)
        #expect(error?.offset == 17)
        #expect(error?.message.contains("raw data blocks") == true)
    }

    /// An AAC packet decodes to 1024 frames (ISO/IEC 14496-3 4.5.1.1, frameLengthFlag 0): into room for 512 it
    /// is refused as misuse instead of being cut silently.
    @Test func packetLargerThanTheOutputIsMisuse() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "a.aac", ["-c:a", "aac", "-b:a", "128k"])
        let parsed = try ADTSStreamParserTests.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), chunk: 4096)
        var format: StreamFormat?
        var cookie: [UInt8] = []
        for property in parsed.properties {
            if case .dataFormat(let f) = property { format = f }
            if case .magicCookie(let c) = property { cookie = c }
        }
        let found = try #require(format)
        let decoder = try FFmpegPacketDecoder(format: found, magicCookie: cookie)
        let output = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: 2 * 512)
        defer { output.deallocate() }
        let error = thrownAudioFileError {
            for packet in parsed.packets.prefix(4) {
                _ = try packet.withUnsafeBytes { try decoder.decode($0, into: output) }
            }
        }
        #expect(error?.kind == .misuse)
    }

    /// A 466-byte M4A (libFuzzer, alac target, 2026-12-07) whose sample tables claim 130,928,908 frames: FFmpeg's
    /// MP4 demuxer allocated and filled its packet index for all of them, 3.2 GB (ffprobe on the same file: 3.2 GB
    /// resident, 11 s; `appliance info` said "4091.528 s" after 3.2 GB and 8 s), more memory than a board has.
    /// FFmpeg's allocations are now capped (av_max_alloc, `FFmpegLibrary.largestAllocation`), and a file whose
    /// index did not fit is refused, with the tables named.
    @Test func sampleTablesClaimingMoreThanAnIndexCanHoldAreRefusedWithoutTheMemory() throws {
        let directory = TemporaryDirectory()
        let path = try RepairFixtureTests.copy("m4a-sample-tables-claim-130-million-frames.m4a", into: directory)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let before = usage.ru_maxrss
        let error = thrownAudioFileError { _ = try AudioFile.open(path: path) }
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #expect(error?.kind == .malformed)
        #expect(error?.description.contains("sample tables claim more packets") == true, "\(error?.description ?? "no error")")
        // The process's peak resident memory (kB) grew by less than a third of what the index took (other tests
        // run beside this one, so the margin is wide).
        #expect(usage.ru_maxrss - before < 1_000_000, "peak resident memory grew \(usage.ru_maxrss - before) kB")
    }
}
