import CGPIOD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open /dev/gpiochipN (through the CGPIOD shim), owned by a class so it closes exactly once.
/// Line requests keep their chip alive: with libgpiod v1 a request lives inside the chip object.
final class LinuxGPIOChip: @unchecked Sendable {
    let handle: OpaquePointer
    let info: GPIOChipInfo

    /// Opens `path`; errors name the path. `ENOENT` is left to the caller, who knows what else exists.
    init(path: String) throws(Errno) {
        guard let handle = appliance_gpio_open_chip(path) else { throw Errno.current }
        var name = [CChar](repeating: 0, count: 64)
        var label = [CChar](repeating: 0, count: 128)
        var count: UInt32 = 0
        guard appliance_gpio_chip_identity(handle, &name, name.count, &label, label.count, &count) == 0 else {
            let error = Errno.current
            appliance_gpio_close_chip(handle)
            throw error
        }
        self.handle = handle
        self.info = GPIOChipInfo(path: path, name: Self.text(name), label: Self.text(label), lineCount: Int(count))
    }

    deinit { appliance_gpio_close_chip(handle) }

    /// A NUL-terminated C buffer as a String.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What the kernel says about a line now: its name and, if used, the holder's consumer name.
    func lineInfo(_ offset: Int) -> (name: String?, consumer: String?, used: Bool)? {
        var info = appliance_gpio_line_info()
        guard appliance_gpio_line_info_get(handle, UInt32(offset), &info) == 0 else { return nil }
        let name = withUnsafeBytes(of: &info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let consumer = withUnsafeBytes(of: &info.consumer) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        return (name.isEmpty ? nil : name, consumer.isEmpty ? nil : consumer, info.used)
    }

    /// The offset a selector means on this chip.
    func offset(of line: GPIOLineSelector) throws(GPIOError) -> Int {
        switch line {
        case .offset(let offset):
            guard offset >= 0, offset < info.lineCount else { throw .lineOutOfRange(chip: info, offset: offset) }
            return offset
        case .name(let name):
            let offset = appliance_gpio_find_line(handle, name)
            if offset >= 0 { return Int(offset) }
            let error = Errno.current
            if error == .noSuchFile { throw .lineNotFound(chip: info, name: name) }
            throw .system(operation: "looking up line '\(name)'", device: info.path, error)
        }
    }

    /// Turns a failed request's errno into the error a person can act on.
    func requestError(_ error: Errno, offset: Int, bias: GPIOBias) -> GPIOError {
        let line = GPIOLineID(chip: info.name, offset: offset)
        switch error {
        case .busy:
            return .lineBusy(line, consumer: lineInfo(offset)?.consumer)
        case .permissionDenied, .notPermitted:
            return .permissionDenied(path: info.path)
        // Kernels without bias support reject the flag as invalid (v1 uAPI before 5.5) or unsupported.
        case .invalidArgument where bias != .asIs, Errno(EOPNOTSUPP) where bias != .asIs:
            return .unsupportedBias(line, bias)
        default:
            return .system(operation: "requesting line \(offset)", device: info.path, error)
        }
    }
}

extension LinuxGPIOChip {
    /// Every /dev/gpiochip* in `directory` that opens, in number order, and the paths refused with EACCES.
    static func scan(_ directory: String) -> (chips: [LinuxGPIOChip], denied: [String]) {
        guard var names = FileSystem.entries(in: directory)?.filter({ $0.hasPrefix("gpiochip") }) else { return ([], []) }
        names.sort { (Int($0.dropFirst(8)) ?? .max, $0) < (Int($1.dropFirst(8)) ?? .max, $1) }
        var chips: [LinuxGPIOChip] = []
        var denied: [String] = []
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            do {
                chips.append(try LinuxGPIOChip(path: path))
            } catch {
                if error == .permissionDenied || error == .notPermitted { denied.append(path) }
            }
        }
        return (chips, denied)
    }
}
