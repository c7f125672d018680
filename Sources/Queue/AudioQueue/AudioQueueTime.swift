import HAL

/// Where an audio queue is (Core Audio's `AudioQueueGetCurrentTime`): the queue's own position in its
/// frames, and the device-timeline reading it was taken against.
public struct AudioQueueTime: Sendable, Hashable {
    /// Frames of the queue's data (at the queue's rate) that have played out of the codec since it last
    /// started from stopped.
    public var sampleTime: Int64
    /// The device timeline's played frames at the reading.
    public var deviceFrame: Int64
    /// The monotonic time at which `deviceFrame` played.
    public var hostTime: Timestamp

    public init(sampleTime: Int64, deviceFrame: Int64, hostTime: Timestamp) {
        self.sampleTime = sampleTime
        self.deviceFrame = deviceFrame
        self.hostTime = hostTime
    }
}
