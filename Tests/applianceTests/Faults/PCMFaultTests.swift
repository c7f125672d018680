import Board
import Foundation
import HAL
import TestSupport
import Testing
@testable import appliance

/// ALSA faults on the simulated sound card while the whole appliance runs on it (real time, the engine's
/// render threads): xruns, which the engine recovers itself, and a card that goes away and comes back.
@Suite(.serialized) struct PCMFaultTests {
    typealias Rig = ApplianceAssemblyTests.Rig

    static func card(_ rig: Rig) -> SimulatedPCMHardware { rig.assembly.board.board.pcms.simulatedCard }

    static func number(_ prefix: String, in lines: [String]) -> Int? {
        lines.first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) }
    }

    /// The card unplugged under a playing appliance: every stream on it fails with ENODEV (the kernel's
    /// snd_card_disconnect; alsa-lib cannot recover a handle from that). The appliance keeps answering, says
    /// `EVENT device lost: ...`, counts it, stops the player, and tries the card again with back-off; while it
    /// is gone the tries fail. Plugged back in, the next try opens it and the engine runs again: `EVENT device
    /// back`, periods are written again, and `play` works.
    @Test func aCardThatGoesAwayIsReportedRetriedAndResumed() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        #expect(rig.turn { (Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0) > 10 })
        #expect(rig.daemon.dispatch(.recorder(.start(RecordOptions()))).outcome == .ok)
        #expect(rig.turn { rig.events.all.contains { $0.kind == .record && $0.detail.hasPrefix("started ") } }, "\(rig.events.all)")
        _ = rig.turn(until: { false }, seconds: 0.5)
        Self.card(rig).unplug()
        #expect(rig.turn { rig.events.all.contains { $0.kind == .device && $0.detail.hasPrefix("lost: ") } }, "\(rig.events.all)")
        let lost = try #require(rig.events.all.first { $0.kind == .device })
        #expect(lost.detail.contains("ENODEV"), "\(lost.line)")
        #expect(rig.daemon.dispatch(.stats).lines.contains("pcm lost: 1"))
        #expect(rig.daemon.dispatch(.status).lines.contains { $0.hasPrefix("audio device: lost") })
        // The take was finalized with what reached the disk: a WAV file sox reads, about half a second long.
        #expect(rig.turn { rig.assembly.parts.recorder?.isRecording == false })
        let takes = try FileManager.default.contentsOfDirectory(atPath: rig.directory + "/recordings").filter { $0.hasSuffix(".wav") }
        #expect(takes.count == 1, "\(takes)")
        if let take = takes.first, FileManager.default.isExecutableFile(atPath: "/usr/bin/soxi") {
            let seconds = try Subprocess.check("/usr/bin/soxi", ["-D", rig.directory + "/recordings/" + take])
            let duration = Double(String(decoding: seconds, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(duration > 0.2, "soxi -D says \(duration) s")
        }
        // Gone for 2 s: the tries at 0.5 s and 1.5 s fail, the appliance still answers.
        _ = rig.turn(until: { false }, seconds: 2)
        #expect(rig.events.all.contains { $0.kind == .device && $0.detail.hasPrefix("still gone") }, "\(rig.events.all)")
        #expect(rig.assembly.deviceWatch.tries >= 2)
        #expect(rig.daemon.dispatch(.status).outcome == .ok)
        let periodsWhileGone = Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0
        Self.card(rig).plugIn()
        // The next try comes at most 4 s later (0.5, 1, 2, 4 s waits).
        #expect(rig.turn(until: { rig.events.all.contains { $0.kind == .device && $0.detail.hasPrefix("back after") } }, seconds: 6),
                "\(rig.events.all)")
        #expect(rig.turn { (Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0) > periodsWhileGone + 10 })
        #expect(rig.daemon.dispatch(.status).lines.contains("audio device: running"))
        #expect(rig.daemon.dispatch(.stats).lines.contains("pcm lost: 1"))
        #expect(rig.daemon.dispatch(.selftest).outcome == .ok, "\(rig.daemon.dispatch(.selftest).wireLines)")
        // Recording works again on the card opened anew.
        #expect(rig.daemon.dispatch(.recorder(.start(RecordOptions()))).outcome == .ok)
        #expect(rig.turn { rig.events.all.filter { $0.kind == .record && $0.detail.hasPrefix("started ") }.count == 2 }, "\(rig.events.all)")
        #expect(rig.daemon.dispatch(.stop).outcome == .ok)
    }

    /// EBADFD on a capture read once (the stream's file descriptor in a bad state; 77 in linux
    /// include/uapi/asm-generic/errno.h), the card itself still there: the capture thread ends on it, which is
    /// a lost device too; the first try (0.5 s later) opens both streams again and the engine runs on.
    @Test func aStreamInABadStateIsOpenedAgainAtTheFirstTry() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        #expect(rig.turn { (Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0) > 10 })
        let device = try #require(rig.assembly.captureDevice as? SimulatedPCM)
        device.inject(.ioError(Errno(EBADFD)))
        #expect(rig.turn { rig.events.all.contains { $0.kind == .device && $0.detail.hasPrefix("back after 1 tries") } }, "\(rig.events.all)")
        let lost = try #require(rig.events.all.first { $0.kind == .device })
        #expect(lost.detail.hasPrefix("lost: ") && lost.detail.contains("\(Errno(EBADFD))"), "\(lost.line)")
        #expect(rig.daemon.dispatch(.stats).lines.contains("pcm lost: 1"))
        let periods = Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0
        #expect(rig.turn { (Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0) > periods + 10 })
    }

    /// An overrun injected on the running capture stream (ALSA's EPIPE): the engine recovers it (prepare,
    /// start again), `stats` counts it, the daemon's xrun report (`EVENT xrun`) sees it, the streams run on,
    /// and it is not a lost device.
    @Test func anXrunIsRecoveredAndCounted() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        #expect(rig.turn { (Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0) > 10 })
        let before = rig.assembly.engine.xruns
        let device = try #require(rig.assembly.captureDevice as? SimulatedPCM)
        device.inject(.xrun)
        #expect(rig.turn { rig.assembly.engine.xruns > before }, "no xrun counted")
        #expect(rig.assembly.newXruns() >= 1)
        let periods = Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0
        #expect(rig.turn { (Self.number("periods: ", in: rig.daemon.dispatch(.stats).lines) ?? 0) > periods + 10 })
        #expect(rig.daemon.dispatch(.stats).lines.contains("pcm lost: 0"))
        #expect(!rig.events.all.contains { $0.kind == .device })
    }
}
