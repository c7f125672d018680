import Foundation
import Testing
@testable import Codec8_24

/// The preset table: names and lookup, peak search and pre-cut, and the response measured through the 8.24
/// cascade against the design.
@Suite("EQ presets")
struct EQPresetTests {
    static let expectedNames = [
        "Flat", "Acoustic", "Bass Booster", "Bass Reducer", "Classical", "Dance", "Deep", "Electronic", "Hip-Hop",
        "Jazz", "Latin", "Loudness", "Lounge", "Piano", "Pop", "R&B", "Rock", "Small Speakers", "Spoken Word",
        "Treble Booster", "Treble Reducer", "Vocal Booster",
    ]

    @Test func tableHasTheIPodPresets() {
        #expect(EQPreset.all.map(\.name) == Self.expectedNames)
        #expect(Set(EQPreset.all.map { EQPreset.normalized($0.name) }).count == EQPreset.all.count)
        for preset in EQPreset.all {
            #expect(!preset.summary.isEmpty)
            if case .graphic(let gains) = preset.curve { #expect(gains.count == 10) }
        }
    }

    @Test func lookupIgnoresCaseSpacesHyphensAndAmpersands() {
        let cases: [(String, String)] = [
            ("rnb", "R&B"), ("r&b", "R&B"), ("R & B", "R&B"), ("hip hop", "Hip-Hop"), ("hiphop", "Hip-Hop"),
            ("HIP-HOP", "Hip-Hop"), ("bass-booster", "Bass Booster"), ("Bass_Booster", "Bass Booster"),
            ("rock", "Rock"), ("  spoken word ", "Spoken Word"), ("flat", "Flat"),
        ]
        for (query, name) in cases {
            #expect(EQPreset.named(query)?.name == name, "\(query)")
        }
        #expect(EQPreset.named("nosuch") == nil)
        #expect(EQPreset.named("") == nil)
        #expect(EQPreset.named("&") == nil)
    }

    @Test func closeMatchesSuggestPlausibleNames() {
        #expect(EQPreset.closeMatches(to: "rok").map(\.name).contains("Rock"))
        #expect(EQPreset.closeMatches(to: "jaz").first?.name == "Jazz")
        let bass = EQPreset.closeMatches(to: "bass").map(\.name)
        #expect(bass.contains("Bass Booster") && bass.contains("Bass Reducer"))
        #expect(EQPreset.closeMatches(to: "zzzzzzzz").isEmpty)
    }

    @Test func peakSearchFindsTheMaximumOfTheResponse() {
        for rate in [8_000.0, 44_100, 48_000, 96_000] {
            for preset in EQPreset.all {
                let design = preset.design(sampleRate: rate)
                // An independent fine linear grid never beats the search by more than a hair.
                var gridMax = -Double.infinity
                for i in 0...20_000 {
                    let f = Double(i) / 20_000 * rate / 2
                    gridMax = max(gridMax, Decibels.decibels(design.stages.magnitude(atFrequency: f, sampleRate: rate)))
                }
                #expect(gridMax <= design.peakGainDB + 1e-6, "\(preset.name) @ \(rate)")
                let atPeak = Decibels.decibels(design.stages.magnitude(atFrequency: design.peakFrequency, sampleRate: rate))
                #expect(abs(atPeak - design.peakGainDB) < 1e-9)
                // The pre-cut covers the peak with its margin and is no more than 0.1 dB deeper than needed.
                if design.peakGainDB > -EQDesign.precutMargin && !design.stages.isEmpty {
                    #expect(design.precutDB <= -(design.peakGainDB + EQDesign.precutMargin) + 1e-12)
                    #expect(design.precutDB > -(design.peakGainDB + EQDesign.precutMargin) - 0.1)
                } else {
                    #expect(design.precutDB == 0)
                }
            }
        }
    }

    @Test func bandsAboveTheLimitAreLeftFlat() {
        let rock = EQPreset.named("rock")!
        #expect(rock.design(sampleRate: 48_000).bands.count == 10)
        #expect(rock.design(sampleRate: 32_000).bands.map(\.frequency).max() == 8000)
        #expect(rock.design(sampleRate: 8_000).bands.map(\.frequency).max() == 2000)
        #expect(EQPreset.flat.design(sampleRate: 48_000).stages.isEmpty)
        #expect(EQPreset.flat.design(sampleRate: 48_000).precutDB == 0)
    }

    static let rates = [44_100.0, 48_000]

    @Test(arguments: EQPreset.all.map(\.name))
    func measuredResponseMatchesDesignWithinAHundredthOfADecibel(name: String) {
        let preset = EQPreset.named(name)!
        // 20 log-spaced frequencies from 25 Hz to 20 kHz.
        let frequencies = (0..<20).map { 25 * pow(20_000.0 / 25, Double($0) / 19) }
        for rate in Self.rates {
            let design = preset.design(sampleRate: rate)
            let measured = ResponseMeasurement.magnitudeDB(of: design, at: frequencies)
            for (f, m) in zip(frequencies, measured) {
                let expected = design.responseDB(at: f)
                #expect(abs(m - expected) <= 0.01, "\(name) @ \(rate) Hz, \(f) Hz: measured \(m) dB, designed \(expected) dB")
            }
        }
    }

    @Test(arguments: EQPreset.all.map(\.name))
    func fullScaleSineAtThePeakDoesNotClip(name: String) {
        let preset = EQPreset.named(name)!
        for rate in Self.rates {
            let design = preset.design(sampleRate: rate)
            // The peak may sit at DC or Nyquist; a sine just inside is the worst playable case.
            let f = min(max(design.peakFrequency, 10), 0.49 * rate)
            let settle = ResponseMeasurement.settleFrames(for: design.cascadeStages, sampleRate: rate)
            let count = settle + Int(4 * rate / f) + 4096
            let input = sine(count: count, frequency: f, sampleRate: rate, amplitude: 1.0)
            let output = run(design.makeCascade(channels: 1), input)
            let peak = output[settle...].map { abs($0.doubleValue) }.max()!
            #expect(peak <= 1.0, "\(name) @ \(rate): peak \(peak) at \(f) Hz")
            if design.precutDB < 0 && f == design.peakFrequency {
                // And the pre-cut is not wasteful: the peak comes within a few tenths of a dB of full scale.
                #expect(Decibels.decibels(peak) > -0.3, "\(name) @ \(rate): peak \(Decibels.decibels(peak)) dB")
            }
        }
    }
}
