/// What went wrong with a GPIO chip or line: which chip and line, what the kernel said, and what to do.
/// The real backend and the simulated twin throw the same cases, so callers handle one set of errors.
public enum GPIOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No chip matches; `available` lists the chips that exist (empty: none at all).
    case chipNotFound(GPIOChipSelector, available: [GPIOChipInfo])
    /// The path exists but is not a GPIO character device.
    case notAGPIOChip(path: String)
    /// The chip has fewer lines than the offset asked for.
    case lineOutOfRange(chip: GPIOChipInfo, offset: Int)
    /// No line on the chip carries that name.
    case lineNotFound(chip: GPIOChipInfo, name: String)
    /// Another request holds the line (EBUSY); `consumer` is the holder's name when the kernel reports one.
    case lineBusy(GPIOLineID, consumer: String?)
    /// EACCES opening the chip.
    case permissionDenied(path: String)
    /// The kernel or the chip's driver cannot set that bias (kernels before 5.5, or a controller without pulls).
    case unsupportedBias(GPIOLineID, GPIOBias)
    /// The line was used after `release()`.
    case released(GPIOLineID)
    /// Any other failure of `operation` on `device`.
    case system(operation: String, device: String, Errno)

    public var description: String {
        let problem: String
        switch self {
        case .chipNotFound(let selector, _):
            problem = "GPIO chip \(selector) not found"
        case .notAGPIOChip(let path):
            problem = "\(path) is not a GPIO chip"
        case .lineOutOfRange(let chip, let offset):
            problem = "line \(offset) is out of range on \(chip.name) [\(chip.label)], which has \(chip.lineCount) lines"
        case .lineNotFound(let chip, let name):
            problem = "no line named '\(name)' on \(chip.name) [\(chip.label)]"
        case .lineBusy(let line, let consumer):
            problem = "\(line) is busy" + (consumer.map { ", held by '\($0)'" } ?? "") + " (EBUSY)"
        case .permissionDenied(let path):
            problem = "no permission to open \(path) (EACCES)"
        case .unsupportedBias(let line, let bias):
            problem = "\(line) cannot be set to bias \(bias)"
        case .released(let line):
            problem = "\(line) was already released"
        case .system(let operation, let device, let errno):
            problem = "\(operation) on \(device) failed: \(errno)"
        }
        return problem + ". " + hint
    }

    /// What a person can do about it.
    public var hint: String {
        switch self {
        case .chipNotFound(_, let available):
            if available.isEmpty {
                return "No GPIO chips found (no /dev/gpiochip*): check the kernel has the GPIO character device "
                    + "and the board's GPIO driver loaded."
            }
            return "Chips present: " + available.map(\.description).joined(separator: ", ")
                + ". Name the chip by its label in the board file; numbers change between kernels."
        case .notAGPIOChip:
            return "Give a /dev/gpiochipN path, a chip name (gpiochipN) or a chip label."
        case .lineOutOfRange:
            return "Check the line offset in the board file against `gpioinfo`."
        case .lineNotFound:
            return "Line names come from the device tree; list them with `gpioinfo`, or give the offset instead."
        case .lineBusy(_, let consumer):
            if let consumer, consumer == GPIOInputConfig.defaultConsumer {
                return "The appliance itself already holds it: is the line used twice in the board file, or "
                    + "is another appliance process running?"
            }
            if let consumer {
                return "Stop '\(consumer)' or free the line from its device-tree overlay (e.g. a gpio-key or LED "
                    + "driver claims it); `gpioinfo` shows the holder."
            }
            return "Another program or a kernel driver holds it; `gpioinfo` shows the holder."
        case .permissionDenied:
            return "Add the user to the 'gpio' group (Raspberry Pi OS has one), or install a udev rule such as "
                + "SUBSYSTEM==\"gpio\", KERNEL==\"gpiochip*\", GROUP=\"gpio\", MODE=\"0660\"."
        case .unsupportedBias:
            return "Pull-up/pull-down requests need Linux 5.5 or later and a controller with programmable pulls; "
                + "use bias 'as-is' with an external resistor instead."
        case .released:
            return "Request the line again."
        case .system(_, _, let errno):
            switch errno {
            case .noDevice, .noSuchDeviceOrAddress: return "The chip went away (driver unbound or device removed)."
            case .io: return "The GPIO controller reported an I/O error; check the board's wiring and driver."
            default: return "See the kernel log (dmesg) for the GPIO driver's message."
            }
        }
    }
}
