import Foundation
import Testing
@testable import HAL

/// The real backend without hardware: this host (and qemu-user) has no /dev/gpiochip*, so only lookups and
/// their errors run here. Requests on real lines are for the QEMU rig with gpio-sim.
@Suite("LinuxGPIO")
struct LinuxGPIOTests {
    /// An empty directory standing in for /dev.
    static func emptyDeviceDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "appliance-gpio-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theLibraryVersionMatchesTheAPIItWasBuiltFor() {
        #expect(LinuxGPIO.libraryAPI == 1 || LinuxGPIO.libraryAPI == 2)
        #expect(LinuxGPIO.libraryVersion.hasPrefix("\(LinuxGPIO.libraryAPI)."))
    }

    @Test func aMissingChipPathSaysNoChipsWereFound() throws {
        let directory = try Self.emptyDeviceDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gpio = LinuxGPIO(deviceDirectory: directory)
        #expect(try gpio.chips().isEmpty)
        let path = directory + "/gpiochip0"
        #expect(throws: GPIOError.chipNotFound(.path(path), available: [])) {
            try gpio.requestInput(0, on: .path(path), GPIOInputConfig(bias: .pullUp, edges: .both), onEdge: { _ in })
        }
        #expect(throws: GPIOError.chipNotFound(.name("gpiochip3"), available: [])) {
            try gpio.requestOutput(1, on: .name("gpiochip3"), GPIOOutputConfig())
        }
        #expect(throws: GPIOError.chipNotFound(.label("pinctrl-bcm2711"), available: [])) {
            try gpio.requestInput(17, on: .label("pinctrl-bcm2711"))
        }
        let message = GPIOError.chipNotFound(.path(path), available: []).description
        #expect(message.hasPrefix("GPIO chip \(path) not found. No GPIO chips found"))
    }

    @Test func aLabelLookupOnThisMachineListsWhatExists() throws {
        let gpio = LinuxGPIO()
        let present = try gpio.chips()      // none here or under qemu-user; whatever there is on a board
        do {
            _ = try gpio.requestInput(0, on: .label("no-such-gpio-label"))
            Issue.record("a label no chip has was found")
        } catch .chipNotFound(let selector, let available) {
            #expect(selector == .label("no-such-gpio-label"))
            #expect(available == present)
        } catch .permissionDenied {
            // Chips exist that this user cannot open: also a correct answer.
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aFileThatIsNoGPIOChipIsNamedAsSuch() throws {
        let gpio = LinuxGPIO()
        #expect(throws: GPIOError.notAGPIOChip(path: "/dev/null")) {
            try gpio.requestInput(0, on: .path("/dev/null"))
        }
    }
}

@Suite("GPIO names and errors")
struct GPIOErrorTests {
    @Test func boardFileSpellingsOfChips() {
        #expect(GPIOChipSelector("/dev/gpiochip4") == .path("/dev/gpiochip4"))
        #expect(GPIOChipSelector("gpiochip0") == .name("gpiochip0"))
        #expect(GPIOChipSelector("gpiochip") == .label("gpiochip"))
        #expect(GPIOChipSelector("gpiochip-sim") == .label("gpiochip-sim"))
        #expect(GPIOChipSelector("pinctrl-rp1") == .label("pinctrl-rp1"))
        let chip = GPIOChipInfo(path: "/dev/gpiochip4", name: "gpiochip4", label: "pinctrl-rp1", lineCount: 54)
        #expect(GPIOChipSelector("pinctrl-rp1").matches(chip))
        #expect(!GPIOChipSelector("gpiochip0").matches(chip))
    }

    @Test func descriptionsSayWhatFailedAndWhatToDo() {
        let line = GPIOLineID(chip: "gpiochip0", offset: 17)
        #expect(GPIOError.lineBusy(line, consumer: "gpio-keys").description
            == "gpiochip0 line 17 is busy, held by 'gpio-keys' (EBUSY). Stop 'gpio-keys' or free the line from its "
            + "device-tree overlay (e.g. a gpio-key or LED driver claims it); `gpioinfo` shows the holder.")
        #expect(GPIOError.lineBusy(line, consumer: nil).description.contains("`gpioinfo` shows the holder"))
        #expect(GPIOError.lineBusy(line, consumer: "appliance").hint.contains("already holds it"))
        #expect(GPIOError.permissionDenied(path: "/dev/gpiochip0").description
            .hasPrefix("no permission to open /dev/gpiochip0 (EACCES). Add the user to the 'gpio' group"))
        #expect(GPIOError.unsupportedBias(line, .pullDown).description
            .hasPrefix("gpiochip0 line 17 cannot be set to bias pull-down. Pull-up/pull-down requests need Linux 5.5"))
        let chip = GPIOChipInfo(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lineCount: 58)
        #expect(GPIOError.lineOutOfRange(chip: chip, offset: 60).description.hasPrefix(
            "line 60 is out of range on gpiochip0 [pinctrl-bcm2711], which has 58 lines."))
    }
}
