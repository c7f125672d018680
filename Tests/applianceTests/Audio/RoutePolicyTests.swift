import Board
import Foundation
import HAL
import Queue
import Testing
@testable import appliance

/// The route policy as a table: route changes in, actions out, in order. The expected behaviour is the
/// 2008 talk's "do what the user means" (shared/reference/core-audio-iphone-2008.md 1.12, 1.14 and
/// behaviours 1, 2, 17), not our own output.
@Suite("Route policy")
struct RoutePolicyTests {
    static let limits = VolumeLimits(maximumDB: 0, defaultDB: -20)
    static let speakerRoute = AudioRoute(outputs: [.speaker])
    static let headphoneRoute = AudioRoute(outputs: [.headphones])
    static let pulled = RouteChange(reason: .oldDeviceUnavailable, previousRoute: headphoneRoute)
    static let plugged = RouteChange(reason: .newDeviceAvailable, previousRoute: speakerRoute)
    static let t0 = Timestamp(nanoseconds: 1_000_000_000)

    static func policy(on output: CodecOutput, remembered: [String: Double]) -> RoutePolicy {
        var policy = RoutePolicy(mainOutput: .speaker, output: output, limits: limits, headphoneCapDB: -22,
                                 remembered: remembered, hasAmplifier: true)
        _ = policy.start(now: t0)
        return policy
    }

    @Test func headphonesPulledWhilePlayingPauseFirstThenSpeakerAtItsLevelThenTheAmplifier() {
        var policy = Self.policy(on: .headphones, remembered: ["speaker": -30, "headphones": -28])
        #expect(!policy.amplifierOn)                   // headphones: the speaker amplifier stays off
        let actions = policy.routeChanged(Self.pulled, to: Self.speakerRoute, playing: true, now: Self.t0)
        // 1.14: on oldDeviceUnavailable with headphones in the previous route, pause so nothing blasts from
        // the speaker; the pause comes before the re-route, the amplifier only after the speaker is selected.
        #expect(actions == [.pausePlayback, .volume(.speaker, dB: -30), .selectOutput(.speaker), .amplifier(on: true)])
        #expect(policy.output == .speaker && policy.amplifierOn)
    }

    @Test func headphonesPluggedWhilePausedStayPausedMoveOutputCapTheLevelAndSwitchTheAmplifierOff() {
        var policy = Self.policy(on: .speaker, remembered: ["speaker": -30, "headphones": -6])
        #expect(policy.amplifierOn)
        let actions = policy.routeChanged(Self.plugged, to: Self.headphoneRoute, playing: false, now: Self.t0)
        // The cap: EN IEC 62368-1 10.6's 27 mV (85 dB(A)) with the -10 dBFS programme simulation noise, on a
        // 1.0 V r.m.s. full-scale headphone output: 20·log10(0.027) + 10 = -21.37 dB, the whole dB under it.
        let cap = (20 * log10(0.027) + 10).rounded(.down)
        #expect(cap == -22)
        #expect(actions == [.amplifier(on: false), .volume(.headphones, dB: cap), .selectOutput(.headphones)])
        #expect(!actions.contains(.pausePlayback))
        #expect(policy.level(of: .headphones) == cap)
    }

    @Test func headphonesPluggedWhileForcedToTheSpeakerAreCappedToo() {
        var policy = Self.policy(on: .speaker, remembered: ["speaker": -30, "headphones": -6])
        // The output stays on the speaker (an override): only the headphones' remembered level comes down.
        let actions = policy.routeChanged(Self.plugged, to: Self.speakerRoute, playing: true, now: Self.t0)
        #expect(actions == [.volume(.speaker, dB: -30)])
        #expect(policy.level(of: .headphones) == -22)
    }

    @Test func pluggingInWhilePlayingKeepsPlaying() {
        var policy = Self.policy(on: .speaker, remembered: ["headphones": -28])
        // Behaviour 2: playback continues, now through the headphones; -28 dB is under the cap, kept.
        let actions = policy.routeChanged(Self.plugged, to: Self.headphoneRoute, playing: true, now: Self.t0)
        #expect(actions == [.amplifier(on: false), .volume(.headphones, dB: -28), .selectOutput(.headphones)])
    }

