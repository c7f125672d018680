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

/// One edge as the kernel timestamped it, or the level read again after the kernel dropped edges.
public struct GPIOEdgeEvent: Hashable, Sendable, CustomStringConvertible {
    public var line: GPIOLineID
    public var edge: GPIOEdge
    /// When the edge happened, on `CLOCK_MONOTONIC` (the kernel's timestamp from the interrupt, not the time
    /// the event was read), so debouncing is exact however late the reader thread runs. For a `.reread`,
    /// the time of the read.
    public var timestamp: Timestamp
    public var origin: GPIOEdgeOrigin

    public init(line: GPIOLineID, edge: GPIOEdge, timestamp: Timestamp, origin: GPIOEdgeOrigin = .kernel(sequence: nil)) {
        self.line = line
        self.edge = edge
        self.timestamp = timestamp
        self.origin = origin
    }

    public var description: String {
        let what = "\(line) \(edge == .rising ? "rising" : "falling") at \(timestamp)"
        switch origin {
        case .kernel(let sequence?): return what + " seq \(sequence)"
        case .kernel(nil): return what
        case .reread(let lost?): return what + " (re-read after \(lost) lost edges)"
        case .reread(nil): return what + " (re-read after lost edges)"
        }
    }
}

/// Where an edge event came from.
public enum GPIOEdgeOrigin: Hashable, Sendable {
    /// Queued by the kernel. `sequence` is the line's event sequence number (libgpiod v2's
    /// `gpiod_edge_event_get_line_seqno`: the kernel's `gpio_v2_line_event.line_seqno`, 1 for the first edge);
    /// nil where the API has none (libgpiod v1).
    case kernel(sequence: UInt64?)
    /// The kernel's event queue for the line was full and it dropped edges, so the line's level was read
    /// again: the event's edge is that level (a `.rising` event means "active now"), possibly the level the
    /// last event already gave. `lost` counts the dropped edges from the sequence numbers; nil when unknown
    /// (libgpiod v1: no sequence numbers, only a full queue whose last edge disagrees with the level).
    case reread(lost: Int?)
}

/// Receives edge events. Runs on the GPIO event thread (real backend) or on the thread driving the simulation:
/// keep it short and hand the event on (a queue, a debouncer); never block in it.
public typealias GPIOEdgeHandler = @Sendable (GPIOEdgeEvent) -> Void
