import Foundation
import HAL
import Testing
@testable import appliance

/// Regression tests for what the soak found, each the soak's steps cut down to the few that matter, on the
/// same rig (the whole appliance on the manual clock).
@Suite(.serialized) struct SoakFindingsTests {
    /// Soak seed 1, step 55: `record --seconds 4 --vox -50` lit the record LED and answered "recording to
    /// FILE" while the recorder was only armed. The input runs metered from bring-up (the standby), and a
    /// `record` from standby took the press path, which ignored the vox threshold. What is expected is what
    /// the console's help says of --vox ("starts and stops on the input level") and RecordLED's rule (lit
    /// while a file is being written): armed and dark in silence, lit once the level crosses the threshold.
    @Test func aVoxTakeFromStandbyIsArmedWithItsLEDDarkUntilTheLevelCrosses() throws {
        let rig = try SoakRig()
        defer { rig.removeDirectory() }
        let recordLED = 26   // the simulated board's "status" LED, GPIO26 active-high (its board file)
        #expect(rig.recorder.statusLines.first == "recorder: idle")
        let reply = rig.send("record --seconds 4 --vox -50")
        #expect(reply.lines.first?.hasPrefix("armed: ") == true, "\(reply.wireLines)")
        try rig.pass(.seconds(1))   // the simulated card loops back silence: nothing crosses -50 dBFS
        #expect(rig.recorder.statusLines.first == "recorder: armed")
        #expect(try rig.assembly.board.board.gpio.pinLevel(recordLED) == false)
        #expect(rig.send("play album").outcome == .ok)   // a -12 dBFS tone, looped back to the input
        try rig.pass(.seconds(1))
        #expect(rig.recorder.statusLines.first == "recorder: recording")
        #expect(try rig.assembly.board.board.gpio.pinLevel(recordLED) == true)
        #expect(rig.events.take().map(\.line).contains { $0.hasPrefix("EVENT record started ") })
        #expect(rig.send("stop").outcome == .ok)
        try rig.settle()
        #expect(try rig.assembly.board.board.gpio.pinLevel(recordLED) == false)
    }
}
