/// Which GPIO chip a board file means. Chip numbers change with probe order (on a Raspberry Pi 5 the header's
/// chip moved from gpiochip0 to gpiochip4 and back between kernels), labels do not: prefer `.label`.
public enum GPIOChipSelector: Hashable, Sendable, CustomStringConvertible {
    /// The character device, e.g. `/dev/gpiochip0`.
    case path(String)
    /// The kernel's device name, e.g. `gpiochip0`.
    case name(String)
    /// The driver's label, e.g. `pinctrl-bcm2711`, `pinctrl-rp1`, or the label given to a gpio-sim chip.
    case label(String)

    /// Reads a board-file spelling: a path starting with `/`, a `gpiochipN` name, or else a label.
    public init(_ text: String) {
        if text.hasPrefix("/") {
            self = .path(text)
        } else if text.hasPrefix("gpiochip"), !text.dropFirst(8).isEmpty, text.dropFirst(8).allSatisfy(\.isNumber) {
            self = .name(text)
        } else {
            self = .label(text)
        }
    }

    public var description: String {
        switch self {
        case .path(let path): path
        case .name(let name): name
        case .label(let label): "label '\(label)'"
        }
    }

    /// Whether `chip` is the one this selector means.
    public func matches(_ chip: GPIOChipInfo) -> Bool {
        switch self {
        case .path(let path): chip.path == path
        case .name(let name): chip.name == name
        case .label(let label): chip.label == label
        }
    }
}

/// Which line on a chip: by offset, or by the name the device tree (or gpio-sim) gave it.
public enum GPIOLineSelector: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    case offset(Int)
    case name(String)

    public init(integerLiteral value: Int) { self = .offset(value) }

    public var description: String {
        switch self {
        case .offset(let offset): "line \(offset)"
        case .name(let name): "line '\(name)'"
        }
    }
}

/// A chip as the kernel describes it.
public struct GPIOChipInfo: Hashable, Sendable, CustomStringConvertible {
    /// The character device, e.g. `/dev/gpiochip0`.
    public var path: String
    /// The kernel's name, e.g. `gpiochip0`.
    public var name: String
    /// The driver's label, e.g. `pinctrl-bcm2711`.
    public var label: String
    public var lineCount: Int

    public init(path: String, name: String, label: String, lineCount: Int) {
        self.path = path
        self.name = name
        self.label = label
        self.lineCount = lineCount
    }

    public var description: String { "\(name) [\(label)] (\(lineCount) lines)" }
}

/// One line, named the way events and debounced changes name it: the chip's kernel name and the offset.
public struct GPIOLineID: Hashable, Sendable, CustomStringConvertible {
    public var chip: String
    public var offset: Int

    public init(chip: String, offset: Int) {
        self.chip = chip
        self.offset = offset
    }

    public var description: String { "\(chip) line \(offset)" }
}
