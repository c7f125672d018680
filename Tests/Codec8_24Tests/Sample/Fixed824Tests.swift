import Testing
@testable import Codec8_24

@Suite("8.24 sample type")
struct Fixed824Tests {
    @Test func unityAndRange() {
        #expect(Fixed824.one.raw == 16_777_216)
        #expect(Fixed824.max.doubleValue < 128 && Fixed824.max.doubleValue > 127.99)
        #expect(Fixed824.min.doubleValue == -128)
    }

    @Test func arithmeticSaturatesInsteadOfWrapping() {
        #expect(Fixed824.max + Fixed824.one == .max)
        #expect(Fixed824.min - Fixed824.one == .min)
        #expect(-Fixed824.min == .max)
        #expect(Fixed824(100.0) * Fixed824(2.0) == .max)
        #expect(Fixed824(-100.0) * Fixed824(2.0) == .min)
        #expect(Fixed824(0.5) + Fixed824(0.25) == Fixed824(0.75))
        #expect(Fixed824(0.5) * Fixed824(0.5) == Fixed824(0.25))
        #expect(Fixed824(-0.5) * Fixed824(3.0) == Fixed824(-1.5))
    }

    @Test func multiplyRoundsToNearest() {
        // 3 LSB * 0.5 = 1.5 LSB -> rounds half up to 2; -3 LSB * 0.5 = -1.5 -> -1 (half up).
        #expect((Fixed824(raw: 3) * Fixed824(0.5)).raw == 2)
        #expect((Fixed824(raw: -3) * Fixed824(0.5)).raw == -1)
    }

    @Test func int16RoundTripIsExactForEveryValue() {
        for v in Int16.min...Int16.max {
            #expect(Fixed824(int16: v).int16 == v)
        }
        #expect(Fixed824(int16: .min).doubleValue == -1.0)
    }

    @Test func int16NarrowingRoundsAndSaturates() {
        #expect(Fixed824(2.0).int16 == .max)
        #expect(Fixed824(-2.0).int16 == .min)
        #expect(Fixed824.max.int16 == .max)
        #expect(Fixed824(raw: 255).int16 == 0)   // 255/512 LSB rounds down
        #expect(Fixed824(raw: 256).int16 == 1)   // half an LSB rounds up
        #expect(Fixed824(raw: -256).int16 == 0)  // -0.5 LSB rounds up to 0
        #expect(Fixed824(raw: -257).int16 == -1)
    }

    @Test func int24RoundTripIsExactAcrossTheRange() {
        var v: Int32 = -(1 << 23)
        while v < (1 << 23) {
            #expect(Fixed824(int24: v).int24 == v)
            v += 997
        }
        #expect(Fixed824(int24: (1 << 23) - 1).int24 == (1 << 23) - 1)
        // Bits above 24 are ignored: 0x00FF_FFFF is -1 as a 24-bit sample.
        #expect(Fixed824(int24: 0x00FF_FFFF).raw == -2)
        #expect(Fixed824(packed24LittleEndian: 0x00, 0x00, 0x80).doubleValue == -1.0)
        #expect(Fixed824.max.int24 == (1 << 23) - 1)
        #expect(Fixed824.min.int24 == -(1 << 23))
    }

    @Test func int32WideningAndNarrowing() {
        #expect(Fixed824(int32: .min).doubleValue == -1.0)
        #expect(Fixed824(int32: 1 << 30).doubleValue == 0.5)
        #expect(Fixed824(int32: 63).raw == 0)
        #expect(Fixed824(int32: 64).raw == 1)
        #expect(Fixed824(int32: .max).raw == 1 << 24)   // rounds to exactly 1.0
        #expect(Fixed824(0.5).int32 == 1 << 30)
        #expect(Fixed824.one.int32 == .max)
        #expect(Fixed824(-1.0).int32 == .min)
        #expect(Fixed824(-3.0).int32 == .min)
        for raw: Int32 in [-(1 << 24), -12345, -1, 0, 1, 777, (1 << 24) - 1] {
            #expect(Fixed824(int32: Fixed824(raw: raw).int32).raw == raw)
        }
    }

    @Test func floatConversions() {
        #expect(Fixed824(Float(0.5)).raw == 1 << 23)
        #expect(Fixed824(Float(-1)).raw == -(1 << 24))
        #expect(Fixed824(Float(1000)) == .max)
        #expect(Fixed824(Float(-1000)) == .min)
        #expect(Fixed824(Float.nan) == .zero)
        #expect(Fixed824(Double.nan) == .zero)
        #expect(Fixed824(Double.infinity) == .max)
        #expect(Fixed824(raw: 12345).floatValue == Float(12345) / 16_777_216)
        // Every raw value within ±1.0 survives Float exactly.
        for raw: Int32 in [-(1 << 24), -1, 1, 0x00AB_CDEF, (1 << 24)] {
            #expect(Fixed824(Fixed824(raw: raw).floatValue).raw == raw)
            #expect(Fixed824(Fixed824(raw: raw).doubleValue).raw == raw)
        }
    }

    @Test func decibels() {
        #expect(Decibels.gain(0) == .one)
        #expect(abs(Decibels.linear(-6.0206) - 0.5) < 1e-5)
        #expect(Decibels.linear(-200) == 0)
        #expect(Decibels.decibels(0.0) == Decibels.silenceFloor)
        #expect(abs(Decibels.decibels(Fixed824(0.1)) - -20) < 1e-5)
        #expect(Decibels.gain(60) == .max)
    }
}
