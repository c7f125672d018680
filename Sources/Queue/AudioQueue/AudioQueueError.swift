/// Why an audio queue refused a call: what was wrong and what to do instead. One typed error for the output
/// and input queues; `description` is one line with the hint.
public struct AudioQueueError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The buffer was not allocated by this queue (Core Audio refuses foreign memory), or is already
        /// enqueued, or its queue is disposed.
        case foreignBuffer
        /// The call does not fit the queue's transport state (pause while stopped, prime while running, ...).
        case wrongState
        /// The stream format is one the queue cannot play or record (yet).
        case formatUnsupported
        /// A buffer's contents or size do not fit the queue's format (a partial packet, more bytes than fit).
        case invalidBuffer
        /// A value outside its range (a volume above 1, a fade of no length).
        case invalidValue
        /// A fixed limit was reached (buffers per queue, ring slots).
        case limitReached
        /// The engine or the system refused (attaching to the host, starting the callback thread).
        case system
        /// The queue has been disposed.
        case disposed
    }

    public let kind: Kind
    /// What was wrong.
    public let message: String
    /// What to do about it.
    public let hint: String

    public init(_ kind: Kind, _ message: String, hint: String) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { "\(message) (\(hint))" }

    static func wrongState(_ call: String, _ state: AudioQueueTransport.State, hint: String) -> AudioQueueError {
        AudioQueueError(.wrongState, "\(call): the queue is \(state)", hint: hint)
    }
}
