import Testing
@testable import Codec8_24

@Suite("Buffer converters")
struct SampleConversionTests {
    @Test func packedInt24IsThreeBytesLittleEndian() {
        #expect(MemoryLayout<PackedInt24>.stride == 3)
        let s = PackedInt24(value: -2)
        #expect([s.low, s.middle, s.high] == [0xFE, 0xFF, 0xFF])
        #expect(s.value == -2)
        #expect(PackedInt24(value: 0x12_3456).value == 0x12_3456)
        #expect(PackedInt24(Fixed824(0.5)).value == 1 << 22)
    }

    @Test func int16WidenNarrowIsExactOverTheWholeRange() {
        let source = (Int32(Int16.min)...Int32(Int16.max)).map { Int16($0) }
        var wide = [Fixed824](repeating: .zero, count: source.count)
        var back = [Int16](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { s in wide.withUnsafeMutableBufferPointer { SampleConversion.widen(s, into: $0) } }
        wide.withUnsafeBufferPointer { w in back.withUnsafeMutableBufferPointer { SampleConversion.narrow(w, into: $0) } }
        #expect(back == source)
        #expect(wide[0].raw == -(1 << 24) && wide.last!.raw == 32767 << 9)
    }

    @Test func int24LayoutsRoundTripExactly() {
        let values: [Int32] = stride(from: -(1 << 23), to: 1 << 23, by: 4099).map { $0 } + [(1 << 23) - 1]
        let in32 = values.map { Int24In32(value: $0) }
        let packed = values.map { PackedInt24(value: $0) }
        var a = [Fixed824](repeating: .zero, count: values.count), b = a
        in32.withUnsafeBufferPointer { s in a.withUnsafeMutableBufferPointer { SampleConversion.widen(s, into: $0) } }
        packed.withUnsafeBufferPointer { s in b.withUnsafeMutableBufferPointer { SampleConversion.widen(s, into: $0) } }
        #expect(a == b)
        #expect(a.map { $0.raw } == values.map { $0 << 1 })
        var backPacked = [PackedInt24](repeating: PackedInt24(value: 0), count: values.count)
        a.withUnsafeBufferPointer { s in backPacked.withUnsafeMutableBufferPointer { SampleConversion.narrow(s, into: $0) } }
        #expect(backPacked == packed)
    }

    @Test func floatAndDoubleMatchTheExactValue() {
        let noise = TestSignals.noise(count: 4096, amplitude: 1.0)
        var floats = [Float](repeating: 0, count: noise.count)
        var doubles = [Double](repeating: 0, count: noise.count)
        noise.withUnsafeBufferPointer { s in
            floats.withUnsafeMutableBufferPointer { SampleConversion.narrow(s, into: $0) }
            doubles.withUnsafeMutableBufferPointer { SampleConversion.narrow(s, into: $0) }
        }
        for (i, x) in noise.enumerated() {
            #expect(doubles[i] == Double(x.raw) / 16_777_216)
            #expect(floats[i] == Float(Double(x.raw) / 16_777_216))   // exact: |x| < 1 fits Float's 24-bit mantissa
        }
        var back = [Fixed824](repeating: .zero, count: noise.count)
        floats.withUnsafeBufferPointer { s in back.withUnsafeMutableBufferPointer { SampleConversion.widen(s, into: $0) } }
        #expect(back == noise)
    }

    @Test func narrowingSaturatesAtFullScale() {
        let hot: [Fixed824] = [Fixed824(1.5), Fixed824(-1.5), .max, .min, .one]
        var s16 = [Int16](repeating: 0, count: hot.count)
        var s24 = [Int24In32](repeating: Int24In32(value: 0), count: hot.count)
        var s32 = [Int32](repeating: 0, count: hot.count)
        hot.withUnsafeBufferPointer { s in
            s16.withUnsafeMutableBufferPointer { SampleConversion.narrow(s, into: $0) }
            s24.withUnsafeMutableBufferPointer { SampleConversion.narrow(s, into: $0) }
            s32.withUnsafeMutableBufferPointer { SampleConversion.narrow(s, into: $0) }
        }
        #expect(s16 == [.max, .min, .max, .min, .max])
        let top: Int32 = (1 << 23) - 1, bottom: Int32 = -(1 << 23)
        #expect(s24.map(\.value) == [top, bottom, top, bottom, top])
        #expect(s32 == [.max, .min, .max, .min, .max])
    }

    @Test(arguments: 1...8)
    func interleaveAndDeinterleaveAreInverse(channelCount: Int) {
        let frames = 37
        // Sample value encodes (frame, channel) so a misplaced sample is caught.
        let interleaved: [Int16] = (0..<frames * channelCount).map { Int16($0 / channelCount * 16 + $0 % channelCount) }
        var planes = (0..<channelCount).map { _ in [Fixed824](repeating: .zero, count: frames) }
        var out = [Int16](repeating: -1, count: interleaved.count)
        let pointers = (0..<channelCount).map { _ in UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: frames) }
        defer { pointers.forEach { $0.deallocate() } }
        interleaved.withUnsafeBufferPointer { s in
            pointers.withUnsafeBufferPointer { SampleConversion.deinterleave(s, into: $0) }
        }
        for c in 0..<channelCount { planes[c] = Array(pointers[c]) }
        for c in 0..<channelCount {
            #expect(planes[c].map { $0.int16 } == (0..<frames).map { Int16($0 * 16 + c) })
        }
        let readOnly = pointers.map { UnsafeBufferPointer($0) }
        readOnly.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { SampleConversion.interleave(p, into: $0) } }
        #expect(out == interleaved)
    }

    @Test func deinterleaveStopsAtTheShortestBuffer() {
        let source: [Int16] = [1, 2, 3, 4, 5, 6, 7]       // 3 whole stereo frames and a stray sample
        let left = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: 8)
        let right = UnsafeMutableBufferPointer<Fixed824>.allocate(capacity: 2)
        defer { left.deallocate(); right.deallocate() }
        left.initialize(repeating: .zero)
        right.initialize(repeating: .zero)
        source.withUnsafeBufferPointer { s in [left, right].withUnsafeBufferPointer { SampleConversion.deinterleave(s, into: $0) } }
        #expect(left.prefix(3).map { $0.int16 } == [1, 3, 0])
        #expect(right.map { $0.int16 } == [2, 4])
    }
}
