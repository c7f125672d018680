import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// A decoder double: a ramp (sample i of frame f is f·channels + c, in 8.24 units) of `frames` frames, in blocks
/// of at most `block` frames per read, as a library hands out one coded frame at a time.
final class RampReader: CompressedFileReader {
    let info: CompressedFileInfo
    let block: Int
    /// Where the reader stops early (a file cut short), when set.
    let endsEarlyAt: Int64?
    /// Whether the cut is thrown (as the real readers do: the frames before it first, then `.malformed` or
    /// `.truncated` on the next call) rather than a quiet end.
    let throwsAtCut: Bool
    var position: Int64 = 0
    var seeks: [Int64] = []
    var closed = false

    init(type: AudioFileType, frames: Int64, channels: Int = 2, block: Int = 1152, endsEarlyAt: Int64? = nil, throwsAtCut: Bool = false) {
        self.throwsAtCut = throwsAtCut
        var metadata = AudioFileMetadata()
        metadata.title = "Ramp"
        metadata.album = "Doubles"
        metadata.trackNumber = 3
        metadata.replayGain.trackGain = -6.5
        info = CompressedFileInfo(fileType: type, format: .compressed(.flac, sampleRate: 44100, channels: channels, bitsPerChannel: 16),
                                  frameCount: frames, encoderDelay: 576, padding: 100, bitRate: 900_000, encoder: "ramp 1.0",
                                  metadata: metadata)
        self.block = block
        self.endsEarlyAt = endsEarlyAt
    }

    static func sample(frame: Int64, channel: Int, channels: Int) -> Fixed824 {
        Fixed824(raw: Int32(truncatingIfNeeded: frame * Int64(channels) + Int64(channel)))
    }

    func seek(toFrame frame: Int64) throws {
        seeks.append(frame)
        position = frame
    }

    func read(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        let channels = info.format.channelsPerFrame
        let end = endsEarlyAt ?? info.frameCount
        let n = Int(min(Int64(min(block, buffer.count / channels)), end - position))
        guard n > 0 else {
            if throwsAtCut && position < info.frameCount { throw AudioFileError(.malformed, "corrupt frame at frame \(position)") }
            return 0
        }
        for f in 0..<n {
            for c in 0..<channels { buffer[f * channels + c] = Self.sample(frame: position + Int64(f), channel: c, channels: channels) }
        }
        position += Int64(n)
        return n
    }

    func close() { closed = true }
}

/// An encoder double: writes each frame's first sample as 4 raw bytes through `LibraryOutput`, a header
/// first; `closesOnFinish` closes the file as a library that owns its stream does.
final class RawWriter: CompressedFileWriter {
    let output: LibraryOutput
    let closesOnFinish: Bool
    var framesWritten: Int64 = 0
    var commits = 0
    var abandoned = false
    let channels: Int

    init(_ output: LibraryOutput, format: StreamFormat, closesOnFinish: Bool) throws {
        self.output = output
        self.closesOnFinish = closesOnFinish
        channels = format.channelsPerFrame
        _ = Array("RAW!".utf8).withUnsafeBytes { output.write($0.baseAddress!, count: 4) }
    }

    func write(_ frames: UnsafeBufferPointer<Fixed824>) throws {
        for f in 0..<(frames.count / channels) {
            var value = frames[f * channels].raw.littleEndian
            _ = withUnsafeBytes(of: &value) { output.write($0.baseAddress!, count: 4) }
        }
        framesWritten += Int64(frames.count / channels)
    }

    func commit() throws { commits += 1 }
    func finish() throws { if closesOnFinish { try output.file.close() } }
    func abandon() { abandoned = true }
}

