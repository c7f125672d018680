import Board
import Foundation
import HAL
import Testing
@testable import appliance

/// I2C faults in the middle of a codec recipe, injected on the simulated WM8960's bus (`SimulatedRegisterBus`:
/// EREMOTEIO is what the Raspberry Pi's I2C controller reports for a missing acknowledge, EIO a bus error).
/// After a recipe fails, the chip must hold either the full target state (what a fault-free twin holds after
/// the same command) or its reset state (the datasheet's defaults), and the user is told; never half of it.
@Suite(.serialized) struct CodecFaultTests {
    typealias Rig = ApplianceAssemblyTests.Rig

    /// The twin's registers, every one the WM8960's map defines that is not volatile.
    static func chipRegisters(_ rig: Rig) throws -> [RegisterAddress: RegisterValue] {
        let codec = rig.assembly.board.board.codec
        let model = try #require(codec.model)
        var values: [RegisterAddress: RegisterValue] = [:]
        for (address, definition) in codec.registerMap.definitions where !definition.isVolatile {
            values[address] = model.bus.registerValue(address)
        }
        return values
    }

    static func bus(_ rig: Rig) throws -> SimulatedRegisterBus {
        try #require(rig.assembly.board.board.codec.bus as? SimulatedRegisterBus)
    }

    /// The registers a fault-free appliance writes for `command`, in order, and the state it ends in.
    static func reference(_ command: ConsoleCommand) throws -> (writes: [RegisterAddress], registers: [RegisterAddress: RegisterValue]) {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        let bus = try bus(rig)
        bus.clearTrace()
        #expect(rig.daemon.dispatch(command).outcome == .ok)
        let writes = bus.trace.compactMap { event -> RegisterAddress? in
            if case .write(let reg, _) = event { return reg }
            return nil
        }
        return (writes, try chipRegisters(rig))
    }

    /// `vol 40` whose last register write is not acknowledged three times (all its tries, I2CRetryPolicy's
    /// default) after the earlier writes landed: the chip held half the change. The appliance answers ERR,
    /// brings the codec up again and puts the user's state back: the chip then holds exactly what a fault-free
    /// twin holds after `vol 40`, the driver's cache agrees with it (selftest), and `stats` counts one recovery.
    @Test(arguments: [Errno.remoteIO, Errno.io])
    func aVolumeRecipeBrokenHalfWayIsBroughtBackToItsTarget(error: Errno) throws {
        let command = ConsoleCommand.audio(.volume(.percent(40)))
        let expected = try Self.reference(command)
        try #require(expected.writes.count >= 2, "the volume recipe writes \(expected.writes): no middle to break")
        let last = try #require(expected.writes.last)
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        let bus = try Self.bus(rig)
        bus.failTransfers(to: last, count: 3, with: error)
        let reply = rig.daemon.dispatch(command)
        #expect(reply.finalLine.hasPrefix("ERR device the codec refused the volume: "), "\(reply.wireLines)")
        #expect(reply.finalLine.contains("brought back up as it was"), "\(reply.wireLines)")
        #expect(try Self.chipRegisters(rig) == expected.registers)
        #expect(rig.daemon.dispatch(.selftest).outcome == .ok, "\(rig.daemon.dispatch(.selftest).wireLines)")
        let stats = rig.daemon.dispatch(.stats).lines
        #expect(stats.contains("codec recovered: 1") && stats.contains("codec failed: 0"), "\(stats)")
    }

    /// The same register never acknowledged again (a chip that has gone): bringing it up again fails too, so
    /// the codec is reset and left there. Its power and mute registers then hold the WM8960's reset values
    /// (datasheet rev 4.4 register map; linux sound/soc/codecs/wm8960.c `wm8960_reg_defaults`): R25, R26
    /// and R47 (power management 1-3) 0x000, every block powered down, and R5 0x008 (DACMU: DAC soft-muted).
    /// The user is told, `stats` counts it, and the appliance still answers.
    @Test func aChipThatStopsAnsweringIsLeftResetAndSilent() throws {
        let command = ConsoleCommand.audio(.volume(.percent(40)))
        let last = try #require(try Self.reference(command).writes.last)
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        let bus = try Self.bus(rig)
        bus.failTransfers(to: last, count: .max)
        let reply = rig.daemon.dispatch(command)
        #expect(reply.finalLine.hasPrefix("ERR device "), "\(reply.wireLines)")
        #expect(reply.finalLine.contains("left reset (outputs off and muted)"), "\(reply.wireLines)")
        let registers = try Self.chipRegisters(rig)
        #expect(registers[25] == 0x000 && registers[26] == 0x000 && registers[47] == 0x000, "\(registers)")
        #expect(registers[5] == 0x008, "\(registers)")
        let stats = rig.daemon.dispatch(.stats).lines
        #expect(stats.contains("codec failed: 1") && stats.contains("codec recovered: 0"), "\(stats)")
        #expect(rig.daemon.dispatch(.status).outcome == .ok)
        bus.clearFailures()
    }

