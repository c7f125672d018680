import Codec8_24
import Queue

/// AudioFileStream fed the input in the chunks a network would cut it into, every packet it delivers decoded
/// by an AudioPacketDecoder made from the properties it announced (as the player's stream source does).
/// Input layout: byte 0 chooses the type hint (high nibble) and how many chunk sizes follow (low 3 bits, 1...8);
/// each chunk-size byte b gives a chunk of b+1 bytes, b*37+1 for odd b (so both small and large cuts occur),
/// used in turn; the rest is the stream.
enum StreamFuzz {
    static let hints: [AudioFileType?] = [nil, .wave, .rf64, .aiff, .aifc, .caf, .flac, .ogg, .mp3, .adts, .m4a]
    /// The harness's own room for one packet's frames; a stream promising more is refused here (not a finding).
    static let largestPacketSamples = 1 << 20

    final class Sink {
        var format: StreamFormat?
        var cookie: [UInt8] = []
        var decoder: AudioPacketDecoder?
        var decoderFailed = false
        var output = UnsafeMutableBufferPointer<Fixed824>(start: nil, count: 0)

        deinit { output.deallocate() }

        func packets(_ data: UnsafeRawBufferPointer, _ descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>) {
            guard let decoder = makeDecoder() else { return }
            if descriptions.isEmpty {
                let size = decoder.format.bytesPerPacket
                guard size > 0 else { return }
                var offset = 0
                while offset + size <= data.count {
                    decode(UnsafeRawBufferPointer(rebasing: data[offset..<(offset + size)]), decoder)
                    offset += size
                }
            } else {
                for description in descriptions {
                    let start = description.startOffset, end = start + description.dataByteSize
                    precondition(start >= 0 && description.dataByteSize >= 0 && end <= data.count,
                                 "AudioFileStream described a packet \(start)..<\(end) outside its \(data.count) bytes")
                    decode(UnsafeRawBufferPointer(rebasing: data[start..<end]), decoder)
                }
            }
        }

        private func decode(_ packet: UnsafeRawBufferPointer, _ decoder: AudioPacketDecoder) {
            guard let frames = try? decoder.decode(packet, into: output) else { return }
            precondition(frames * decoder.format.channelsPerFrame <= output.count, "decode wrote past its output")
        }

        private func makeDecoder() -> AudioPacketDecoder? {
            if let decoder { return decoder }
            guard !decoderFailed, let format else { return nil }
            guard let made = try? AudioPacketDecoder(format: format, magicCookie: cookie) else {
                decoderFailed = true
                return nil
            }
            let samples = made.maximumFramesPerPacket * max(1, format.channelsPerFrame)
            guard samples > 0, samples <= StreamFuzz.largestPacketSamples else {
                decoderFailed = true
                return nil
            }
            output = .allocate(capacity: samples)
            decoder = made
            return made
        }
    }

    static func run(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let hint = hints[Int(first >> 4) % hints.count]
        let sizeCount = Int(first & 7) + 1
        guard input.count > sizeCount else { return }
        let sizes = input[1...sizeCount].map { $0 & 1 == 1 ? Int($0) * 37 + 1 : Int($0) + 1 }
        let stream = Array(input[(sizeCount + 1)...])
        let sink = Sink()
        let parser = AudioFileStream(typeHint: hint, maximumHeaderBytes: 1 << 20, onProperty: { property in
            switch property {
            case .dataFormat(let format): sink.format = format
            case .magicCookie(let cookie): sink.cookie = cookie
            default: break
            }
        }, onPackets: { data, descriptions in sink.packets(data, descriptions) })
        var offset = 0, turn = 0
        while offset < stream.count {
            let end = min(stream.count, offset + sizes[turn % sizes.count])
            do {
                try parser.parse(Array(stream[offset..<end]))
            } catch {
                // Errors are final: every later call must throw the same, never crash.
                precondition((try? parser.parse([0])) == nil, "AudioFileStream took bytes after it had failed")
                return
            }
            offset = end
            turn += 1
        }
    }
}
