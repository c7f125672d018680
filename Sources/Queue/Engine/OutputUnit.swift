import Codec8_24
import HAL
import Synchronization

/// The output unit's render, shared by the render thread and manual rendering: take the control thread's
/// attach/detach commands, pull every attached source into its mixer input, run the output chain.
///
/// Slot k is mixer input k: the first `stereoInputs` inputs are stereo, the rest mono, fixed when the chain
/// is made. An input is disabled (and not pulled) while its slot is free; attaching enables it, which fades it
/// in over the mixer's ramp; detaching disables it, which fades it out, and the source is pulled until the
/// fade is over, then the slot goes back to the control thread.
///
/// Everything here is preallocated; `render` never allocates, locks or makes a system call (the real-time
/// probe test proves it).
final class OutputUnit {
    let chain: OutputChain
    let sources: EngineSlots<any RenderSource>
    let inputChannels: [Int]
    /// Channels of the chain's output (the device's, or the manual render's).
    let outputChannels: Int
    /// Render thread only: whether slot k is in use, and whether it is fading out to be released.
    private let inUse: UnsafeMutablePointer<Bool>
    private let leaving: UnsafeMutablePointer<Bool>
    private let slotCount: Int
    /// The codec volume's 8.24 remainder, raw, as the control thread last set it; the render side takes it
    /// into the chain at its next period (`OutputChain.take(fineGain:)` ramps it).
    let requestedFineGain = Atomic<Int32>(Fixed824.one.raw)
    private var appliedFineGain = Fixed824.one.raw

    init(chain: OutputChain, inputChannels: [Int], outputChannels: Int) {
        self.chain = chain
        self.outputChannels = outputChannels
        self.inputChannels = inputChannels
        slotCount = inputChannels.count
        sources = EngineSlots(capacity: slotCount)
        inUse = .allocate(capacity: slotCount)
        inUse.initialize(repeating: false, count: slotCount)
        leaving = .allocate(capacity: slotCount)
        leaving.initialize(repeating: false, count: slotCount)
        // Every input starts disabled and silent (a zero-length fade), so nothing is pulled until attached.
        let fade = chain.mixer.rampFrames
        chain.mixer.rampFrames = 0
        for input in 0..<slotCount { chain.mixer.setEnabled(false, input: input) }
        chain.mixer.rampFrames = fade
    }

    deinit {
        inUse.deallocate()
        leaving.deallocate()
    }

    /// Render thread: commands, then every attached source into its mixer input.
    @inline(__always)
    func pull(frames: Int, at time: RenderTime) {
        let mixer = chain.mixer
        let fineGain = requestedFineGain.load(ordering: .relaxed)
        if fineGain != appliedFineGain {
            appliedFineGain = fineGain
            chain.take(fineGain: Fixed824(raw: fineGain))
        }
        while let command = sources.nextCommand() {
            switch command {
            case let .attach(slot):
                inUse[slot] = true
                leaving[slot] = false
                enable(slot)
            case let .detach(slot):
                leaving[slot] = true
                mixer.setEnabled(false, input: slot)
            }
        }
        for slot in 0..<slotCount where inUse[slot] {
            if mixer.isPulled(input: slot), let source = sources.object(slot) {
                _ = source.render(frames: frames, into: mixer.inputBuffer(slot).baseAddress!, at: time)
            }
            if leaving[slot] && !mixer.isPulled(input: slot) {
                inUse[slot] = false
                leaving[slot] = false
                sources.didRelease(slot)
            }
        }
    }

    /// Fades the input in, except before the chain's first frame, where there is nothing to click against
    /// (so a manual render of a file starts with its first sample intact).
    @inline(__always)
    private func enable(_ slot: Int) {
        let mixer = chain.mixer
        if chain.framesRendered == 0 {
            let fade = mixer.rampFrames
            mixer.rampFrames = 0
            mixer.setEnabled(true, input: slot)
            mixer.rampFrames = fade
        } else {
            mixer.setEnabled(true, input: slot)
        }
    }

    /// Render thread: one period into `bytes` in the device's `format` (`frames × chain output channels`).
    @inline(__always)
    func render(frames: Int, at time: RenderTime, into bytes: UnsafeMutableRawPointer, format: PCMSampleFormat) {
        pull(frames: frames, at: time)
        let count = frames * outputChannels
        switch format {
        case .s16LE: chain.render(frames: frames, into: bytes.bindMemory(to: Int16.self, capacity: count))
        case .s24LE: chain.render(frames: frames, into: bytes.bindMemory(to: Int24In32.self, capacity: count))
        case .s32LE: chain.render(frames: frames, into: bytes.bindMemory(to: Int32.self, capacity: count))
        case .float32LE: chain.render(frames: frames, into: bytes.bindMemory(to: Float.self, capacity: count))
        }
    }

    /// Control thread, no render thread running: carries out pending commands at once (a detach needs no
    /// fade when nothing plays) and hands every released slot back.
    func settle() {
        let mixer = chain.mixer
        let fade = mixer.rampFrames
        mixer.rampFrames = 0
        defer { mixer.rampFrames = fade }
        while let command = sources.nextCommand() {
            switch command {
            case let .attach(slot):
                inUse[slot] = true
                leaving[slot] = false
                mixer.setEnabled(true, input: slot)
            case let .detach(slot):
                inUse[slot] = false
                leaving[slot] = false
                mixer.setEnabled(false, input: slot)
                sources.didRelease(slot)
            }
        }
        for slot in 0..<slotCount where leaving[slot] {
            inUse[slot] = false
            leaving[slot] = false
            mixer.setEnabled(false, input: slot)
            sources.didRelease(slot)
        }
        sources.reclaim()
    }
}
