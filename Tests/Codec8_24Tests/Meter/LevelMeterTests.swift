import Foundation
import Testing
@testable import Codec8_24

private func measure(_ meter: LevelMeter, _ samples: [Fixed824]) {
    samples.withUnsafeBufferPointer { meter.measure($0) }
}

/// Stereo test signal: left a full-scale 1 kHz sine (48 kHz: 48 samples a period, one exactly at +1.0),
/// right a −20 dBFS square wave of the same period.
private func sineAndSquare(frames: Int) -> [Fixed824] {
    let square = Decibels.linear(-20)
    return (0..<frames).flatMap { n -> [Fixed824] in
        [Fixed824(sin(2 * Double.pi * Double(n) / 48)), Fixed824(n % 48 < 24 ? square : -square)]
    }
}

@Suite("Level meter")
struct LevelMeterTests {
    @Test func fullScaleSineAndMinus20Square() {
        let meter = LevelMeter(channels: 2, sampleRate: 48_000, blockFrames: 4800, averageTime: 0)
        measure(meter, sineAndSquare(frames: 4800))
        let sine = meter.reading(channel: 0), square = meter.reading(channel: 1)
        #expect(abs(sine.peak - 0) <= 0.01, "sine peak \(sine.peak)")
        #expect(abs(sine.average - (-3.0103)) <= 0.01, "sine average \(sine.average)")
        #expect(abs(square.peak - (-20)) <= 0.01, "square peak \(square.peak)")
        #expect(abs(square.average - (-20)) <= 0.01, "square average \(square.average)")
        #expect(meter.blocksMeasured == 1)
    }

    @Test func smoothedAverageSettlesOnTheSameValues() {
        let meter = LevelMeter(channels: 2, sampleRate: 48_000, blockFrames: 1024, averageTime: 0.3)
        measure(meter, sineAndSquare(frames: 48 * 1024 * 4))           // 4 s: 13 time constants
        #expect(abs(meter.reading(channel: 0).average - (-3.0103)) <= 0.01)
        #expect(abs(meter.reading(channel: 1).average - (-20)) <= 0.01)
    }

    @Test func silenceReadsTheFloorOnEveryChannel() {
        let meter = LevelMeter(channels: 8, sampleRate: 44_100, blockFrames: 512)
        measure(meter, [Fixed824](repeating: .zero, count: 8 * 2048))
        for channel in 0..<8 {
            #expect(meter.reading(channel: channel) == LevelMeter.Reading(peak: LevelMeter.floor, average: LevelMeter.floor))
        }
        #expect(LevelMeter.floor == -144)
    }

    @Test func peakFallsAtTheConfiguredRatePerBlock() {
        // 10 ms blocks, 20 dB/s: 0.2 dB per block.
        let meter = LevelMeter(channels: 1, sampleRate: 48_000, blockFrames: 480, peakDecay: 20)
        measure(meter, [Fixed824](repeating: .one, count: 480))
        #expect(meter.reading(channel: 0).peak == 0)
        let silence = [Fixed824](repeating: .zero, count: 480)
        for block in 1...100 {
            measure(meter, silence)
            #expect(abs(meter.reading(channel: 0).peak - (-0.2 * Double(block))) < 1e-9, "block \(block)")
        }
        // A quieter signal than the falling reading does not lift it; a louder one does at once.
        measure(meter, [Fixed824](repeating: Fixed824(Decibels.linear(-30)), count: 480))
        #expect(abs(meter.reading(channel: 0).peak - (-20.2)) < 1e-9)
        measure(meter, [Fixed824](repeating: Fixed824(Decibels.linear(-6)), count: 480))
        #expect(abs(meter.reading(channel: 0).peak - (-6)) < 1e-6)
        // And it never falls below the floor.
        for _ in 0..<1000 { measure(meter, silence) }
        #expect(meter.reading(channel: 0).peak == LevelMeter.floor)
    }