    /// Regression (RELIABILITY.md section 3): a start whose codec power-up fails on I2C part-way (R26, power
    /// management 2, never acknowledged: after R25's references were powered) failed with the chip left half
    /// powered up. Now the start still fails with one error, and the chip is reset: R25, R26, R47 at 0x000 and
    /// R5 at 0x008, the WM8960's reset values (datasheet rev 4.4; wm8960.c `wm8960_reg_defaults`).
    @Test func aPowerUpBrokenHalfWayAtStartLeavesTheCodecReset() throws {
        let directory = NSTemporaryDirectory() + "appliance-assembly-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = DaemonPaths(state: directory, runtime: directory, media: directory + "/media",
                                recordings: directory + "/recordings", socket: directory + "/control.sock")
        try paths.createDirectories()
        let loop = try ControlLoop(clock: SystemClock())
        let board = try AssembledBoard(config: SimulatedBoard.config, options: BoardAssemblyOptions(loopback: true))
        let bus = try #require(board.codec.bus as? SimulatedRegisterBus)
        bus.failTransfers(to: 26, count: .max)
        var failure = ""
        do {
            _ = try ApplianceAssembly(assembled: board, pcm: nil, paths: paths, loop: loop,
                                      settings: LiveSettings(ApplianceSettings()), log: ServiceLog(prefixed: true) { _ in },
                                      locksMemory: false, events: { _ in })
            Issue.record("the start should fail")
        } catch {
            failure = "\(error)"
        }
        #expect(failure.contains("reset to its defaults"), "\(failure)")
        let model = try #require(board.codec.model)
        #expect(model.bus.registerValue(25) == 0x000 && model.bus.registerValue(26) == 0x000
                && model.bus.registerValue(47) == 0x000 && model.bus.registerValue(5) == 0x008,
                "R25 \(model.bus.registerValue(25) ?? 0) R26 \(model.bus.registerValue(26) ?? 0) R47 \(model.bus.registerValue(47) ?? 0)")
        bus.clearFailures()
    }

    /// A route change (headphones plugged: the speaker off, the headphones on, their volume) broken by a NACK
    /// on its last write for all three tries: nobody asked, so it is reported as `EVENT error`, recovered the
    /// same way, and the chip ends as a fault-free twin's does after the same plug. (The EQ recipe cannot be
    /// broken on this board: the WM8960 has no hardware EQ, `eq` writes no register.)
    @Test func aRouteChangeBrokenHalfWayIsReportedAndRecovered() throws {
        let plug = ConsoleCommand.jack(.headphones)
        // Reference: the same plug on a healthy twin, after the jack's debounce.
        let reference = try Rig()
        defer { try? FileManager.default.removeItem(atPath: reference.directory) }
        let referenceBus = try Self.bus(reference)
        referenceBus.clearTrace()
        #expect(reference.daemon.dispatch(plug) == .ok())
        #expect(reference.turn { reference.events.all.contains { $0.kind == .route } }, "\(reference.events.all)")
        _ = reference.turn(until: { false }, seconds: 0.5)   // the policy's delayed steps (the amplifier's)
        let writes = referenceBus.trace.compactMap { event -> RegisterAddress? in
            if case .write(let reg, _) = event { return reg }
            return nil
        }
        try #require(writes.count >= 2, "the route change writes \(writes)")
        let expected = try Self.chipRegisters(reference)

        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        try Self.bus(rig).failTransfers(to: try #require(writes.last), count: 3)
        #expect(rig.daemon.dispatch(plug) == .ok())
        #expect(rig.turn { rig.events.all.contains { $0.kind == .error && $0.detail.contains("brought back up as it was") } },
                "\(rig.events.all)")
        _ = rig.turn(until: { false }, seconds: 0.5)
        #expect(try Self.chipRegisters(rig) == expected)
        #expect(rig.daemon.dispatch(.stats).lines.contains("codec recovered: 1"))
    }
}
