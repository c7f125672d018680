/// What the control side of an output queue tells its render side, through an `SPSCRing`: plain values
/// only (indices, counts, an address the pool keeps alive), so nothing is retained or allocated on the
/// render thread.
enum OutputQueueCommand: BitwiseCopyable {
    /// Buffer `index` holds `bytes` bytes of whole packets at `data`, to be played after those before it.
    case enqueue(index: Int, data: UnsafeRawPointer, bytes: Int)
    /// A transport action to carry out.
    case transport(AudioQueueTransport.Action)
    /// The queue volume, raw 8.24; ramped when sounding.
    case volume(raw: Int32)
}

/// What the render side reports back, in the order it happened, through an `SPSCRing`.
enum OutputQueueReport: BitwiseCopyable {
    /// Buffer `index` is fully decoded: the caller may refill it.
    case consumed(index: Int)
    /// Buffer `index` was discarded (reset, stop) before it was consumed.
    case discarded(index: Int)
    /// Buffer `index`'s last frame has passed through the render; it plays at device frame `lastFrame`.
    case rendered(index: Int, lastFrame: Int64)
    /// The transport's reports (see `AudioQueueTransport.Report`).
    case started(at: Int64)
    case fadedOut
    case playedOut
    case underrun
}
