/// Where the board senses one of the jack's signals (the plug switch, or the microphone ring).
public enum JackSignalSource: Hashable, Sendable {
    /// A GPIO input: the jack's switch contact, or a comparator on the microphone ring. Polarity, bias and
    /// debounce come from the board file.
    case gpio(chip: GPIOChipSelector, line: GPIOLineSelector, DebouncedLineConfig)
    /// Bits of a codec status register, polled over the control bus.
    case codecStatus(JackStatusBits)
}

/// The bits of a codec's status register that report a jack signal.
public struct JackStatusBits: Hashable, Sendable {
    public var register: RegisterAddress
    public var mask: RegisterValue
    /// The signal is present when the masked bits are all clear (rather than set).
    public var activeLow: Bool
    /// How long a polled level must hold before it counts.
    public var debounce: Duration

    public init(register: RegisterAddress, mask: RegisterValue, activeLow: Bool = false,
                debounce: Duration = .milliseconds(100)) {
        precondition(mask != 0, "a status signal has at least one bit")
        self.register = register
        self.mask = mask
        self.activeLow = activeLow
        self.debounce = debounce
    }

    /// The signal's level in a status register value.
    public func isPresent(in value: RegisterValue) -> Bool {
        let set = value & mask == mask
        let clear = value & mask == 0
        return activeLow ? clear : set
    }
}

/// How a board senses its jack: the plug, and the microphone where it can tell a headset from headphones.
public struct JackSensing: Hashable, Sendable {
    public var plug: JackSignalSource
    public var microphone: JackSignalSource?
    /// How long after the plug's change the microphone's level decides headset or headphones.
    public var microphoneSettle: Duration
    /// The latest the decision waits, from the plug's change, for a microphone line still settling
    /// (see `JackStateMachine`); nil: twice `microphoneSettle`.
    public var microphoneSettleLimit: Duration?
    /// How often codec status registers are read (status sources only).
    public var pollInterval: Duration

    public init(plug: JackSignalSource, microphone: JackSignalSource? = nil,
                microphoneSettle: Duration = .milliseconds(150), microphoneSettleLimit: Duration? = nil,
                pollInterval: Duration = .milliseconds(50)) {
        precondition(pollInterval > .zero, "a poll interval is positive")
        self.plug = plug
        self.microphone = microphone
        self.microphoneSettle = microphoneSettle
        self.microphoneSettleLimit = microphoneSettleLimit
        self.pollInterval = pollInterval
    }
}
