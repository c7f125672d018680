import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// AAC and Apple Lossless files made by ffmpeg at test time, read through FFmpegFileReader and compared with
/// ffmpeg's own decode (`ffmpeg -f s32le`) and the sox source.
@Suite struct FFmpegFileReaderTests {
    @Test(arguments: [(16, "m4a", AudioFileType.m4a), (24, "m4a", .m4a), (16, "caf", .caf), (24, "caf", .caf)])
    func appleLosslessIsBitIdentical(bits: Int, ext: String, type: AudioFileType) throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory, bits: bits)
        let path = try FFmpegFixture.encode(source, directory, "alac.\(ext)", ["-c:a", "alac"])
        let reader = try FFmpegFixture.open(path, type)
        defer { reader.close() }
        #expect(reader.info.format.formatID == .appleLossless)
        #expect(reader.info.format.bitsPerChannel == bits)
        #expect(reader.info.format.channelsPerFrame == 2)
        let ours = try FFmpegFixture.decodeAll(reader).map(\.int32)
        let theirs = try ReferenceTool.ffmpegSamples(path)
        let original = try soxSamples(source)   // sox's s32: a 16-bit v as v << 16, 24-bit as v << 8
        #expect(original.count == 2 * 44100)
        #expect(reader.info.frameCount == Int64(original.count / 2))
        #expect(ours.count == original.count)
        #expect(ReferenceTool.firstDifference(ours, theirs) == nil)
        #expect(ReferenceTool.firstDifference(ours, original) == nil)
    }

    /// ffmpeg's aac encoder writes an edit list (1024 frames of priming); FFmpeg 5.1's decode keeps the 956
    /// frames of padding after the 44100 real ones (45056 = 44 packets), which the edit list's duration cuts.
    @Test func aacInM4AIsGaplessAndMatchesFFmpeg() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "aac.m4a", ["-c:a", "aac", "-b:a", "128k"])
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        #expect(reader.info.format.formatID == .mpeg4AAC)
        #expect(reader.info.format.framesPerPacket == 1024)
        let sourceFrames = try soxSamples(source).count / 2
        #expect(reader.info.frameCount == Int64(sourceFrames))
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(reader.info.encoderDelay == 1024)   // ffprobe: the first packet's skip_samples
        // FFmpeg 5.1 decodes the padding too (ffmpeg's output is 45056 frames): its length less the source's.
        #expect(reader.info.padding == theirs.count / 2 - sourceFrames)
        let ours = try FFmpegFixture.decodeAll(reader)
        #expect(ours.count == 2 * sourceFrames)
        // Same decoder (float output): ours rounds each float to 8.24, ffmpeg to s32; they differ by at most
        // one 8.24 step (128 in s32), more only where ffmpeg clips at full scale.
        #expect(FFmpegFixture.maxDifference(ours, theirs, count: ours.count) <= FFmpegFixture.aacTolerance)
    }

    @Test func aacInADTSMatchesFFmpegFrameForFrame() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "aac.aac", ["-c:a", "aac", "-b:a", "128k"])
        let reader = try FFmpegFixture.open(path, .adts)
        defer { reader.close() }
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(reader.info.frameCount == Int64(theirs.count / 2))   // ADTS has no gapless data: all frames
        let ours = try FFmpegFixture.decodeAll(reader)
        #expect(ours.count == theirs.count)
        #expect(FFmpegFixture.maxDifference(ours, theirs, count: min(ours.count, theirs.count)) <= FFmpegFixture.aacTolerance)
    }

    @Test(arguments: [("aac.m4a", ["-c:a", "aac", "-b:a", "128k"], AudioFileType.m4a),
                      ("aac.aac", ["-c:a", "aac", "-b:a", "128k"], .adts),
                      ("alac.m4a", ["-c:a", "alac"], .m4a), ("alac.caf", ["-c:a", "alac"], .caf)])
    func seekIsSampleAccurate(name: String, arguments: [String], type: AudioFileType) throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory, noise: false)
        let path = try FFmpegFixture.encode(source, directory, name, arguments)
        let reader = try FFmpegFixture.open(path, type)
        defer { reader.close() }
        let all = try FFmpegFixture.decodeAll(reader)
        let count = Int(reader.info.frameCount)
        for target in [5000, 0, 1, 1023, 1024, 2047, 4097, 20000, count - 300, count] {
            try reader.seek(toFrame: Int64(target))
            let got = try FFmpegFixture.read(reader, frames: 300)
            let expected = Array(all[(2 * target)..<min(all.count, 2 * (target + 300))])
            #expect(got.count == expected.count, "seek to \(target)")
            if reader.info.format.formatID == .appleLossless {
                #expect(ReferenceTool.firstDifference(got, expected) == nil, "seek to \(target)")
            } else {
                // After a seek FFmpeg's AAC decoder starts from a flushed state (measured: within 0.0045 of the
                // decode from the start, -47 dB); one frame off would differ by up to 0.5 * 2 pi * 660 / 44100
                // = 0.047 (the 660 Hz sine's largest step): the bound, 0.01, tells the two apart.
                let worst = zip(got, expected).map { abs(Int64($0.raw) - Int64($1.raw)) }.max() ?? 0
                #expect(worst <= Int64(Fixed824.unityRaw) / 100, "seek to \(target): off by \(worst)")
            }
        }
    }

    /// A sine cut in three by sox, each part encoded to AAC in M4A by ffmpeg, decoded back to back: the
    /// edit lists' priming and end trimming leave exactly the source's frames, with no gap at the joins.
    @Test func gaplessAlbumPlaysAsTheUnbrokenSine() throws {
        let directory = TemporaryDirectory()
        let whole = directory.file("whole.wav")
        try ReferenceTool.run("sox", ["-R", "-n", "-r", "44100", "-c", "1", "-b", "16", whole, "synth", "1.5", "sine", "440", "vol", "0.5"])
        let cuts = [0, 20000, 43210, 66150]   // sox trim points in frames; 1.5 s = 66150
        var decoded: [Fixed824] = []
        for i in 0..<3 {
            let part = directory.file("part\(i).wav")
            try ReferenceTool.run("sox", [whole, part, "trim", "\(cuts[i])s", "\(cuts[i + 1] - cuts[i])s"])
            let path = try FFmpegFixture.encode(part, directory, "part\(i).m4a", ["-c:a", "aac", "-b:a", "192k"])
            let reader = try FFmpegFixture.open(path, .m4a)
            #expect(reader.info.frameCount == Int64(cuts[i + 1] - cuts[i]))
            let frames = try FFmpegFixture.decodeAll(reader)
            reader.close()
            // ffmpeg honours the edit list's start (and keeps the padding): the same frames, same decoder.
            let reference = try ReferenceTool.ffmpegSamples(path)
            #expect(reference.count >= frames.count)
            #expect(FFmpegFixture.maxDifference(frames, reference, count: min(frames.count, reference.count)) <= FFmpegFixture.aacTolerance)
            decoded += frames
        }
        #expect(decoded.count == 66150)
        // Against the closed-form sine 0.5 sin(2 pi 440 n / 44100): ffmpeg's AAC encoder at 192 kb/s stays
        // within 0.033 of it (measured on ffmpeg's own decode of the parts, worst in a part's first packet); a
        // priming gap of 1024 frames at a join, or the padding left in, would be off by up to 0.5.
        var worst = 0.0
        for n in 0..<decoded.count {
            worst = max(worst, abs(decoded[n].doubleValue - 0.5 * sin(2 * Double.pi * 440 * Double(n) / 44100)))
        }
        #expect(worst < 0.05, "largest deviation from the sine: \(worst)")
    }

    /// Without an edit list (ffmpeg's -use_editlist 0) FFmpeg decodes priming and padding too; Apple's
    /// iTunSMPB tag (delay 0x400 = 1024, padding 0x3BC = 956, length 0xAC44 = 44100: the gapless tag's
    /// layout, values from ffprobe's skip_samples and the source length above) trims them here.
    @Test func iTunSMPBTrimsWhenThereIsNoEditList() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "smpb.m4a", [
            "-c:a", "aac", "-b:a", "128k", "-use_editlist", "0", "-movflags", "use_metadata_tags",
            "-metadata", "iTunSMPB= 00000000 00000400 000003BC 000000000000AC44"])
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        #expect(reader.info.frameCount == 44100)
        #expect(reader.info.encoderDelay == 1024)
        #expect(reader.info.padding == 956)
        let theirs = try ReferenceTool.ffmpegSamples(path)   // everything: 1024 + 44100 + 956 frames
        #expect(theirs.count == 2 * 46080)
        let ours = try FFmpegFixture.decodeAll(reader)
        #expect(ours.count == 2 * 44100)
        #expect(FFmpegFixture.maxDifference(ours, Array(theirs[(2 * 1024)...]), count: min(ours.count, theirs.count - 2048)) <= FFmpegFixture.aacTolerance)
    }

    /// iTunes, fdkaac and qaac write no edit list: the priming and padding are only in iTunSMPB, which they
    /// write as a '----' freeform atom (com.apple.iTunes, iTunSMPB), here by AtomicParsley onto an M4A remuxed
    /// from ADTS, whose 45 packets of 1024 frames (46080) are laid out as theirs are. FFmpeg removes the tag's
    /// priming itself (mov.c turns it into skip-samples, which libavcodec carries across packets when it is
    /// longer than one) and leaves the padding: `ffmpeg` decodes 46080 - delay frames. The reader trims the
    /// padding by the tag and says nothing is missing: once it called every such file cut short (the stream's
    /// duration, priming included, against the frames after it), and it counted no more than one packet of
    /// priming. Delays: 1024 (ffmpeg's own encoder) and 2112 (0x840, Apple's and qaac's, two packets and 64).
    @Test(arguments: [(delay: 1024, padding: 956), (delay: 2112, padding: 956)])
    func iTunSMPBInAFreeformAtomTrimsThePaddingFFmpegLeaves(delay: Int, padding: Int) throws {
        let directory = TemporaryDirectory()
        let length = 46080 - delay - padding
        let tag = " 00000000 " + [delay, padding].map { hex($0, 8) }.joined(separator: " ") + " " + hex(length, 16)
        let path = try Self.itunesStyleM4A(directory, tag: tag)
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        #expect(reader.info.frameCount == Int64(length))
        #expect(reader.info.encoderDelay == delay)
        #expect(reader.info.padding == padding)
        let theirs = try ReferenceTool.ffmpegSamples(path)   // priming removed, padding kept
        #expect(theirs.count == 2 * (46080 - delay))
        let ours = try FFmpegFixture.decodeAll(reader)
        #expect(ours.count == 2 * length)
        #expect(FFmpegFixture.maxDifference(ours, theirs, count: min(ours.count, theirs.count)) <= FFmpegFixture.aacTolerance)
        // A seek lands on the frame the decode from the start has there: within 0.01 of it, as in
        // seekIsSampleAccurate (a decode from a flushed AAC decoder is not bit for bit; one frame off would be up
        // to 0.047 away).
        try reader.seek(toFrame: 30000)
        let tail = try FFmpegFixture.decodeAll(reader)
        #expect(tail.count == 2 * (length - 30000))
        let worst = zip(tail, ours[(2 * 30000)...]).map { abs(Int64($0.raw) - Int64($1.raw)) }.max() ?? 0
        #expect(worst <= Int64(Fixed824.unityRaw) / 100, "off by \(worst)")
    }

    private func hex(_ value: Int, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Apple's encoders and qaac prime AAC with 2112 frames, more than a packet, and say so in the edit list
    /// (media_time, ISO/IEC 14496-12 8.6.6). FFmpeg discards the first two packets whole and skips 64 frames of
    /// the third (libavcodec carries the skip over), so its first frame starts at timestamp 0. Here an ffmpeg M4A
    /// with its edit list's media_time set from 1024 to 2112 and its duration from 1000 to 990 ms (so the edit
    /// stays inside the 46080 - 2112 frames coded after it, as an encoder's own edit does): the reader plays the
    /// edit's 990 ms = 43659 frames, the same as `ffmpeg` plays from the same frame, and says nothing is missing.
    @Test func anEditListStartingPastTwoPacketsPlaysFromItsStart() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory, noise: false)
        let path = try FFmpegFixture.encode(source, directory, "apple-priming.m4a", ["-c:a", "aac", "-b:a", "128k"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let elst = try #require(bytes.range(of: Data("elst".utf8))).lowerBound
        // After the type: version 0 and flags (4 bytes), entry_count (4), segment_duration (4), media_time (4).
        #expect(bytes[elst + 4] == 0)
        #expect(bytes[(elst + 12)..<(elst + 16)].elementsEqual([0, 0, 0x03, 0xE8]))   // 1000 ms (mvhd's 1/1000 s)
        #expect(bytes[(elst + 16)..<(elst + 20)].elementsEqual([0, 0, 0x04, 0x00]))   // ffmpeg's 1024
        bytes.replaceSubrange((elst + 12)..<(elst + 20), with: [0, 0, 0x03, 0xDE, 0, 0, 0x08, 0x40])
        try bytes.write(to: URL(fileURLWithPath: path))
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(reader.info.encoderDelay == 2112)
        #expect(reader.info.frameCount == 43659)
        let ours = try FFmpegFixture.decodeAll(reader)
        #expect(ours.count == 2 * 43659)
        #expect(theirs.count >= ours.count)
        #expect(FFmpegFixture.maxDifference(ours, theirs, count: min(ours.count, theirs.count)) <= FFmpegFixture.aacTolerance)
    }

    /// A fragmented M4A with an edit list (ffmpeg -movflags frag_keyframe+delay_moov): FFmpeg 5.1 places its
    /// first packet at the edit's -1024 but skips nothing, and the stream's duration counts from that packet;
    /// FFmpeg 7.1 (the board's) skips the edit's 1024. Either way it plays to the end with no "cut short" (the
    /// check once held that duration against timestamp 0), every frame of the source, the samples of the host's
    /// `ffmpeg` (5.1, which skips nothing) from the frame the reader's FFmpeg starts at.
    @Test func aFragmentedM4AWithAnEditListPlaysToItsEnd() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory, noise: false)
        let path = try FFmpegFixture.encode(source, directory, "fragmented.m4a",
                                            ["-c:a", "aac", "-b:a", "128k", "-movflags", "frag_keyframe+delay_moov"])
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        let skipped = reader.info.encoderDelay
        #expect(skipped == 0 || skipped == 1024)
        #expect(reader.info.frameCount >= 44100)
        let ours = try FFmpegFixture.decodeAll(reader)
        #expect(ours.count == 2 * Int(reader.info.frameCount))
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(theirs.count >= ours.count + 2 * skipped)
        #expect(FFmpegFixture.maxDifference(ours, Array(theirs[(2 * skipped)...]), count: ours.count) <= FFmpegFixture.aacTolerance)
    }

    /// FFmpeg's mov demuxer applies an iTunSMPB atom's priming to Apple Lossless only after a seek (to AAC also
    /// when it opens the file), so `ffmpeg` plays such a file from frame 0 while a reader that seeks starts 256
    /// frames in. The reader measures where the audio starts after a seek, as every read starts, whether it
    /// believes the tag (delay 256, length 0: unknown) or not (counts that do not add up, so FFmpeg's own skip is
    /// all there is): its length, its read from the start and every seek agree, bit for bit, with FFmpeg's frames
    /// from 256 on. (Before, a tag not believed left the reader counting from 0 while FFmpeg started at 256.)
    @Test(arguments: [" 00000000 00000100 00000000 0000000000000000", " 00000000 00000100 00000010 0000000000001000"])
    func appleLosslessWithAnITunSMPBAtomSeeksConsistently(tag: String) throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "alac.m4a", ["-c:a", "alac"])
        try ReferenceTool.run("AtomicParsley", [path, "--rDNSatom", tag, "name=iTunSMPB", "domain=com.apple.iTunes", "--overWrite"])
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(theirs.count == 2 * 44100)
        #expect(reader.info.frameCount == 44100 - 256)
        let all = try FFmpegFixture.decodeAll(reader)
        #expect(all.count == 2 * (44100 - 256))
        #expect(ReferenceTool.firstDifference(all.map { Int32($0.raw) << 7 }, Array(theirs[(2 * 256)...])) == nil)
        for target in [0, 1, 1000, 4095, 4096, 20000, 44100 - 256 - 300] {
            try reader.seek(toFrame: Int64(target))
            let got = try FFmpegFixture.read(reader, frames: 300)
            #expect(ReferenceTool.firstDifference(got, Array(all[(2 * target)..<min(all.count, 2 * (target + 300))])) == nil, "seek to \(target)")
        }
    }

    /// A tag whose counts do not add up to the frames the packets hold (delay + length + padding = 46080
    /// here) describes other audio: a re-encode or an edit that kept the old tag. Its length is not believed
    /// (22050 here would cut the file in half); the file plays as `ffmpeg` plays it.
    @Test func anITunSMPBThatDoesNotAddUpIsNotBelieved() throws {
        let directory = TemporaryDirectory()
        let path = try Self.itunesStyleM4A(directory, tag: " 00000000 00000400 000003BC 0000000000005622")
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(theirs.count == 2 * 45056)
        #expect(reader.info.frameCount == 45056)
        let ours = try FFmpegFixture.decodeAll(reader)
        #expect(ours.count == theirs.count)
        #expect(FFmpegFixture.maxDifference(ours, theirs, count: min(ours.count, theirs.count)) <= FFmpegFixture.aacTolerance)
    }

    /// 44100 frames of `FFmpegFixture.source`'s two sines coded by ffmpeg's AAC encoder as ADTS, put in an M4A without an edit
    /// list (-c copy from ADTS: every packet 1024 frames, as iTunes writes them), with iTunSMPB `tag` written by
    /// AtomicParsley as iTunes does.
    static func itunesStyleM4A(_ directory: TemporaryDirectory, tag: String) throws -> String {
        let source = try FFmpegFixture.source(directory, noise: false)   // no PNS: a seek's decode matches bit for bit
        let adts = try FFmpegFixture.encode(source, directory, "coded.aac", ["-c:a", "aac", "-b:a", "128k"])
        let path = try FFmpegFixture.encode(adts, directory, "itunes.m4a", ["-c:a", "copy", "-use_editlist", "0"])
        try ReferenceTool.run("AtomicParsley", [path, "--rDNSatom", tag, "name=iTunSMPB", "domain=com.apple.iTunes", "--overWrite"])
        return path
    }

    @Test func tagsAndEncoderComeFromTheMP4Atoms() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        // use_metadata_tags makes ffmpeg write REPLAYGAIN_TRACK_GAIN (a key it has no iTunes atom for) as an
        // MP4 'mdta' key; title, artist, album, track and date go into the usual iTunes atoms.
        let path = try FFmpegFixture.encode(source, directory, "tagged.m4a", [
            "-c:a", "aac", "-b:a", "128k", "-movflags", "use_metadata_tags", "-metadata", "title=Blue in Green",
            "-metadata", "artist=Bill Evans", "-metadata", "album=Kind of Blue", "-metadata", "track=3/5",
            "-metadata", "date=1959", "-metadata", "REPLAYGAIN_TRACK_GAIN=-6.20 dB"])
        let reader = try FFmpegFixture.open(path, .m4a)
        defer { reader.close() }
        let metadata = reader.info.metadata
        #expect(metadata.title == "Blue in Green")
        #expect(metadata.artist == "Bill Evans")
        #expect(metadata.album == "Kind of Blue")
        #expect(metadata.trackNumber == 3)
        #expect(metadata.trackTotal == 5)
        #expect(metadata.replayGain.trackGain == -6.2)
        #expect(reader.info.encoder?.hasPrefix("Lavf") == true)
        #expect((100_000...160_000).contains(reader.info.bitRate ?? 0))   // asked for 128k
    }

    @Test func truncatedAndCorruptFilesGiveOneClearError() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        // ffmpeg writes the M4A index ('moov') at the end: a cut file has none.
        let plain = try FFmpegFixture.encode(source, directory, "plain.m4a", ["-c:a", "alac"])
        let data = try Data(contentsOf: URL(fileURLWithPath: plain))
        let cut = directory.file("cut.m4a")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(throws: AudioFileError.self) { _ = try FFmpegFixture.open(cut, .m4a) }
        // With the index in front (faststart), the audio plays up to the cut, then a .truncated error.
        let fast = try FFmpegFixture.encode(source, directory, "fast.m4a", ["-c:a", "alac", "-movflags", "+faststart"])
        let fastData = try Data(contentsOf: URL(fileURLWithPath: fast))
        let fastCut = directory.file("fastcut.m4a")
        try fastData.prefix(fastData.count * 6 / 10).write(to: URL(fileURLWithPath: fastCut))
        let reader = try FFmpegFixture.open(fastCut, .m4a)
        var frames = 0
        var buffer = [Fixed824](repeating: .zero, count: 2000)
        var failure: AudioFileError?
        do {
            while true {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
                if n == 0 { break }
                frames += n
            }
        } catch let error as AudioFileError { failure = error }
        #expect(failure?.kind == .truncated)
        #expect(frames > 44100 / 3 && frames < 44100)
        reader.close()
        // Garbage in the middle of an ADTS stream: audio, then either the decoder conceals it or one error.
        let adts = try FFmpegFixture.encode(source, directory, "noisy.aac", ["-c:a", "aac"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: adts))
        for i in (bytes.count / 2)..<(bytes.count / 2 + 300) { bytes[i] = UInt8(truncatingIfNeeded: i * 37) }
        try bytes.write(to: URL(fileURLWithPath: adts))
        do {
            let noisy = try FFmpegFixture.open(adts, .adts)
            _ = try FFmpegFixture.decodeAll(noisy)
        } catch let error as AudioFileError {
            #expect([.malformed, .truncated].contains(error.kind), "\(error)")
        }
        // Not audio at all.
        let junk = directory.file("junk.m4a")
        try Data(repeating: 0x55, count: 5000).write(to: URL(fileURLWithPath: junk))
        #expect(throws: AudioFileError.self) { _ = try FFmpegFixture.open(junk, .m4a) }
    }

    /// The message a board without FFmpeg shows: the loader is pointed at a soname that does not exist.
    @Test func missingLibraryNamesThePackage() throws {
        var sonames = FFmpegLibrary.Sonames()
        sonames.avcodec = "libavcodec.so.999"
        guard case .failure(let error) = FFmpegLibrary.load(sonames) else {
            Issue.record("a library that does not exist loaded")
            return
        }
        #expect(error.kind == .unsupported)
        #expect(error.message.contains("apt install libavcodec"))
        #expect(error.message.contains("libavcodec.so.999"))
        #expect(try FFmpegLibrary.loaded(for: "AAC").api.avcodec_find_decoder(FFmpegCodecs.codecID(.mpeg4AAC)!) != nil)
    }
}
