import Foundation
import Testing
@testable import Codec8_24

/// One quantization interval of a G.711 law as ITU-T G.711 tabulates it (Tables 1a and 2a), scaled to
/// 16-bit linear: inputs `lower ..< upper` (of the magnitude) are coded as `code` and decode to `level`.
private struct G711Interval {
    var lower: Int
    var upper: Int
    var level: Int
    var positiveCode: UInt8
    var negativeCode: UInt8
}

/// The intervals derived independently from the standard's definition: segment end points, 16 equal steps
/// per segment, reconstruction at the middle of each step, and the character-signal bit patterns.
private enum G711Definition {
    /// µ-law (Table 2a): end points on the 14-bit scale (decision value 8159 is the overload point);
    /// the first step of the first segment is half-width around 0; 16-bit = 14-bit × 4.
    /// Character signal: polarity bit 1 for positive, then the 7 bits of (127 − 16·segment − step).
    static let muLaw: [G711Interval] = {
        let ends = [0, 31, 95, 223, 479, 991, 2015, 4063, 8159]
        var intervals: [G711Interval] = []
        for segment in 0..<8 {
            let stepSize = (ends[segment + 1] - ends[segment]) / 16 + (segment == 0 ? 1 : 0)   // 2, 4, ... 256
            for step in 0..<16 {
                let lower: Int, upper: Int, level: Int
                if segment == 0 {
                    lower = step == 0 ? 0 : 2 * step - 1
                    upper = 2 * step + 1
                    level = 2 * step
                } else {
                    lower = ends[segment] + step * stepSize
                    upper = lower + stepSize
                    level = lower + stepSize / 2
                }
                let bits = UInt8(127 - (16 * segment + step))
                intervals.append(G711Interval(lower: 4 * lower, upper: 4 * upper, level: 4 * level,
                                              positiveCode: 0x80 | bits, negativeCode: bits))
            }
        }
        return intervals
    }()

    /// A-law (Table 1a): end points on the 12-bit magnitude scale, 16 steps each (the first two segments
    /// both with step 2); 16-bit = 12-bit × 8. Character signal before inversion: polarity bit 1 for
    /// positive, 3 segment bits, 4 step bits; then the even bits (2, 4, 6, 8) are inverted for transmission.
    static let aLaw: [G711Interval] = {
        let ends = [0, 32, 64, 128, 256, 512, 1024, 2048, 4096]
        func invertEvenBits(_ code: UInt8) -> UInt8 {
            var result = code
            for bitNumber in [2, 4, 6, 8] { result ^= 1 << (8 - bitNumber) }   // bit 1 is the MSB
            return result
        }
        var intervals: [G711Interval] = []
        for segment in 0..<8 {
            let stepSize = (ends[segment + 1] - ends[segment]) / 16
            for step in 0..<16 {
                let lower = ends[segment] + step * stepSize
                let bits = UInt8(16 * segment + step)
                intervals.append(G711Interval(lower: 8 * lower, upper: 8 * (lower + stepSize),
                                              level: 8 * lower + 8 * stepSize / 2,
                                              positiveCode: invertEvenBits(0x80 | bits),
                                              negativeCode: invertEvenBits(bits)))
            }
        }
        return intervals
    }()
}