@Suite struct LibraryRoutingTests {
    /// Opens `path` with a reader double, returning the type the content was routed as.
    func openRouted(_ path: String, hint: AudioFileType? = nil, frames: Int64 = 10_000) throws -> (AudioFile, AudioFileType?, RampReader?) {
        var routed: AudioFileType?
        var made: RampReader?
        let file = try AudioFile.open(path: path, typeHint: hint) { _, type, _ in
            routed = type
            let reader = RampReader(type: type, frames: frames)
            made = reader
            return reader
        }
        return (file, routed, made)
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test("library containers are recognised by content, not by extension")
    func routingByContent() throws {
        let dir = TemporaryDirectory()
        let padding = [UInt8](repeating: 0, count: 100)
        // Magic numbers: RFC 9639 section 6 "fLaC"; RFC 3533 section 6 capture pattern "OggS"; ID3v2.4 section 3.1
        // "ID3"; ISO/IEC 11172-3 2.4.2.3 sync 0xFFF + layer '01' (Layer III) = FF FB; ISO/IEC 13818-7 ADTS sync
        // 0xFFF + layer '00' = FF F1; ISO/IEC 14496-12 4.3 'ftyp' box at byte 4.
        let cases: [(name: String, bytes: [UInt8], expected: AudioFileType)] = [
            ("flac-named.wav", Array("fLaC".utf8) + padding, .flac),
            ("ogg-named.mp3", Array("OggS".utf8) + padding, .ogg),
            ("id3-named.flac", Array("ID3".utf8) + [4, 0, 0] + padding, .mp3),
            ("sync-named.aiff", [0xFF, 0xFB, 0x90, 0x64] + padding, .mp3),
            ("adts-named.caf", [0xFF, 0xF1, 0x50, 0x80] + padding, .adts),
            ("mp4-named.ogg", [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + padding, .m4a),
        ]
        for item in cases {
            let path = dir.file(item.name)
            try write(item.bytes, to: path)
            let (file, routed, _) = try openRouted(path)
            #expect(routed == item.expected, "\(item.name)")
            #expect(file.fileType == item.expected, "\(item.name)")
        }
    }

    @Test("a library file reads through its reader: format, exact length, tags, frames and seeks")
    func readsThroughTheReader() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("x.flac")
        try write(Array("fLaC".utf8) + [UInt8](repeating: 0, count: 60), to: path)
        let frames: Int64 = 10_000
        let (file, _, reader) = try openRouted(path, frames: frames)
        let ramp = try #require(reader)
        #expect(file.frameCount == frames)
        #expect(file.dataFormat == ramp.info.format)
        #expect(file.channelCount == 2)
        #expect(file.metadata.album == "Doubles" && file.metadata.trackNumber == 3 && file.metadata.replayGain.trackGain == -6.5)
        #expect(file.compressedInfo?.encoderDelay == 576 && file.compressedInfo?.padding == 100)
        #expect(file.compressedInfo?.encoder == "ramp 1.0")
        #expect(abs(file.duration - Double(frames) / 44100) < 1e-9)

        // One read of 5000 frames is filled across the reader's 1152-frame blocks.
        var buffer = [Fixed824](repeating: .zero, count: 5000 * 2)
        let got = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
        #expect(got == 5000)
        let firstWrong = (0..<(got * 2)).first { buffer[$0] != RampReader.sample(frame: Int64($0 / 2), channel: $0 % 2, channels: 2) }
        #expect(firstWrong == nil)

        // Seek to frame 7777, then read: the ramp from there, to the end exactly.
        try file.seek(toFrame: 7777)
        #expect(ramp.seeks == [7777])
        var total = 0
        var mismatch: Int?
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
            if n == 0 { break }
            for i in 0..<(n * 2) where mismatch == nil {
                let frame = 7777 + Int64(total) + Int64(i / 2)
                if buffer[i] != RampReader.sample(frame: frame, channel: i % 2, channels: 2) { mismatch = total + i / 2 }
            }
            total += n
        }
        #expect(total == Int(frames) - 7777)
        #expect(mismatch == nil)
        #expect(throws: AudioFileError.self) { try file.seek(toFrame: frames + 1) }

        // Packets of a library codec are the library's: refused with what to do instead.
        var bytes = [UInt8](repeating: 0, count: 4096)
        let error = thrownAudioFileError {
            _ = try bytes.withUnsafeMutableBytes { try file.readPackets(start: 0, count: 1, into: $0) }
        }
        #expect(error?.kind == .unsupported)
        #expect(error?.description.contains("read or write frames instead") == true)
        try file.close()
        #expect(ramp.closed)
    }

