/// Why a take (or the whole recording) ended.
enum RecordingEndReason: String, Hashable, Sendable {
    /// `stop`, the record button, shutdown.
    case requested
    /// `record --seconds N` reached N.
    case limit
    /// Free space fell below the threshold.
    case diskFull = "disk-full"
    /// Voice activation: quiet for the hang time (the recorder re-arms).
    case silence
}

/// What `RecorderState` tells the recording service to do with the frames of a block, in order: each
/// frame-carrying action consumes the next frames of the block, so together they cover it exactly once.
enum RecorderAction: Hashable, Sendable {
    /// Armed: keep these frames in the pre-roll ring.
    case keepForPreRoll(frames: Int)
    /// Begin a take: open its file(s) and write the ring's last `preRollFrames` frames first.
    case openTake(preRollFrames: Int)
    /// Append these frames to the open file(s).
    case write(frames: Int)
    /// Close the file(s) and open the next of the same take; the next frame goes there.
    case split
    /// Finalize the open file(s).
    case closeTake(RecordingEndReason)
    /// Frames nobody records (after the end).
    case drop(frames: Int)
    /// The capture should end: the service stops the input queue.
    case endCapture(RecordingEndReason)
    /// Voice activation is waiting for the level to cross the threshold.
    case voxArmed
    /// The level crossed it: the take begins.
    case voxTriggered
}
