import Foundation
import Testing
@testable import HAL

/// The Linux backend without hardware: what can be checked without an I2C adapter. (Under qemu-user the
/// I2C ioctls are not emulated, so nothing here depends on their answer.)
@Suite("I2C register bus on Linux")
struct I2CRegisterBusTests {
    @Test func aMissingBusGivesTheTypedErrorWithAHint() throws {
        let address = try I2CAddress(0x1a)
        #expect(throws: I2CError.openFailed(bus: 99, .noSuchFile)) {
            _ = try I2CRegisterBus(bus: 99, address: address, layout: .reg7Value9)
        }
        let text = I2CError.openFailed(bus: 99, .noSuchFile).description
        #expect(text.hasPrefix("cannot open /dev/i2c-99: "))
        #expect(text.contains("(ENOENT)"))
        #expect(text.contains("dtparam=i2c_arm=on"))
        #expect(text.contains("modprobe i2c-dev"))
    }

    @Test func aFileThatIsNotAnAdapterCannotSelectAnAddress() throws {
        let target = I2CTarget(bus: 0, address: try I2CAddress(0x1a))
        // The same open + I2C_SLAVE path as /dev/i2c-0, on a file that is no adapter.
        do {
            _ = try I2CRegisterBus(path: "/dev/null", target: target, layout: .reg8Value8, force: false, retry: .standard)
            Issue.record("/dev/null accepted an I2C address")
        } catch {
            guard case .addressUnavailable(let failedTarget, let errno, let driver) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failedTarget == target)
            #expect(errno == Errno(ENOTTY) || errno == .notImplemented)
            #expect(driver == nil)
            #expect(error.description.hasPrefix("cannot select i2c-0 address 0x1a: "))
            #expect(error.description.contains("i2c-dev character device"))
        }
    }

    @Test func argumentsAreCheckedBeforeTheKernelIsAsked() throws {
        let descriptor = open("/dev/null", O_RDWR)
        try #require(descriptor >= 0)
        let target = I2CTarget(bus: 1, address: try I2CAddress(0x1a))
        let bus = I2CRegisterBus(adopting: descriptor, target: target, layout: .reg7Value9, retry: .standard)
        #expect(throws: I2CError.valueOutOfRange(0x200, register: 0x02, layout: .reg7Value9)) { try bus.write(0x02, 0x200) }
        #expect(throws: I2CError.registerOutOfRange(0x80, layout: .reg7Value9)) { try bus.write(0x80, 0x000) }
        #expect(throws: I2CError.notReadable(target, register: 0x02, layout: .reg7Value9)) { try bus.read(0x02) }
        #expect(throws: I2CError.blockOutOfRange(from: 0x00, count: 2, layout: .reg7Value9)) {
            try bus.readBlock(from: 0x00, count: 2)
        }
    }

    /// A transfer on something that is not an adapter fails at once (ENOTTY on Linux, ENOSYS under
    /// qemu-user): not a transient error, so no retries and no delay.
    @Test func aTransferTheKernelCannotMakeFailsWithoutRetries() throws {
        let descriptor = open("/dev/null", O_RDWR)
        try #require(descriptor >= 0)
        let target = I2CTarget(bus: 1, address: try I2CAddress(0x1a))
        let clock = ManualClock(skipsSleeps: true)
        for layout in RegisterLayout.allCases {
            let bus = I2CRegisterBus(adopting: dup(descriptor), target: target, layout: layout,
                                     retry: I2CRetryPolicy(attempts: 3, delay: .seconds(1), clock: clock))
            do {
                try bus.write(0x02, 0x55)
                Issue.record("a write to /dev/null as an I2C adapter succeeded")
            } catch {
                guard case .transferFailed(let failedTarget, let transfer, let errno, let attempts) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(failedTarget == target)
                #expect(transfer == .write(reg: 0x02, value: 0x55))
                #expect(errno == Errno(ENOTTY) || errno == .notImplemented)
                #expect(attempts == 1)
                #expect(error.description.contains("on i2c-1 address 0x1a failed: "))
            }
        }
        close(descriptor)
        #expect(clock.now == .zero)
    }

    @Test func hintsNameTheCauseAPersonCanFix() throws {
        let target = I2CTarget(bus: 1, address: try I2CAddress(0x1a))
        let denied = I2CError.openFailed(bus: 1, .permissionDenied).description
        #expect(denied.contains("'i2c' group"))
        let claimed = I2CError.addressUnavailable(target, .busy, driver: "wm8960").description
        #expect(claimed.contains("kernel driver 'wm8960'"))
        #expect(claimed.contains("/sys/bus/i2c/devices/1-001a/driver"))
        let noAck = I2CError.transferFailed(target, .read(reg: 0x00), .noSuchDeviceOrAddress, attempts: 3).description
        #expect(noAck.contains("No device acknowledged at 0x1a"))
        #expect(noAck.contains("i2cdetect -y 1"))
        let smbusOnly = I2CError.adapterLacks(target, layout: .reg16Value16, missing: "plain I2C (I2C_RDWR)").description
        #expect(smbusOnly.contains("plain I2C (I2C_RDWR)"))
        #expect(I2CError.transferFailed(target, .read(reg: 0x00), .io, attempts: 3).errno == .io)
    }

    @Test func theKernelDriverHoldingAnAddressIsFoundInSysfs() throws {
        let devices = FileManager.default.temporaryDirectory.appendingPathComponent("i2c-sysfs-\(getpid())")
        defer { try? FileManager.default.removeItem(at: devices) }
        let device = devices.appendingPathComponent("1-001a")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: device.appendingPathComponent("driver").path,
                                                   withDestinationPath: "../../../bus/i2c/drivers/wm8960")
        let claimed = I2CTarget(bus: 1, address: try I2CAddress(0x1a))
        #expect(I2CRegisterBus.kernelDriver(of: claimed, devices: devices.path) == "wm8960")
        let free = I2CTarget(bus: 1, address: try I2CAddress(0x1b))
        #expect(I2CRegisterBus.kernelDriver(of: free, devices: devices.path) == nil)
    }
}