    @Test("a library file that ends before its promised length gives its frames, then .truncated")
    func endsEarly() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("cut.mp3")
        try write(Array("ID3".utf8) + [UInt8](repeating: 0, count: 61), to: path)
        let file = try AudioFile.open(path: path, typeHint: nil) { _, type, _ in RampReader(type: type, frames: 4000, endsEarlyAt: 3000) }
        var buffer = [Fixed824](repeating: .zero, count: 8000 * 2)
        let got = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
        #expect(got == 3000)
        let error = thrownAudioFileError { _ = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) } }
        #expect(error?.kind == .truncated)
        #expect(error?.description.hasPrefix(path) == true)
        #expect(error?.description.contains("frame 3000") == true)
    }

    /// The real readers return the frames before damage, then throw on the next call; a read that asked for
    /// more than one library block must keep those frames (they are audio the user hears) and report the damage
    /// on the following read, with the position where the damage is.
    @Test("damage thrown part-way through a read: the frames before it are returned, the error comes next")
    func damageAfterFrames() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("damaged.mp3")
        try write(Array("ID3".utf8) + [UInt8](repeating: 0, count: 61), to: path)
        let file = try AudioFile.open(path: path, typeHint: nil) { _, type, _ in
            RampReader(type: type, frames: 4000, block: 1152, endsEarlyAt: 3000, throwsAtCut: true)
        }
        var buffer = [Fixed824](repeating: .zero, count: 8000 * 2)
        let got = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
        #expect(got == 3000)
        #expect(file.framePosition == 3000)
        // Every frame before the damage is the reader's ramp, the last one included.
        #expect(buffer[2 * 2999 + 1] == RampReader.sample(frame: 2999, channel: 1, channels: 2))
        let error = thrownAudioFileError { _ = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) } }
        #expect(error?.kind == .malformed)
        #expect(error?.description.hasPrefix(path) == true)
    }

    @Test("garbage named .mp3 is one clear .notAudioFile line")
    func garbageNamedMP3() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("garbage.mp3")
        try write(Array("this is not audio at all, just text".utf8), to: path)
        let error = thrownAudioFileError { _ = try AudioFile.open(path: path) }
        #expect(error?.kind == .notAudioFile)
        #expect(error?.description.hasPrefix(path) == true)
        #expect(error?.description.contains("\n") == false)
        #expect(error?.description.contains("'this'") == true)
    }

    /// A CAF header with `formatID` in 'desc' (Apple's CAF spec: 'caff', version 1, then 'desc' of 32 bytes), an
    /// empty 'kuki' and a 'data' chunk of `dataBytes` zero bytes after its 4-byte edit count.
    func cafHeader(formatID: String, flags: UInt32, framesPerPacket: UInt32, dataBytes: Int) -> [UInt8] {
        var bytes = Array("caff".utf8) + [0, 1, 0, 0]
        func u32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        func u64(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        bytes += Array("desc".utf8) + u64(32) + u64(Double(44100).bitPattern) + Array(formatID.utf8) + u32(flags)
            + u32(0) + u32(framesPerPacket) + u32(2) + u32(0)
        bytes += Array("data".utf8) + u64(UInt64(4 + dataBytes)) + u32(0) + [UInt8](repeating: 0, count: dataBytes)
        return bytes
    }

    @Test("CAF holding Apple Lossless or AAC is compressed and opened by its library")
    func cafLibraryCodecs() throws {
        let dir = TemporaryDirectory()
        // Apple CAF spec, ALAC: mFormatFlags 1 = 16-bit source, 3 = 24-bit; 4096 frames per packet.
        let alac = try CAFParser.parse(StreamByteSource(bytes: cafHeader(formatID: "alac", flags: 3, framesPerPacket: 4096, dataBytes: 8)),
                                       stopAtData: true)
        #expect(alac.format.formatID == .appleLossless && alac.format.bitsPerChannel == 24 && alac.format.framesPerPacket == 4096)
        let path = dir.file("alac.caf")
        try write(cafHeader(formatID: "alac", flags: 1, framesPerPacket: 4096, dataBytes: 8), to: path)
        let (_, routed, _) = try openRouted(path)
        #expect(routed == .caf)
        let aacPath = dir.file("aac.wav")
        try write(cafHeader(formatID: "aac ", flags: 2, framesPerPacket: 1024, dataBytes: 8), to: aacPath)
        #expect(try openRouted(aacPath).1 == .caf)
        // Their packets vary in size: not repaired or streamed by the PCM code, each refused in one line.
        let repair = thrownAudioFileError { _ = try AudioFile.repair(path: path) }
        #expect(repair?.kind == .unsupported)
        let stream = AudioFileStream(onProperty: { _ in }, onPackets: { _, _ in })
        let streamed = thrownAudioFileError { try stream.parse(cafHeader(formatID: "alac", flags: 1, framesPerPacket: 4096, dataBytes: 8)) }
        #expect(streamed?.kind == .unsupported)
    }

    @Test("an atomic create through a library writer appears only when closed; discarded, it leaves no trace")
    func atomicCreate() throws {
        for closesOnFinish in [false, true] {
            let dir = TemporaryDirectory()
            let path = dir.file("take.flac")
            let format = StreamFormat.compressed(.flac, sampleRate: 48000, channels: 2, bitsPerChannel: 16)
            let options = AudioFileWriteOptions(commitInterval: 0, replaceAtomically: true)
            let file = try AudioFile.createLibrary(path: path, type: .flac, format: format, options: options) { output, _, format, _ in
                try RawWriter(output, format: format, closesOnFinish: closesOnFinish)
            }
            let frames = (0..<300).flatMap { [Fixed824(raw: Int32($0) << 8), .zero] }
            try frames.withUnsafeBufferPointer { try file.writeFrames($0) }
            #expect(file.frameCount == 300)
            #expect(!FileManager.default.fileExists(atPath: path))
            let error = thrownAudioFileError {
                _ = try [UInt8](repeating: 0, count: 8).withUnsafeBytes { try file.writePackets($0, packetCount: 1) }
            }
            #expect(error?.kind == .unsupported)
            try file.close()
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(written.count == 4 + 300 * 4)
            #expect(Array(written.prefix(4)) == Array("RAW!".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["take.flac"])
        }
        let dir = TemporaryDirectory()
        let path = dir.file("gone.flac")
        var writer: RawWriter?
        let file = try AudioFile.createLibrary(path: path, type: .flac, format: .compressed(.flac, sampleRate: 48000, channels: 1, bitsPerChannel: 16),
                                               options: AudioFileWriteOptions(replaceAtomically: true)) { output, _, format, _ in
            let made = try RawWriter(output, format: format, closesOnFinish: false)
            writer = made
            return made
        }
        try [Fixed824](repeating: .zero, count: 100).withUnsafeBufferPointer { try file.writeFrames($0) }
        file.discard()
        #expect(writer?.abandoned == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("create refuses containers and codecs no library here writes, in one line")
    func createRefusals() throws {
        let dir = TemporaryDirectory()
        let mp3 = thrownAudioFileError {
            _ = try AudioFile.create(path: dir.file("x.mp3"), type: .mp3, format: .compressed(.mpegLayer3, sampleRate: 44100, channels: 2, framesPerPacket: 1152))
        }
        #expect(mp3?.kind == .unsupported)
        #expect(mp3?.description.contains("read here, not written") == true)
        let wavFLAC = thrownAudioFileError {
            _ = try AudioFile.create(path: dir.file("x.wav"), type: .wave, format: .compressed(.flac, sampleRate: 44100, channels: 2, bitsPerChannel: 16))
        }
        #expect(wavFLAC?.kind == .incompatibleFormat)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("MP4 cannot be streamed: one clear .unsupported")
    func mp4Stream() throws {
        let stream = AudioFileStream(onProperty: { _ in }, onPackets: { _, _ in })
        let error = thrownAudioFileError { try stream.parse([0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [UInt8](repeating: 0, count: 20)) }
        #expect(error?.kind == .unsupported)
        #expect(error?.description.contains("open it as a file") == true)
    }

    @Test("AudioPacketDecoder decodes a PCM stream's packets as the stream delivers them")
    func packetDecoderPCM() throws {
        // 16-bit little-endian stereo: 0x1234 and -2 (two's complement FEFF... as FE FF); Fixed824(int16:) is the reference scaling.
        let decoder = try AudioPacketDecoder(format: .linearPCM(sampleRate: 8000, channels: 2, bits: 16))
        var out = [Fixed824](repeating: .zero, count: 2)
        let frames = try [UInt8]([0x34, 0x12, 0xFE, 0xFF]).withUnsafeBytes { packet in
            try out.withUnsafeMutableBufferPointer { try decoder.decode(packet, into: $0) }
        }
        #expect(frames == 1)
        #expect(out == [Fixed824(int16: 0x1234), Fixed824(int16: -2)])
        let short = thrownAudioFileError {
            _ = try [UInt8(0)].withUnsafeBytes { packet in try out.withUnsafeMutableBufferPointer { try decoder.decode(packet, into: $0) } }
        }
        #expect(short?.kind == .misuse)
    }
}
