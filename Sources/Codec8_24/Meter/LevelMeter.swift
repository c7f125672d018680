import RealModule

/// Per-channel peak and average power in dBFS, like an audio queue's level meter (one meter per channel of
/// the stream: two for stereo playback, one for a mono mic).
///
/// The meter works in fixed blocks of `blockFrames` frames, whatever sizes the caller's buffers are: samples
/// are accumulated until a block is complete and the readings change only at block ends. Give it the IO
/// buffer size to meter "per buffer"; and since the blocks do not depend on how the stream is cut, the
/// readings are identical for any buffering of the same stream.
///
/// Per block and channel:
/// - peak: the largest |sample| of the block in dBFS. The reading holds for `peakHold` seconds, then falls
///   at `peakDecay` dB/s (exactly `peakDecay × blockFrames / sampleRate` dB per block), and jumps up to any
///   louder block peak.
/// - average: the block's mean square (RMS as power: 10·log10(mean x²), so a full-scale sine reads
///   −3.01 dBFS), smoothed as power by a one-pole filter with time constant `averageTime`
///   (0: the reading is the block's own power).
/// Both read `floor` (−144 dBFS, about one 8.24 LSB) for silence and never go below it.
///
/// The sample loop is integers only: the peak is a `max` of magnitudes and the sum of squares is exact in
/// 128 bits. Double math (a log per channel) runs once per block. State is allocated at init.
public final class LevelMeter {
    /// A meter's readings for one channel, in dBFS.
    public struct Reading: Sendable, Equatable {
        public var peak: Double
        public var average: Double

        public init(peak: Double, average: Double) {
            self.peak = peak
            self.average = average
        }
    }

    /// The lowest reading: silence.
    public static let floor = Decibels.silenceFloor

    @usableFromInline
    struct ChannelState {
        /// Largest magnitude so far in the current block (raw 8.24).
        @usableFromInline var blockPeak: UInt32 = 0
        /// Sum of squared raw samples in the current block, 128 bits.
        @usableFromInline var squaresLow: UInt64 = 0
        @usableFromInline var squaresHigh: UInt64 = 0
        var peak = LevelMeter.floor
        var holdRemaining = 0
        var power = 0.0
        var average = LevelMeter.floor
    }

    public let channels: Int
    public let sampleRate: Double
    public let blockFrames: Int
    /// Peak fall rate after the hold, dB per second.
    public let peakDecay: Double
    /// Time a new peak is held before it falls, in seconds.
    public let peakHold: Double
    /// Time constant of the average's smoothing, in seconds.
    public let averageTime: Double
    /// Blocks completed since init or `reset()`.
    public private(set) var blocksMeasured = 0

    @usableFromInline let state: UnsafeMutablePointer<ChannelState>
    @usableFromInline var framesInBlock = 0
    let holdFrames: Int
    let decayPerBlock: Double
    let smoothing: Double

    public init(
        channels: Int, sampleRate: Double, blockFrames: Int,
        peakDecay: Double = 20, peakHold: Double = 0, averageTime: Double = 0.3
    ) {
        precondition(channels >= 1 && channels <= 8, "1...8 channels")
        precondition(sampleRate > 0 && blockFrames > 0, "positive rate and block")
        precondition(peakDecay >= 0 && peakHold >= 0 && averageTime >= 0, "non-negative times and rates")
        self.channels = channels
        self.sampleRate = sampleRate
        self.blockFrames = blockFrames
        self.peakDecay = peakDecay
        self.peakHold = peakHold
        self.averageTime = averageTime
        holdFrames = Int((peakHold * sampleRate).rounded())
        decayPerBlock = peakDecay * Double(blockFrames) / sampleRate
        smoothing = averageTime == 0 ? 1 : 1 - Double.exp(-Double(blockFrames) / (sampleRate * averageTime))
        state = .allocate(capacity: channels)
        state.initialize(repeating: ChannelState(), count: channels)
    }

    deinit {
        state.deinitialize(count: channels)
        state.deallocate()
    }

    /// The current readings of `channel` (as of the last completed block).
    public func reading(channel: Int) -> Reading {
        precondition(channel >= 0 && channel < channels, "no such channel")
        return Reading(peak: state[channel].peak, average: state[channel].average)
    }

    /// Back to silence: readings at the floor, partial block discarded.
    public func reset() {
        state.update(repeating: ChannelState(), count: channels)
        framesInBlock = 0
        blocksMeasured = 0
    }

    /// Meters an interleaved buffer of `channels` channels (a whole number of frames).
    public func measure(_ buffer: UnsafeBufferPointer<Fixed824>) {
        precondition(buffer.count % channels == 0, "buffer must hold whole frames")
        guard let base = buffer.baseAddress else { return }
        let frames = buffer.count / channels
        var frame = 0
        while frame < frames {
            let count = Swift.min(blockFrames &- framesInBlock, frames &- frame)
            accumulate(base + frame &* channels, frames: count)
            frame &+= count
            framesInBlock &+= count
            if framesInBlock == blockFrames {
                finishBlock()
                framesInBlock = 0
            }
        }
    }

    @inlinable
    func accumulate(_ start: UnsafePointer<Fixed824>, frames: Int) {
        let stride = channels
        for channel in 0..<stride {
            var peak = state[channel].blockPeak
            var low = state[channel].squaresLow
            var high = state[channel].squaresHigh
            var sample = start + channel
            for _ in 0..<frames {
                let magnitude = sample.pointee.raw.magnitude
                peak = Swift.max(peak, magnitude)
                let (sum, carry) = low.addingReportingOverflow(UInt64(magnitude) &* UInt64(magnitude))
                low = sum
                high &+= carry ? 1 : 0
                sample += stride
            }
            state[channel].blockPeak = peak
            state[channel].squaresLow = low
            state[channel].squaresHigh = high
        }
    }

    /// Turns the block's peak and sum of squares into readings and clears the accumulators.
    func finishBlock() {
        let unitPower = 281_474_976_710_656.0                       // (2^24)^2: full scale squared
        for channel in 0..<channels {
            var channelState = state[channel]
            let blockPeak = Decibels.decibels(Double(channelState.blockPeak) / 16_777_216)
            let squares = Double(channelState.squaresHigh) * 18_446_744_073_709_551_616.0
                + Double(channelState.squaresLow)
            let meanSquare = squares / Double(blockFrames) / unitPower

            let held = Swift.min(channelState.holdRemaining, blockFrames)
            channelState.holdRemaining -= held
            var decayed = channelState.peak
            if held < blockFrames {
                decayed -= decayPerBlock * Double(blockFrames - held) / Double(blockFrames)
            }
            decayed = Swift.max(decayed, Self.floor)
            if blockPeak >= decayed && blockPeak > Self.floor {
                channelState.peak = blockPeak
                channelState.holdRemaining = holdFrames
            } else {
                channelState.peak = decayed
            }

            channelState.power += smoothing * (meanSquare - channelState.power)
            channelState.average = channelState.power > 0
                ? Swift.max(Self.floor, 10 * Double.log10(channelState.power)) : Self.floor

            channelState.blockPeak = 0
            channelState.squaresLow = 0
            channelState.squaresHigh = 0
            state[channel] = channelState
        }
        blocksMeasured += 1
    }
}
