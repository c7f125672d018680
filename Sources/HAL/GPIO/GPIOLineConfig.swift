/// The pull resistor an input asks for. Buttons to ground want `.pullUp` with active-low; `.asIs` leaves
/// whatever the device tree or firmware set (the Raspberry Pi's firmware pulls most header pins down).
public enum GPIOBias: Hashable, Sendable, CustomStringConvertible {
    case asIs
    case disabled
    case pullUp
    case pullDown

    public var description: String {
        switch self {
        case .asIs: "as-is"
        case .disabled: "disabled"
        case .pullUp: "pull-up"
        case .pullDown: "pull-down"
        }
    }
}

/// Which edges of an input the kernel reports as events.
public enum GPIOEdgeDetection: Hashable, Sendable {
    case none
    case rising
    case falling
    case both
}

/// How to request an input line.
public struct GPIOInputConfig: Hashable, Sendable {
    public var bias: GPIOBias
    /// The line is active when low: values and edges are logical (a press to ground reads 1 and rises).
    public var activeLow: Bool
    public var edges: GPIOEdgeDetection
    /// Shown by `gpioinfo` and in a busy error of another program; always the firmware's name by default.
    public var consumer: String

    public init(bias: GPIOBias = .asIs, activeLow: Bool = false, edges: GPIOEdgeDetection = .none,
                consumer: String = GPIOInputConfig.defaultConsumer) {
        self.bias = bias
        self.activeLow = activeLow
        self.edges = edges
        self.consumer = consumer
    }

    /// The consumer name on every request of the firmware.
    public static let defaultConsumer = "appliance"
}

/// How to request an output line.
public struct GPIOOutputConfig: Hashable, Sendable {
    /// The logical value the line takes the moment it is requested (an amplifier enable starts off).
    public var initialValue: Bool
    public var activeLow: Bool
    public var consumer: String

    public init(initialValue: Bool = false, activeLow: Bool = false,
                consumer: String = GPIOInputConfig.defaultConsumer) {
        self.initialValue = initialValue
        self.activeLow = activeLow
        self.consumer = consumer
    }
}

/// A logical edge: `.rising` means the line became active (with active-low, the pin went low).
public enum GPIOEdge: Hashable, Sendable {
    case rising
    case falling

    /// The logical level after the edge.
    public var level: Bool { self == .rising }
}

/// One edge as the kernel timestamped it.
public struct GPIOEdgeEvent: Hashable, Sendable, CustomStringConvertible {
    public var line: GPIOLineID
    public var edge: GPIOEdge
    /// When the edge happened, on `CLOCK_MONOTONIC` (the kernel's timestamp from the interrupt, not the time
    /// the event was read), so debouncing is exact however late the reader thread runs.
    public var timestamp: Timestamp

    public init(line: GPIOLineID, edge: GPIOEdge, timestamp: Timestamp) {
        self.line = line
        self.edge = edge
        self.timestamp = timestamp
    }

    public var description: String { "\(line) \(edge == .rising ? "rising" : "falling") at \(timestamp)" }
}

/// Receives edge events. Runs on the GPIO event thread (real backend) or on the thread driving the simulation:
/// keep it short and hand the event on (a queue, a debouncer); never block in it.
public typealias GPIOEdgeHandler = @Sendable (GPIOEdgeEvent) -> Void
