#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a register-bus operation failed: what was being done, on which bus, address and register, and a
/// hint a person at the board can act on.
public enum I2CError: Error, Hashable, Sendable, CustomStringConvertible {
    // Arguments, checked before any byte goes out.
    /// A 7-bit address outside 0x03...0x77.
    case invalidAddress(Int)
    /// A register number wider than the layout's registers.
    case registerOutOfRange(RegisterAddress, layout: RegisterLayout)
    /// A value wider than the layout's values (a 9-bit value above 0x1FF, say).
    case valueOutOfRange(RegisterValue, register: RegisterAddress, layout: RegisterLayout)
    /// A block read that is empty, runs past the last register, or is not an auto-increment layout's.
    case blockOutOfRange(from: RegisterAddress, count: Int, layout: RegisterLayout)
    /// A read on a chip that cannot be read (7+9 layout).
    case notReadable(I2CTarget, register: RegisterAddress, layout: RegisterLayout)

    // Opening the bus.
    /// `open("/dev/i2c-N")` failed.
    case openFailed(bus: Int, Errno)
    /// Selecting the address (I2C_SLAVE) failed; `driver` is the kernel driver bound to it, if any.
    case addressUnavailable(I2CTarget, Errno, driver: String?)
    /// The adapter cannot make the transfers the layout needs (`missing` names the I2C_FUNC capability).
    case adapterLacks(I2CTarget, layout: RegisterLayout, missing: String)

    // Transfers.
    /// The transfer failed on every attempt (or at once, for errors retrying cannot fix).
    case transferFailed(I2CTarget, RegisterTransfer, Errno, attempts: Int)
    /// The simulated chip's register map refused the transfer (see `SimulatedRegisterBus`).
    case rejectedByRegisterMap(I2CTarget, RegisterTransfer, RegisterMapViolation)

    /// The system error behind this one, if any.
    public var errno: Errno? {
        switch self {
        case .openFailed(_, let error), .addressUnavailable(_, let error, _), .transferFailed(_, _, let error, _):
            error
        default:
            nil
        }
    }

    public var description: String {
        switch self {
        case .invalidAddress(let value):
            return "I2C address \(value) (0x\(I2CHex.lowercase(max(value, 0), digits: 2))) is not a 7-bit "
                + "device address: use 0x03...0x77 (an 8-bit write address is the 7-bit one shifted left: "
                + "0x34 means 0x1a)"
        case .registerOutOfRange(let register, let layout):
            return "register \(I2CHex.register(register)) does not exist in the \(layout) layout "
                + "(registers 0...\(I2CHex.register(layout.maxRegister)))"
        case .valueOutOfRange(let value, let register, let layout):
            return "value 0x\(I2CHex.uppercase(value, digits: 2)) for register \(I2CHex.register(register)) "
                + "does not fit the \(layout) layout (at most \(I2CHex.value(layout.maxValue, bits: layout.valueBits)))"
        case .blockOutOfRange(let register, let count, let layout):
            if !layout.supportsBlockReads {
                return "block reads need an auto-increment layout; the \(layout) layout reads one register "
                    + "at a time"
            }
            return "a block read of \(count) registers from \(I2CHex.register(register)) does not fit the "
                + "register space 0...\(I2CHex.register(layout.maxRegister))"
        case .notReadable(let target, let register, let layout):
            return "cannot read register \(I2CHex.register(register)) of the chip on \(target): \(layout) "
                + "chips (WM8960, WM8731) are write-only; keep a RegisterCache seeded with the reset values"
        case .openFailed(let bus, let error):
            return "cannot open /dev/i2c-\(bus): \(error). " + Self.openHint(bus: bus, error)
        case .addressUnavailable(let target, let error, let driver):
            return "cannot select \(target): \(error). " + Self.selectHint(target, error, driver: driver)
        case .adapterLacks(let target, let layout, let missing):
            return "the adapter of \(target) cannot make \(missing) transfers, which \(layout) devices need: "
                + "this adapter speaks SMBus only; put the codec on a full I2C controller (the SoC's i2c_arm)"
        case .transferFailed(let target, let transfer, let error, let attempts):
            let tries = attempts == 1 ? "" : " after \(attempts) attempts"
            return "I2C \(transfer) on \(target) failed\(tries): \(error). "
                + Self.transferHint(target, error)
        case .rejectedByRegisterMap(let target, let transfer, let violation):
            return "the simulated chip on \(target) refused the \(transfer): \(violation)"
        }
    }