    @Test func peakHoldsThenFalls() {
        // Hold 25 ms = 1200 frames: two whole 480-frame blocks, then 240 frames of the third.
        let meter = LevelMeter(channels: 1, sampleRate: 48_000, blockFrames: 480, peakDecay: 20, peakHold: 0.025)
        measure(meter, [Fixed824](repeating: Fixed824(0.5), count: 480))
        let start = meter.reading(channel: 0).peak
        #expect(abs(start - 20 * log10(0.5)) < 1e-6)
        let silence = [Fixed824](repeating: .zero, count: 480)
        let expected = [0, 0, -0.1, -0.3, -0.5]
        for fall in expected {
            measure(meter, silence)
            #expect(abs(meter.reading(channel: 0).peak - (start + fall)) < 1e-9)
        }
    }

    @Test func averageFollowsTheTimeConstant() {
        let sampleRate = 48_000.0, block = 960, tau = 0.1
        let meter = LevelMeter(channels: 1, sampleRate: sampleRate, blockFrames: block, averageTime: tau)
        let alpha = 1 - exp(-Double(block) / sampleRate / tau)
        let fullSquare = (0..<block).map { $0 % 2 == 0 ? Fixed824.one : -Fixed824.one }   // mean square 1
        for k in 1...30 {
            measure(meter, fullSquare)
            let power = 1 - pow(1 - alpha, Double(k))
            #expect(abs(meter.reading(channel: 0).average - 10 * log10(power)) < 1e-9, "block \(k)")
        }
    }

    @Test func peaksBeyondFullScaleReadAbove0dBFS() {
        let meter = LevelMeter(channels: 2, sampleRate: 48_000, blockFrames: 4, averageTime: 0)
        measure(meter, [.min, .max, .zero, .zero, .zero, .zero, .zero, .zero])
        #expect(abs(meter.reading(channel: 0).peak - 20 * log10(128.0)) < 1e-9)    // −128.0: +42.14 dBFS
        #expect(abs(meter.reading(channel: 1).peak - 20 * log10(Fixed824.max.doubleValue)) < 1e-9)
        #expect(abs(meter.reading(channel: 0).average - 10 * log10(128.0 * 128 / 4)) < 1e-9)
    }

    @Test func resetReturnsToTheFloor() {
        let meter = LevelMeter(channels: 2, sampleRate: 48_000, blockFrames: 100)
        measure(meter, sineAndSquare(frames: 150))
        meter.reset()
        #expect(meter.blocksMeasured == 0)
        measure(meter, [Fixed824](repeating: .zero, count: 200))
        #expect(meter.reading(channel: 0) == LevelMeter.Reading(peak: LevelMeter.floor, average: LevelMeter.floor))
        #expect(meter.blocksMeasured == 1)                      // the 50 frames before reset were discarded
    }

    @Test func streamingInRandomBufferSizesGivesTheSameReadings() {
        let block = 441, frames = 441 * 40
        var random = OutputStageRandom(seed: 0x5EED)
        // A signal whose level changes over time, so peaks and averages move.
        let signal = (0..<frames * 2).map { index -> Fixed824 in
            let level = Double((index / 2) / 1000 % 7) / 7
            return random.sample(amplitude: 1.2 * level)
        }
        func makeMeter() -> LevelMeter {
            LevelMeter(channels: 2, sampleRate: 44_100, blockFrames: block, peakDecay: 11.8, peakHold: 0.05, averageTime: 0.2)
        }
        // Reference: fed exactly one block at a time, readings after every block.
        let reference = makeMeter()
        var expected: [[LevelMeter.Reading]] = [[reference.reading(channel: 0), reference.reading(channel: 1)]]
        for start in stride(from: 0, to: frames, by: block) {
            measure(reference, Array(signal[(2 * start)..<(2 * (start + block))]))
            expected.append([reference.reading(channel: 0), reference.reading(channel: 1)])
        }
        for maximum in [5, 300, 2000] {
            let meter = makeMeter()
            var splitter = OutputStageRandom(seed: UInt64(maximum))
            var frame = 0
            for size in splitter.split(frames, maximum: maximum) {
                measure(meter, Array(signal[(2 * frame)..<(2 * (frame + size))]))
                frame += size
                #expect(meter.blocksMeasured == frame / block)
                #expect([meter.reading(channel: 0), meter.reading(channel: 1)] == expected[meter.blocksMeasured])
            }
        }
        #expect(expected.last![0] != expected[20][0])
    }
}
