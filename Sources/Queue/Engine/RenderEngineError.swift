import Codec8_24
import HAL

/// Why the engine refused a call: one case per caller mistake or device failure, each saying what to do.
public enum RenderEngineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Every mixer input of that width is taken.
    case noFreeInput(channels: Int, inputs: Int)
    /// Every capture slot is taken.
    case noFreeSink(slots: Int)
    /// The object is attached already.
    case alreadyAttached
    /// The object was detached and the render thread is still fading it out.
    case stillDetaching
    /// A source asked for a width the mixer has no inputs for (1 or 2).
    case unsupportedChannels(Int)
    /// A source or sink refused to prepare for the engine's rate and period (its own error, as text).
    case prepareFailed(reason: String)
    /// The call does not fit the engine's mode or state.
    case wrongState(operation: String, state: String)
    /// A manual render asked for more frames than the engine prepared for.
    case tooManyFrames(requested: Int, maximum: Int)
    /// The chain cannot be built as configured.
    case chain(OutputChainError)
    /// The device refused or failed.
    case device(PCMError)
    /// No render thread could be started.
    case thread(SystemError)

    public var description: String {
        switch self {
        case let .noFreeInput(channels, inputs):
            "all \(inputs) \(channels == 1 ? "mono" : "stereo") mixer inputs are in use; detach a source first "
                + "or make the engine with more (RenderEngine.Configuration)"
        case let .noFreeSink(slots):
            "all \(slots) capture slots are in use; detach a sink first"
        case .alreadyAttached:
            "this object is attached to the engine already"
        case .stillDetaching:
            "this object is still fading out after its detach; attach it again after the next period"
        case let .unsupportedChannels(channels):
            "a render source has 1 or 2 channels, not \(channels)"
        case let .prepareFailed(reason):
            "the source or sink could not prepare for the engine: \(reason)"
        case let .wrongState(operation, state):
            "cannot \(operation) while the engine is \(state)"
        case let .tooManyFrames(requested, maximum):
            "cannot render \(requested) frames at once: the engine was made for at most \(maximum)"
        case let .chain(error):
            "cannot build the output chain: \(error)"
        case let .device(error):
            "\(error)"
        case let .thread(error):
            "cannot start a render thread: \(error.reason)"
        }
    }
}

extension RenderEngineError {
    /// The engine's word for a slot table's refusal to attach.
    init(_ refusal: SlotAttachResult) {
        self = refusal == .stillReleasing ? .stillDetaching : .alreadyAttached
    }
}