    // MARK: Hints

    static func openHint(bus: Int, _ error: Errno) -> String {
        switch error {
        case .noSuchFile, .noDevice, .noSuchDeviceOrAddress:
            return "No such I2C bus: enable I2C (dtparam=i2c_arm=on in config.txt, or raspi-config) and "
                + "load i2c-dev (modprobe i2c-dev; add it to /etc/modules); ls /dev/i2c-* lists the buses"
        case .permissionDenied, .notPermitted:
            return "Add the user to the 'i2c' group (sudo usermod -aG i2c USER) and log in again"
        default:
            return "Check that /dev/i2c-\(bus) is an i2c-dev character device"
        }
    }

    static func selectHint(_ target: I2CTarget, _ error: Errno, driver: String?) -> String {
        switch error {
        case .busy:
            let owner = driver.map { "the kernel driver '\($0)'" } ?? "a kernel driver"
            return "The address is claimed by \(owner) (/sys/bus/i2c/devices/\(target.sysfsName)/driver): "
                + "drop the codec from the device-tree overlay, or let the board file use ALSA mixer controls "
                + "instead; forcing the address (I2C_SLAVE_FORCE) would fight the driver"
        case .invalidArgument:
            return "The adapter rejected the address (10-bit or reserved?)"
        default:
            return "Check that /dev/i2c-\(target.bus) is an i2c-dev character device (ioctl I2C_SLAVE)"
        }
    }

    static func transferHint(_ target: I2CTarget, _ error: Errno) -> String {
        switch error {
        case .noSuchDeviceOrAddress, .remoteIO:
            return "No device acknowledged at \(target.address): check the wiring (SDA, SCL, ground), the "
                + "address (strap pins), the codec's power and its master clock; i2cdetect -y \(target.bus) "
                + "lists what answers"
        case .io:
            return "Bus error: check pull-ups, wire length and the bus speed (dtparam=i2c_arm_baudrate)"
        case .wouldBlock:
            return "Lost arbitration or the bus stayed busy: is another master on the bus?"
        case .timedOut:
            return "The bus timed out: a device may be holding SCL low; power-cycle the codec"
        case .permissionDenied, .notPermitted:
            return "Add the user to the 'i2c' group (sudo usermod -aG i2c USER) and log in again"
        case .notImplemented, Errno(EOPNOTSUPP), Errno(ENOTTY):
            return "The adapter (or qemu-user, which does not emulate the I2C ioctls) cannot make this "
                + "kind of transfer"
        default:
            return "Check the device with i2cget/i2ctransfer on bus \(target.bus)"
        }
    }
}

/// Why the simulated chip's register map refused a transfer.
public enum RegisterMapViolation: Hashable, Sendable, CustomStringConvertible {
    /// The register is not in the map.
    case noSuchRegister(RegisterAddress)
    /// A write to a read-only register (status, chip ID).
    case readOnly(RegisterAddress)
    /// A read of a write-only register.
    case writeOnly(RegisterAddress)
    /// A value with bits set above the register's width.
    case valueTooWide(RegisterAddress, width: Int)

    public var description: String {
        switch self {
        case .noSuchRegister(let reg): "register \(I2CHex.register(reg)) does not exist"
        case .readOnly(let reg): "register \(I2CHex.register(reg)) is read-only"
        case .writeOnly(let reg): "register \(I2CHex.register(reg)) is write-only"
        case .valueTooWide(let reg, let width): "register \(I2CHex.register(reg)) holds only \(width) bits"
        }
    }
}
