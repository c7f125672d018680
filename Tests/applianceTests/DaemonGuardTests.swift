import Foundation
import HAL
import Testing
@testable import appliance

/// Which commands must not run beside the daemon: those that open the codec or the PCM themselves.
struct DaemonGuardTests {
    @Test func halAndHardwareCodecCommandsNeedTheDevicesOthersDoNot() {
        #expect(DaemonGuard.needsExclusiveHardware(["hal", "pcm", "list"]))
        #expect(DaemonGuard.needsExclusiveHardware(["codec", "volume", "--hardware", "-10"]))
        #expect(!DaemonGuard.needsExclusiveHardware(["codec", "volume", "-10"]))  // the simulated twin
        #expect(!DaemonGuard.needsExclusiveHardware(["hal", "--help"]))
        #expect(!DaemonGuard.needsExclusiveHardware(["ctl", "vol 40"]))
        #expect(!DaemonGuard.needsExclusiveHardware([]))
    }

    /// While a lock is held the refusal names the holder; without one there is none.
    @Test func theRefusalNamesTheHolder() throws {
        let path = NSTemporaryDirectory() + "appliance-guard-\(UUID().uuidString).lock"
        defer { unlink(path) }
        #expect(DaemonGuard.refusal(for: ["hal", "gpio", "list"], lockPaths: [path]) == nil)
        let lock = try InstanceLock(path: path)
        let refusal = DaemonGuard.refusal(for: ["codec", "dump", "--hardware"], lockPaths: [path])
        #expect(refusal?.hasPrefix("the appliance is already running (pid \(getpid())") == true, "\(refusal ?? "nil")")
        #expect(DaemonGuard.refusal(for: ["board", "list"], lockPaths: [path]) == nil)
        withExtendedLifetime(lock) {}
    }
}
