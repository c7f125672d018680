import CGPIOD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// GPIO lines through the kernel's GPIO character device (/dev/gpiochipN) and libgpiod, v1 or v2 alike.
///
/// Edge events are timestamped by the kernel on `CLOCK_MONOTONIC` (libgpiod v2 asks for it explicitly; the
/// v1 uAPI uses it since Linux 5.7) and delivered on this backend's event thread (see `GPIOEventReader`).
/// Chip lookups reopen the device each time: numbers are not stable, and lookups happen at start-up only.
public final class LinuxGPIO: GPIOController, @unchecked Sendable {
    /// Where the gpiochip devices live; tests point it at an empty directory.
    public let deviceDirectory: String
    private let reader = GPIOEventReader()

    public init(deviceDirectory: String = "/dev") {
        self.deviceDirectory = deviceDirectory
    }

    /// 1 or 2: the libgpiod API this build was compiled against.
    public static var libraryAPI: Int { Int(appliance_gpio_api()) }
    /// The library's version string, e.g. "1.6.3" or "2.2.1".
    public static var libraryVersion: String { String(cString: appliance_gpio_library_version()) }

    public func chips() throws(GPIOError) -> [GPIOChipInfo] {
        LinuxGPIOChip.scan(deviceDirectory).chips.map(\.info)
    }

    /// Opens the chip a selector means.
    func open(_ selector: GPIOChipSelector) throws(GPIOError) -> LinuxGPIOChip {
        switch selector {
        case .path(let path):
            return try open(path: path, selector: selector)
        case .name(let name):
            let path = deviceDirectory.hasSuffix("/") ? deviceDirectory + name : deviceDirectory + "/" + name
            return try open(path: path, selector: selector)
        case .label:
            let (chips, denied) = LinuxGPIOChip.scan(deviceDirectory)
            if let chip = chips.first(where: { selector.matches($0.info) }) { return chip }
            // The one we want may be among those we could not open.
            if let path = denied.first { throw .permissionDenied(path: path) }
            throw .chipNotFound(selector, available: chips.map(\.info))
        }
    }

    private func open(path: String, selector: GPIOChipSelector) throws(GPIOError) -> LinuxGPIOChip {
        do {
            return try LinuxGPIOChip(path: path)
        } catch {
            switch error {
            case .noSuchFile:
                throw .chipNotFound(selector, available: LinuxGPIOChip.scan(deviceDirectory).chips.map(\.info))
            case .permissionDenied, .notPermitted:
                throw .permissionDenied(path: path)
            case .noDevice, Errno(ENOTTY), .invalidArgument:
                throw .notAGPIOChip(path: path)
            default:
                throw .system(operation: "opening the GPIO chip", device: path, error)
            }
        }
    }

    public func requestInput(_ line: GPIOLineSelector, on chip: GPIOChipSelector, _ config: GPIOInputConfig,
                             onEdge: GPIOEdgeHandler?) throws(GPIOError) -> any GPIOInputLine {
        let device = try open(chip)
        let offset = try device.offset(of: line)
        let edges = onEdge == nil ? GPIOEdgeDetection.none : config.edges
        guard let raw = appliance_gpio_request_input(device.handle, UInt32(offset), config.consumer,
                                                     config.bias.shimValue, edges.shimValue, config.activeLow)
        else { throw device.requestError(Errno.current, offset: offset, bias: config.bias) }
        let request = LinuxGPIORequest(chip: device, offset: offset, request: raw)
        if let onEdge, edges != .none {
            try request.deliverEvents(to: reader, handler: onEdge)
        }
        return request
    }

    public func requestOutput(_ line: GPIOLineSelector, on chip: GPIOChipSelector,
                              _ config: GPIOOutputConfig) throws(GPIOError) -> any GPIOOutputLine {
        let device = try open(chip)
        let offset = try device.offset(of: line)
        guard let raw = appliance_gpio_request_output(device.handle, UInt32(offset), config.consumer,
                                                      config.activeLow, config.initialValue ? 1 : 0)
        else { throw device.requestError(Errno.current, offset: offset, bias: .asIs) }
        return LinuxGPIORequest(chip: device, offset: offset, request: raw)
    }
}

extension GPIOBias {
    var shimValue: Int32 {
        switch self {
        case .asIs: Int32(APPLIANCE_GPIO_BIAS_AS_IS.rawValue)
        case .disabled: Int32(APPLIANCE_GPIO_BIAS_DISABLED.rawValue)
        case .pullUp: Int32(APPLIANCE_GPIO_BIAS_PULL_UP.rawValue)
        case .pullDown: Int32(APPLIANCE_GPIO_BIAS_PULL_DOWN.rawValue)
        }
    }
}

extension GPIOEdgeDetection {
    var shimValue: Int32 {
        switch self {
        case .none: Int32(APPLIANCE_GPIO_EDGES_NONE.rawValue)
        case .rising: Int32(APPLIANCE_GPIO_EDGES_RISING.rawValue)
        case .falling: Int32(APPLIANCE_GPIO_EDGES_FALLING.rawValue)
        case .both: Int32(APPLIANCE_GPIO_EDGES_BOTH.rawValue)
        }
    }
}
