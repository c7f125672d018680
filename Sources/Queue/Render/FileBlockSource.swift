import Codec8_24

/// A block of decoded file frames offered to the render engine as a `RenderSource`: the file renderer maps
/// each block's channels into `frames`, then pulls the engine (manual rendering), which takes them from here.
final class FileBlockSource: RenderSource {
    let renderChannels: Int
    /// `maximumFrames × renderChannels` interleaved 8.24 samples, written by the file renderer.
    let frames: UnsafeMutablePointer<Fixed824>
    let maximumFrames: Int

    init(channels: Int, maximumFrames: Int) {
        renderChannels = channels
        self.maximumFrames = maximumFrames
        frames = .allocate(capacity: channels * maximumFrames)
        frames.initialize(repeating: .zero, count: channels * maximumFrames)
    }

    deinit { frames.deallocate() }

    func prepare(engineRate: Int, maximumFrames: Int) throws {
        precondition(maximumFrames <= self.maximumFrames, "the engine renders larger blocks than the file renderer reads")
    }

    func render(frames count: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        buffer.update(from: frames, count: count * renderChannels)
        return true
    }
}
