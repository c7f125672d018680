import CFFmpeg
import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// ADTS streams made by ffmpeg, pushed through ADTSStreamParser in awkward chunkings; packets are checked
/// against ffprobe's packet list and decoded with FFmpegPacketDecoder against ffmpeg's decode.
@Suite struct ADTSStreamParserTests {
    struct Parsed {
        var properties: [AudioFileStreamProperty] = []
        var packets: [[UInt8]] = []
    }

    static func parse(_ bytes: [UInt8], chunk: Int) throws -> Parsed {
        let parser = ADTSStreamParser()
        var parsed = Parsed()
        var i = 0
        while i < bytes.count {
            let end = min(bytes.count, i + chunk)
            try bytes[i..<end].withUnsafeBytes { raw in
                try parser.parse(raw, onProperty: { parsed.properties.append($0) }, onPackets: { data, descriptions in
                    for d in descriptions { parsed.packets.append(Array(data[d.startOffset..<(d.startOffset + d.dataByteSize)])) }
                })
            }
            i = end
        }
        return parsed
    }

    /// ffprobe's packets: (byte position, size), whole ADTS frames.
    static func probe(_ path: String) throws -> [(pos: Int, size: Int)] {
        let text = String(decoding: try ReferenceTool.run("ffprobe", ["-v", "error", "-show_entries", "packet=pos,size", "-of", "csv=p=0", path]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",")
            guard f.count >= 2, let a = Int(f[0]), let b = Int(f[1]) else { return nil }
            // csv order follows the entries as ffprobe prints them: size, pos.
            return (pos: b, size: a)
        }
    }

    @Test func oneByteAtATimeGivesFFprobesPackets() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "s.aac", ["-c:a", "aac", "-b:a", "128k"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let parsed = try Self.parse(bytes, chunk: 1)
        let reference = try Self.probe(path)
        // ffprobe counts whole ADTS frames; ffmpeg writes no CRC, so the header is 7 bytes (ISO/IEC 13818-7
        // protection_absent = 1) and each packet here is the frame less 7.
        #expect(parsed.packets.count == reference.count)
        #expect(parsed.packets.map(\.count) == reference.map { $0.size - 7 })
        #expect(parsed.properties.first == .fileFormat(.adts))
        #expect(parsed.properties.contains(.dataFormat(.compressed(.mpeg4AAC, sampleRate: 44100, channels: 2, framesPerPacket: 1024))))
        // AudioSpecificConfig for AAC-LC (object type 2), 44.1 kHz (index 4), 2 channels: 0x12 0x10.
        #expect(parsed.properties.contains(.magicCookie([0x12, 0x10])))
        #expect(parsed.properties.last == .readyToProducePackets)

        // The packets decode to what ffmpeg decodes from the file (same decoder; ADTS keeps the priming).
        let decoder = try FFmpegPacketDecoder(format: .compressed(.mpeg4AAC, sampleRate: 44100, channels: 2, framesPerPacket: 1024),
                                              magicCookie: [0x12, 0x10])
        var ours: [Fixed824] = []
        var out = [Fixed824](repeating: .zero, count: decoder.maximumFramesPerPacket * 2)
        for packet in parsed.packets {
            let n = try packet.withUnsafeBytes { raw in try out.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
            ours += out[0..<(2 * n)]
        }
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(ours.count == theirs.count)
        #expect(FFmpegFixture.maxDifference(ours, theirs, count: min(ours.count, theirs.count)) <= FFmpegFixture.aacTolerance)
    }

    @Test func joinsMidStreamAtAConfirmedHeader() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "s.aac", ["-c:a", "aac", "-b:a", "128k"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let join = 5001
        let parsed = try Self.parse(Array(bytes[join...]), chunk: 97)
        let reference = try Self.probe(path).filter { $0.pos >= join }
        #expect(parsed.packets.count == reference.count)
        #expect(parsed.packets.map(\.count) == reference.map { $0.size - 7 })
    }

    @Test func garbageIsRefusedWithOneError() throws {
        let junk = [UInt8](repeating: 0x41, count: ADTSStreamParser.huntLimit + 10)
        #expect(throws: AudioFileError.self) { _ = try Self.parse(junk, chunk: 4096) }
    }

    /// ALAC packets and cookie as FFmpeg's CAF demuxer hands them out (the 36-byte 'alac' atom, and the bare
    /// 24-byte ALACSpecificConfig inside it, the form CAF's 'kuki' and MP4's 'alac' box carry), decoded by
    /// FFmpegPacketDecoder: bit for bit the sox source.
    @Test(arguments: [16, 24])
    func appleLosslessPacketsDecodeBitExact(bits: Int) throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory, bits: bits)
        let path = try FFmpegFixture.encode(source, directory, "a.caf", ["-c:a", "alac"])
        let input = try LibraryInput(try FileDescriptor.open(path, writable: false))
        let session = try FFmpegSession(try FFmpegLibrary.loaded(for: "test"))
        let api = session.api
        let io = try #require(FFmpegIO.reading(input, api))
        session.io = io
        var context: UnsafeMutablePointer<AVFormatContext>? = api.avformat_alloc_context()
        context?.pointee.pb = io
        context?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        try #require(api.avformat_open_input(&context, nil, nil, nil) >= 0)
        session.format = context
        let parameters = try #require(context?.pointee.streams[0]?.pointee.codecpar)
        let atom = Array(UnsafeBufferPointer(start: parameters.pointee.extradata, count: Int(parameters.pointee.extradata_size)))
        #expect(atom.count == 36)
        let original = try soxSamples(source)
        for cookie in [atom, Array(atom[12...])] {
            let decoder = try FFmpegPacketDecoder(format: .compressed(.appleLossless, sampleRate: 44100, channels: 2, framesPerPacket: 4096, bitsPerChannel: bits),
                                                  magicCookie: cookie)
            #expect(decoder.maximumFramesPerPacket == 4096)
            var decoded: [Int32] = []
            var out = [Fixed824](repeating: .zero, count: 2 * decoder.maximumFramesPerPacket)
            _ = api.avformat_seek_file(context, 0, Int64.min, 0, 0, 0)
            let packet = try #require(session.packet)
            while api.av_read_frame(context, packet) >= 0 {
                let bytes = UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
                let n = try out.withUnsafeMutableBufferPointer { try decoder.decode(bytes, into: $0) }
                decoded += out[0..<(2 * n)].map(\.int32)
                api.av_packet_unref(packet)
            }
            #expect(decoded.count == original.count)
            #expect(ReferenceTool.firstDifference(decoded, original) == nil)
        }
        #expect(throws: AudioFileError.self) { _ = try FFmpegPacketDecoder.alacExtradata([1, 2, 3]) }
    }
}
