import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Apple Lossless written by FFmpegFileWriter, read back by `ffmpeg` (and our reader) bit for bit.
@Suite struct FFmpegFileWriterTests {
    static func write(_ path: String, type: AudioFileType, bits: Int, samples: [Fixed824], commitEvery: Int? = nil,
                      finish: Bool = true, metadata: AudioFileMetadata = AudioFileMetadata()) throws {
        let output = LibraryOutput(try FileDescriptor.create(path))
        let format = StreamFormat.compressed(.appleLossless, sampleRate: 48000, channels: 2, framesPerPacket: 4096, bitsPerChannel: bits)
        let writer = try FFmpegFileWriter(output, type: type, format: format, options: AudioFileWriteOptions(metadata: metadata))
        var i = 0
        while i < samples.count {
            let end = min(samples.count, i + 2 * 1000)
            try samples[i..<end].withUnsafeBufferPointer { try writer.write($0) }
            i = end
            if let commitEvery, (i / 2) % commitEvery == 0 { try writer.commit() }
        }
        #expect(writer.framesWritten == Int64(samples.count / 2))
        if finish { try writer.finish() } else { writer.abandon() }
        try output.file.close()
    }

    /// Samples exactly representable at `bits` (16-bit or 24-bit values in 8.24).
    static func signal(frames: Int, bits: Int) -> [Fixed824] {
        testSignal(frames: frames, channels: 2).map { bits == 16 ? Fixed824(int16: $0.int16) : Fixed824(int24: $0.int24) }
    }

    @Test(arguments: [(16, AudioFileType.caf), (24, .caf), (16, .m4a), (24, .m4a)])
    func ffmpegReadsBackWhatWeWrote(bits: Int, type: AudioFileType) throws {
        let directory = TemporaryDirectory()
        let path = directory.file(type == .caf ? "out.caf" : "out.m4a")
        let samples = Self.signal(frames: 30000, bits: bits)
        var metadata = AudioFileMetadata(title: "Take 1", artist: "The Appliance")
        metadata.album = "Rehearsals"
        try Self.write(path, type: type, bits: bits, samples: samples, commitEvery: 10000, metadata: metadata)
        let theirs = try ReferenceTool.ffmpegSamples(path)
        let ours = samples.map(\.int32)   // 16/24-bit values as s32: exact
        #expect(theirs.count == ours.count)
        #expect(ReferenceTool.firstDifference(theirs, ours) == nil)
        let probe = try ReferenceTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,bits_per_raw_sample:format_tags=title",
                                                      "-of", "default=nw=1", path])
        let text = String(decoding: probe, as: UTF8.self)
        #expect(text.contains("codec_name=alac"))
        #expect(text.contains("bits_per_raw_sample=\(bits)"))
        if type == .m4a { #expect(text.contains("title=Take 1")) }
        // And our own reader.
        let reader = try FFmpegFixture.open(path, type)
        defer { reader.close() }
        #expect(reader.info.frameCount == 30000)
        #expect(ReferenceTool.firstDifference(try FFmpegFixture.decodeAll(reader), samples) == nil)
        if type == .m4a { #expect(reader.info.metadata.album == "Rehearsals") }
    }

    /// A recording cut by power loss: the writer is dropped without finishing after commits. The fragmented
    /// M4A plays up to its last commit; that is why it is the recorder's container.
    @Test func fragmentedM4ASurvivesACutAtTheLastCommit() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cut.m4a")
        let samples = Self.signal(frames: 30500, bits: 16)
        try Self.write(path, type: .m4a, bits: 16, samples: samples, commitEvery: 10000, finish: false)
        #expect(FFmpegFileWriter.crashSafeContainer == .m4a)
        let theirs = try ReferenceTool.ffmpegSamples(path)
        // Committed at 10000, 20000 and 30000 frames; each commit ends a fragment of whole 4096-frame packets,
        // so the last one holds 7 * 4096 = 28672 frames (the rest was still in the encoder's frame).
        #expect(theirs.count == 2 * 28672)
        #expect(ReferenceTool.firstDifference(theirs, Array(samples.prefix(theirs.count)).map(\.int32)) == nil)
    }

    /// The other side of the choice: a CAF cut the same way has its audio bytes but no packet table (FFmpeg's
    /// caf muxer writes 'pakt' only at the end), so neither ffmpeg nor our reader finds any audio in it.
    @Test func abandonedCAFHasNoReadableAudio() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cut.caf")
        let samples = Self.signal(frames: 30500, bits: 16)
        try Self.write(path, type: .caf, bits: 16, samples: samples, commitEvery: 10000, finish: false)
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(size > 30000 * 2)   // the audio is on disk ...
        let theirs = try? ReferenceTool.ffmpegSamples(path)
        #expect((theirs ?? []).isEmpty, "ffmpeg decoded \((theirs ?? []).count / 2) frames")   // ... but unplayable
        var frames = 0
        do {
            let reader = try FFmpegFixture.open(path, .caf)
            frames = try FFmpegFixture.decodeAll(reader).count / 2
            reader.close()
        } catch let error as AudioFileError {
            #expect([.malformed, .truncated, .notAudioFile, .unsupported].contains(error.kind), "\(error)")
        }
        #expect(frames == 0)
    }
}