@Suite("G.711 µ-law and A-law")
struct G711Tests {
    @Test func definitionCoversEveryCodeOnce() {
        for intervals in [G711Definition.muLaw, G711Definition.aLaw] {
            let codes = intervals.flatMap { [$0.positiveCode, $0.negativeCode] }
            #expect(Set(codes).count == 256)
            // The intervals tile the magnitude range with no gap.
            for (a, b) in zip(intervals, intervals.dropFirst()) { #expect(a.upper == b.lower) }
        }
        #expect(G711Definition.muLaw.last!.upper == 32636)   // overload decision value 8159 × 4
        #expect(G711Definition.aLaw.last!.upper == 32768)
    }

    @Test func decodeMatchesTheStandardsTablesForAll256Codes() {
        for interval in G711Definition.muLaw {
            #expect(Int(MuLaw.decode(interval.positiveCode)) == interval.level, "µ-law \(interval.positiveCode)")
            #expect(Int(MuLaw.decode(interval.negativeCode)) == -interval.level, "µ-law \(interval.negativeCode)")
        }
        for interval in G711Definition.aLaw {
            #expect(Int(ALaw.decode(interval.positiveCode)) == interval.level, "A-law \(interval.positiveCode)")
            #expect(Int(ALaw.decode(interval.negativeCode)) == -interval.level, "A-law \(interval.negativeCode)")
        }
    }

    @Test func knownValues() {
        #expect(MuLaw.decode(0xFF) == 0)        // +0
        #expect(MuLaw.decode(0x7F) == 0)        // -0
        #expect(MuLaw.decode(0x80) == 32124)    // positive full scale: 8031 × 4
        #expect(MuLaw.decode(0x00) == -32124)
        #expect(MuLaw.decode(0xFE) == 8)
        #expect(MuLaw.decode(0xEF) == 132)      // first level of segment 1: 33 × 4
        #expect(ALaw.decode(0xD5) == 8)         // smallest positive level: 1 × 8
        #expect(ALaw.decode(0x55) == -8)
        #expect(ALaw.decode(0xAA) == 32256)     // positive full scale: 4032 × 8
        #expect(ALaw.decode(0x2A) == -32256)
        #expect(MuLaw.encode(0) == 0xFF)
        #expect(MuLaw.encode(-1) == 0x7F)
        #expect(ALaw.encode(0) == 0xD5)
        #expect(ALaw.encode(-1) == 0x55)
        #expect(MuLaw.encode(Int16.max) == 0x80)
        #expect(MuLaw.encode(Int16.min) == 0x00)
        #expect(ALaw.encode(Int16.max) == 0xAA)
        #expect(ALaw.encode(Int16.min) == 0x2A)
    }

    /// Each interval's first and last input codes to it; negative inputs mirror about -1/2 (one's complement),
    /// and µ-law inputs past the overload decision value clip to full scale.
    @Test func encodeAtDecisionBoundaries() {
        for interval in G711Definition.muLaw {
            #expect(MuLaw.encode(Int16(interval.lower)) == interval.positiveCode)
            #expect(MuLaw.encode(Int16(interval.upper - 1)) == interval.positiveCode)
            #expect(MuLaw.encode(Int16(-interval.lower - 1)) == interval.negativeCode)
            #expect(MuLaw.encode(Int16(-interval.upper)) == interval.negativeCode)
        }
        for overload in [32636, 32700, 32767] { #expect(MuLaw.encode(Int16(overload)) == 0x80) }
        for overload in [-32637, -32700, -32768] { #expect(MuLaw.encode(Int16(overload)) == 0x00) }
        for interval in G711Definition.aLaw {
            #expect(ALaw.encode(Int16(interval.lower)) == interval.positiveCode)
            #expect(ALaw.encode(Int16(interval.upper - 1)) == interval.positiveCode)
            #expect(ALaw.encode(Int16(-interval.lower - 1)) == interval.negativeCode)
            #expect(ALaw.encode(Int16(-interval.upper)) == interval.negativeCode)
        }
    }

    /// Every one of the 65,536 inputs lands in the interval the tables give it.
    @Test func encodeOfEveryInputFallsInItsInterval() {
        for (law, intervals, encode) in [("µ", G711Definition.muLaw, MuLaw.encode as (Int16) -> UInt8),
                                         ("A", G711Definition.aLaw, ALaw.encode as (Int16) -> UInt8)] {
            var wrong = 0
            for value in Int(Int16.min)...Int(Int16.max) {
                let magnitude = value < 0 ? -value - 1 : value
                let interval = intervals.last { $0.lower <= magnitude } ?? intervals[0]
                let expected = value < 0 ? interval.negativeCode : interval.positiveCode
                if encode(Int16(value)) != expected { wrong += 1 }
            }
            #expect(wrong == 0, "\(law)-law: \(wrong) inputs coded outside their interval")
        }
    }

    /// Decoding then encoding gives the code back, except µ-law's -0 (0x7F), which decodes to 0 and so
    /// re-encodes as +0 (0xFF): G.711 gives both zero codes the same level, and 0 itself is positive.
    @Test func encodeOfDecodeIsIdentity() {
        for code in UInt8.min...UInt8.max {
            #expect(ALaw.encode(ALaw.decode(code)) == code)
            #expect(MuLaw.encode(MuLaw.decode(code)) == (code == 0x7F ? 0xFF : code))
        }
    }

    @Test func fixed824ConversionsGoThroughInt16() {
        for code in UInt8.min...UInt8.max {
            #expect(MuLaw.decodeFixed824(code) == Fixed824(int16: MuLaw.decode(code)))
            #expect(ALaw.decodeFixed824(code) == Fixed824(int16: ALaw.decode(code)))
        }
        #expect(MuLaw.encode(Fixed824(0.5)) == MuLaw.encode(Int16(16384)))
        #expect(ALaw.encode(Fixed824(-0.25)) == ALaw.encode(Int16(-8192)))
        #expect(MuLaw.encode(Fixed824(3.0)) == 0x80)   // saturates at 16-bit full scale first
    }

    @Test(arguments: [G711Law.muLaw, .aLaw])
    func bufferFunctionsMatchScalarOnesInAnyChunking(law: G711Law) {
        var generator = CodecTestSupport.SplitMix64(seed: 0x711)
        let input = (0..<4000).map { _ in Int16(truncatingIfNeeded: generator.next()) }
        let fixedInput = input.map { Fixed824(int16: $0) }
        var codes = [UInt8](repeating: 0, count: input.count)
        var fixedCodes = [UInt8](repeating: 0, count: input.count)
        var decoded = [Int16](repeating: 0, count: input.count)
        var fixedDecoded = [Fixed824](repeating: .zero, count: input.count)
        var offset = 0
        for group in CodecTestSupport.randomGroups(total: input.count, maxGroup: 300, seed: 7) {
            let range = offset..<offset + group
            input.withUnsafeBufferPointer { i in
                codes.withUnsafeMutableBufferPointer { law.encode(.init(rebasing: i[range]), into: .init(rebasing: $0[range])) }
            }
            fixedInput.withUnsafeBufferPointer { i in
                fixedCodes.withUnsafeMutableBufferPointer { law.encode(.init(rebasing: i[range]), into: .init(rebasing: $0[range])) }
            }
            codes.withUnsafeBufferPointer { c in
                decoded.withUnsafeMutableBufferPointer { law.decode(.init(rebasing: c[range]), into: .init(rebasing: $0[range])) }
                fixedDecoded.withUnsafeMutableBufferPointer { law.decode(.init(rebasing: c[range]), into: .init(rebasing: $0[range])) }
            }
            offset += group
        }
        #expect(codes == input.map { law.encode($0) })
        #expect(fixedCodes == codes)
        #expect(decoded == codes.map { law.decode($0) })
        #expect(fixedDecoded == decoded.map { Fixed824(int16: $0) })
    }

    /// sox and ffmpeg decode all 256 codes of each law to the same levels.
    @Test func decodeMatchesSoxAndFFmpeg() throws {
        let directory = try CodecTestSupport.temporaryDirectory("g711")
        defer { try? FileManager.default.removeItem(at: directory) }
        let codes = Data((0...255).map { UInt8($0) })
        for (law, soxEncoding, ffmpegFormat) in [(G711Law.muLaw, "mu-law", "mulaw"), (.aLaw, "a-law", "alaw")] {
            let url = directory.appendingPathComponent("\(ffmpegFormat).raw")
            try codes.write(to: url)
            let soxOutput = directory.appendingPathComponent("\(ffmpegFormat).sox.s16")
            try CodecTestSupport.run("sox", ["-t", "raw", "-e", soxEncoding, "-b", "8", "-r", "8000", "-c", "1",
                                             url.path, "-t", "raw", "-e", "signed-integer", "-b", "16", "-L",
                                             soxOutput.path])
            let ffmpegOutput = directory.appendingPathComponent("\(ffmpegFormat).ffmpeg.s16")
            try CodecTestSupport.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", ffmpegFormat,
                                                "-ar", "8000", "-ac", "1", "-i", url.path, "-f", "s16le",
                                                ffmpegOutput.path])
            let expected = law.decodeTable
            #expect(try CodecTestSupport.readRawInt16(soxOutput) == expected, "sox \(soxEncoding)")
            #expect(try CodecTestSupport.readRawInt16(ffmpegOutput) == expected, "ffmpeg \(ffmpegFormat)")
        }
    }
}
