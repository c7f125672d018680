import Testing
@testable import Queue

struct StreamFormatTests {
    @Test func constructorsDescribeConsistentStreams() throws {
        for format in [StreamFormat.linearPCM(sampleRate: 48000, channels: 2, bits: 16),
                       .linearPCM(sampleRate: 44100, channels: 1, bits: 8, isSigned: false),
                       .linearPCM(sampleRate: 96000, channels: 6, bits: 24, isBigEndian: true),
                       .linearPCM(sampleRate: 48000, channels: 2, bits: 64, isFloat: true),
                       .muLaw(sampleRate: 8000, channels: 1), .aLaw(sampleRate: 8000, channels: 2),
                       .appleIMA4(sampleRate: 44100, channels: 2), .microsoftIMAADPCM(sampleRate: 22050, channels: 2)] {
            try format.validate()
        }
        let stereo = StreamFormat.linearPCM(sampleRate: 48000, channels: 2, bits: 24)
        #expect(stereo.bytesPerFrame == 6 && stereo.bytesPerPacket == 6 && stereo.framesPerPacket == 1)
        #expect(StreamFormat.appleIMA4(sampleRate: 8000, channels: 2).bytesPerPacket == 68)
        #expect(StreamFormat.microsoftIMAADPCM(sampleRate: 8000, channels: 1, blockAlign: 256).framesPerPacket == 505)
        #expect(StreamFormat.linearPCM(sampleRate: 48000, channels: 3, bits: 16).channelLayout?.description == "L R C")
    }

    static let inconsistent: [(StreamFormat, String)] = {
        var list: [(StreamFormat, String)] = []
        var f = StreamFormat.linearPCM(sampleRate: 48000, channels: 2, bits: 16)
        f.bytesPerFrame = 3; list.append((f, "bytes per frame is 3"))
        f = .linearPCM(sampleRate: 48000, channels: 2, bits: 16); f.bytesPerPacket = 8; list.append((f, "bytes per packet"))
        f = .linearPCM(sampleRate: 48000, channels: 2, bits: 16); f.framesPerPacket = 2; list.append((f, "1 frame per packet"))
        f = .linearPCM(sampleRate: 0, channels: 2, bits: 16); list.append((f, "sample rate"))
        f = .linearPCM(sampleRate: .nan, channels: 2, bits: 16); list.append((f, "sample rate"))
        f = .linearPCM(sampleRate: 48000, channels: 0, bits: 16); list.append((f, "0 channels"))
        f = .linearPCM(sampleRate: 48000, channels: 2, bits: 12); list.append((f, "not 12"))
        f = .linearPCM(sampleRate: 48000, channels: 2, bits: 16, isFloat: true); list.append((f, "float samples are 32 or 64"))
        f = .linearPCM(sampleRate: 48000, channels: 2, bits: 16, isSigned: false); list.append((f, "unsigned"))
        f = .linearPCM(sampleRate: 48000, channels: 4, bits: 16); f.channelLayout = nil; list.append((f, "need a channel layout"))
        f = .linearPCM(sampleRate: 48000, channels: 4, bits: 16); f.channelLayout = .standard(channelCount: 5); list.append((f, "names 5 channels"))
        f = .linearPCM(sampleRate: 48000, channels: 2, bits: 16); f.flags.insert(.isNonInterleaved); list.append((f, "non-interleaved"))
        f = .muLaw(sampleRate: 8000, channels: 2); f.bytesPerPacket = 4; list.append((f, "one byte per sample"))
        f = .appleIMA4(sampleRate: 8000, channels: 2); f.bytesPerPacket = 34; list.append((f, "IMA4 packets are 64 frames in 68 bytes"))
        f = .microsoftIMAADPCM(sampleRate: 8000, channels: 2, blockAlign: 250); list.append((f, "multiple of 8"))
        f = .microsoftIMAADPCM(sampleRate: 8000, channels: 1); f.framesPerPacket = 64; list.append((f, "hold 505 frames"))
        return list
    }()

    @Test("inconsistent descriptions are refused with the reason", arguments: 0..<inconsistent.count)
    func refusesInconsistent(index: Int) {
        let (format, reason) = Self.inconsistent[index]
        #expect(throws: StreamFormatError.self) { try format.validate() }
        do { try format.validate() } catch { #expect(error.reason.contains(reason), "\(error.reason)") }
    }

    @Test func waveChannelMasksMapToLabels() {
        let layout = ChannelLayout(waveChannelMask: 0x3F, channelCount: 6)
        #expect(layout.description == "L R C LFE Ls Rs")
        #expect(layout.waveChannelMask == 0x3F)
        #expect(ChannelLayout(labels: [.right, .left, .center]).waveChannelMask == 0)   // out of mask order
        #expect(ChannelLayout(waveChannelMask: 0x3, channelCount: 3).labels == [.left, .right, .discrete(2)])
    }
}
