import Board
import Foundation
import HAL
import Testing
@testable import appliance

/// The board's GPIO chip missing at start (`BoardAssemblyOptions.gpioChipMissing` on the simulated board:
/// what `LinuxGPIO` reports on a kernel without the HAT's GPIO driver, `GPIOError.chipNotFound`).
@Suite(.serialized) struct GPIOFaultTests {
    typealias Rig = ApplianceAssemblyTests.Rig

    /// The appliance starts anyway: it says once what it runs without (the simulated board file puts buttons,
    /// an encoder, the jack switch, the amplifier enable and a status LED on GPIO lines), counts it, and plays,
    /// records and answers; a button press is `ERR not-found` naming no buttons, `board` says `buttons: none`.
    @Test func aMissingGPIOChipStartsWithoutButtonsAndSaysSo() throws {
        let rig = try Rig(gpioChipMissing: true)
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        let notices = rig.assembly.startNotices
        #expect(notices.count == 1, "\(notices)")
        let notice = try #require(notices.first)
        #expect(notice.contains("not found") && notice.contains("running without buttons, jack sensing, the amplifier"), "\(notice)")
        #expect(rig.daemon.dispatch(.stats).lines.contains("gpio missing: 1"))
        #expect(rig.daemon.dispatch(.board).lines.contains("buttons: none"))
        #expect(rig.daemon.dispatch(.button(name: "play", gesture: .click)).finalLine.hasPrefix("ERR not-found "))
        #expect(rig.daemon.dispatch(.recorder(.start(RecordOptions()))).outcome == .ok)
        #expect(rig.daemon.dispatch(.stop).outcome == .ok)
        #expect(rig.daemon.dispatch(.selftest).outcome == .ok, "\(rig.daemon.dispatch(.selftest).wireLines)")
    }

    /// With the chip there nothing is said and nothing counted (the fault above is the test's, not the twin's).
    @Test func aPresentGPIOChipIsNotAFault() throws {
        let rig = try Rig()
        defer { try? FileManager.default.removeItem(atPath: rig.directory) }
        #expect(rig.assembly.startNotices.isEmpty)
        #expect(rig.daemon.dispatch(.stats).lines.contains("gpio missing: 0"))
        #expect(!rig.daemon.dispatch(.board).lines.contains("buttons: none"))
    }
}