    @Test func eachRouteKeepsItsOwnVolumeAcrossUnplugAndReplug() {
        var policy = Self.policy(on: .speaker, remembered: [:])
        #expect(policy.level == -20)                   // the board's default-db for a route never set
        #expect(policy.setLevel(-35) == -35)           // the user sets the speaker
        _ = policy.routeChanged(Self.plugged, to: Self.headphoneRoute, playing: true, now: Self.t0)
        #expect(policy.level == -22)                   // default -20 is above the cap: capped on insertion
        #expect(policy.setLevel(-30) == -30)           // the user sets the headphones
        // Behaviour 17: changing the headphone volume leaves the speaker's alone; unplug and replug restore each.
        let back = policy.routeChanged(Self.pulled, to: Self.speakerRoute, playing: false, now: Self.t0)
        #expect(back.contains(.volume(.speaker, dB: -35)))
        let again = policy.routeChanged(Self.plugged, to: Self.headphoneRoute, playing: false, now: Self.t0)
        #expect(again.contains(.volume(.headphones, dB: -30)))
        #expect(policy.remembered == ["speaker": -35, "headphones": -30])
    }

    @Test func noLevelGoesAboveTheBoardsCap() {
        var policy = Self.policy(on: .speaker, remembered: ["speaker": 5])
        #expect(policy.level == 0)                     // a saved +5 dB on a board whose max-db is 0
        #expect(policy.setLevel(12) == 0)
        #expect(policy.setLevel(-.infinity) == VolumeCurve.silenceDB)
    }

    @Test func theAmplifierGoesOffAfterTheIdleTimeoutAndOnBeforePlayback() {
        var policy = Self.policy(on: .speaker, remembered: [:])
        #expect(policy.outputActivity(false, now: Self.t0) == [])      // a pause does not thump the amplifier
        #expect(policy.nextDeadline == Self.t0 + .seconds(10))
        #expect(policy.tick(now: Self.t0 + .seconds(9)) == [])
        #expect(policy.tick(now: Self.t0 + .seconds(10)) == [.amplifier(on: false)])
        #expect(policy.nextDeadline == nil)
        #expect(policy.outputActivity(true, now: Self.t0 + .seconds(20)) == [.amplifier(on: true)])
    }

    @Test func anAmplifierBehindTheLineOutRunsWhileTheLineOutIsTheRoute() {
        // iqaudio-dacplus.yaml: a PCM5122 (line out only) with the amplifier's mute line on GPIO22.
        var policy = RoutePolicy(mainOutput: .line, output: .line, limits: Self.limits, headphoneCapDB: -22,
                                 remembered: [:], hasAmplifier: true)
        #expect(policy.start(now: Self.t0) == [.volume(.line, dB: -20), .selectOutput(.line), .amplifier(on: true)])
    }

    @Test func routeRequestsNeedWhatTheyName() throws {
        let policy = Self.policy(on: .speaker, remembered: [:])
        #expect(throws: RouteRequestError.headphonesNotPlugged) { try policy.speakerOverride(for: .headphones, jack: .unplugged) }
        #expect(try policy.speakerOverride(for: .headphones, jack: .headphones) == false)
        #expect(try policy.speakerOverride(for: .speaker, jack: .headphones) == true)
        #expect(try policy.speakerOverride(for: .auto, jack: .headphones) == false)
    }
}

/// The user's 0-100 scale against Android's default music curve, as ESP-ADF quotes it
/// (`esp_codec_dev_vol_map_t`; shared/reference/peers-and-user-needs.md): 1 -> -49.5, 33 -> -33.5, 66 -> -17,
/// 100 -> 0 dB.
@Suite("Volume curve")
struct VolumeCurveTests {
    @Test func endPointsAndAndroidsPointsOnABoardCappedAt0dB() {
        let curve = VolumeCurve(maximumDB: 0)
        #expect(curve.decibels(percent: 100) == 0)
        #expect(curve.decibels(percent: 1) == -49.5)
        #expect(curve.decibels(percent: 33) == -33.5)
        #expect(curve.decibels(percent: 66) == -17)
        #expect(curve.decibels(percent: 0) == VolumeCurve.silenceDB)
        #expect(curve.percent(decibels: 0) == 100 && curve.percent(decibels: -49.5) == 1)
        #expect(curve.percent(decibels: -80) == 1)     // audible, under the scale: never shown as 0 (off)
        #expect(curve.percent(decibels: VolumeCurve.silenceDB) == 0)
        for p in 0...100 { #expect(curve.percent(decibels: curve.decibels(percent: p)) == p) }
    }

    @Test func theScaleEndsAtTheBoardsCap() {
        let curve = VolumeCurve(maximumDB: -6)
        #expect(curve.decibels(percent: 100) == -6 && curve.decibels(percent: 1) == -55.5)
        #expect(curve.clamped(3) == -6)
    }
}
