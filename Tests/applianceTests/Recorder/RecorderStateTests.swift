import HAL
import TestSupport
import Testing
@testable import appliance

/// RecorderState driven block by block with levels and time passed in. Expected frame counts are closed
/// form: N seconds at R Hz are N·R frames; a split every S frames puts frame k in file floor(k / S).
@Suite("Recorder state")
struct RecorderStateTests {
    static let rate = 48_000.0
    static func plan(_ change: (inout RecorderPlan) -> Void = { _ in }) -> RecorderPlan {
        var plan = RecorderPlan(sampleRate: rate, bytesPerFrame: 6)   // 24-bit stereo: 3 bytes × 2 channels
        change(&plan)
        return plan
    }

    /// Sums the frames each action routes, and checks that together they cover the block exactly once.
    static func routed(_ actions: [RecorderAction]) -> (kept: Int, written: Int, dropped: Int) {
        var kept = 0, written = 0, dropped = 0
        for action in actions {
            switch action {
            case .keepForPreRoll(let n): kept += n
            case .write(let n): written += n
            case .drop(let n): dropped += n
            default: break
            }
        }
        return (kept, written, dropped)
    }

    @Test func aPlainStartWritesEveryFrameFromTheFirstAndStopKeepsTheTail() throws {
        var state = RecorderState()
        #expect(try state.start(Self.plan(), availableBytes: 1 << 30, now: .zero).isEmpty)
        let first = state.captured(frames: 480, peakDB: -20)
        #expect(first == [.openTake(preRollFrames: 0), .write(frames: 480)])
        #expect(state.phase == .recording)
        #expect(state.stop() == [.endCapture(.requested)])
        // Frames captured before the stop reached the queue's end are still written (no frame lost).
        #expect(state.captured(frames: 100, peakDB: -20) == [.write(frames: 100)])
        #expect(state.captureEnded() == [.closeTake(.requested)])
        #expect(state.phase == .idle)
    }

    @Test func secondsLimitEndsAtExactlyNTimesTheRate() throws {
        var state = RecorderState()
        _ = try state.start(Self.plan { $0.limitSeconds = 3 }, availableBytes: 1 << 30, now: .zero)
        var written = 0
        var ended: [RecorderAction] = []
        // 1000-frame blocks: 3 s × 48,000 Hz = 144,000 frames, the last inside block 144 exactly at its end.
        for _ in 0..<150 {
            let actions = state.captured(frames: 1000, peakDB: -6)
            written += Self.routed(actions).written
            ended += actions.filter { if case .endCapture = $0 { true } else { false } }
        }
        #expect(written == 144_000)
        #expect(ended == [.endCapture(.limit)])
        // A limit that falls inside a block: 0.01 s = 480 frames of a 1000-frame block, the rest dropped.
        var short = RecorderState()
        _ = try short.start(Self.plan { $0.limitSeconds = 0.01 }, availableBytes: 1 << 30, now: .zero)
        let actions = short.captured(frames: 1000, peakDB: -6)
        #expect(actions == [.openTake(preRollFrames: 0), .write(frames: 480), .closeTake(.limit), .endCapture(.limit),
                            .drop(frames: 520)])
    }

    @Test func splitsByDurationAtTheExactFrameAndOnlyWhenAFrameFollows() throws {
        var state = RecorderState()
        // 0.5 s = 24,000 frames per file; blocks of 7,000 frames cross the boundary mid-block.
        _ = try state.start(Self.plan { $0.splitSeconds = 0.5 }, availableBytes: 1 << 30, now: .zero)
        var files = [0]
        for _ in 0..<10 {
            for action in state.captured(frames: 7_000, peakDB: -6) {
                switch action {
                case .split: files.append(0)
                case .write(let n): files[files.count - 1] += n
                default: break
                }
            }
        }
        // 70,000 frames: two full files of 24,000 and the rest, 22,000.
        #expect(files == [24_000, 24_000, 22_000])
        // Exactly at a boundary with nothing after it: no empty next file.
        var exact = RecorderState()
        _ = try exact.start(Self.plan { $0.splitSeconds = 0.5 }, availableBytes: 1 << 30, now: .zero)
        _ = exact.captured(frames: 24_000, peakDB: -6)
        _ = exact.stop()
        #expect(exact.captureEnded() == [.closeTake(.requested)])
    }

    @Test func splitsBySizeInWholeFrames() throws {
        // 1,000,000 bytes of 6-byte frames hold floor(1e6 / 6) = 166,666 frames.
        #expect(Self.plan { $0.splitBytes = 1_000_000 }.splitFrames == 166_666)
        // Both given: the smaller wins (0.5 s = 24,000 frames < 166,666).
        #expect(Self.plan { $0.splitBytes = 1_000_000; $0.splitSeconds = 0.5 }.splitFrames == 24_000)
    }

    @Test func voiceActivationWaitsTriggersKeepsPreRollAndEndsAfterTheHangTime() throws {
        var state = RecorderState()
        let plan = Self.plan {
            $0.voxThresholdDB = -30
            $0.voxHangSeconds = 0.1     // 4,800 frames
            $0.preRollSeconds = 0.02    // 960 frames
        }
        #expect(try state.start(plan, availableBytes: 1 << 30, now: .zero) == [.voxArmed])
        // Quiet: kept for the pre-roll, nothing written.
        #expect(state.captured(frames: 480, peakDB: -50) == [.keepForPreRoll(frames: 480)])
        #expect(state.captured(frames: 480, peakDB: -50) == [.keepForPreRoll(frames: 480)])
        #expect(state.captured(frames: 480, peakDB: -50) == [.keepForPreRoll(frames: 480)])
        #expect(state.phase == .armed)
        // At the threshold (>= -30): triggered, the take opens with the ring's 960 frames, then this block.
        #expect(state.captured(frames: 480, peakDB: -30) == [.voxTriggered, .openTake(preRollFrames: 960), .write(frames: 480)])
        // Quiet for less than the hang time: still recording. 9 blocks × 480 = 4,320 < 4,800.
        for _ in 0..<9 { #expect(!state.captured(frames: 480, peakDB: -40).contains(.closeTake(.silence))) }
        #expect(state.phase == .recording)
        // The 10th quiet block reaches 4,800: the take ends and the recorder re-arms.
        #expect(state.captured(frames: 480, peakDB: -40) == [.write(frames: 480), .closeTake(.silence), .voxArmed])
        #expect(state.phase == .armed)
        // A loud block in the middle of the quiet resets the hang count.
        _ = state.captured(frames: 480, peakDB: -10)
        for _ in 0..<9 { _ = state.captured(frames: 480, peakDB: -40) }
        _ = state.captured(frames: 480, peakDB: -10)
        for _ in 0..<9 { _ = state.captured(frames: 480, peakDB: -40) }
        #expect(state.phase == .recording)
    }

    @Test func aPressDuringPreRollStandbyBeginsAtThePressFrame() throws {
        var state = RecorderState()
        let plan = Self.plan { $0.preRollSeconds = 0.02 }   // 960 frames
        try state.standBy(plan)
        _ = state.captured(frames: 2_000, peakDB: -20)
        // Pressed at capture frame 2,300: 300 more frames go to the ring, then the take begins with the
        // ring's newest 960 (frames 1,340..<2,300) and writes from 2,300 on.
        #expect(try state.start(plan, availableBytes: 1 << 30, now: .zero, pressFrame: 2_300).isEmpty)
        #expect(state.captured(frames: 1_000, peakDB: -20)
                == [.keepForPreRoll(frames: 300), .openTake(preRollFrames: 960), .write(frames: 700)])
    }

    /// Regression (CI, stop 27: `mark` at once after `record` answered "not recording" while `status` said
    /// recording): a marker pressed before the writer reaches the press goes at the press frame; with no take
    /// (idle, waiting for the voice, stopping) there is nothing to mark.
    @Test func aMarkBeforeTheFirstBlockGoesAtThePressFrame() throws {
        var state = RecorderState()
        #expect(state.markerFrame(pressedAt: 0) == nil)
        let plan = Self.plan { $0.preRollSeconds = 0.02 }
        try state.standBy(plan)
        _ = state.captured(frames: 2_000, peakDB: -20)
        #expect(state.markerFrame(pressedAt: 2_000) == nil)          // standby: no take yet
        _ = try state.start(plan, availableBytes: 1 << 30, now: .zero, pressFrame: 2_300)
        #expect(state.markerFrame(pressedAt: 2_100) == 2_300)        // pending: not before the take's start
        #expect(state.markerFrame(pressedAt: 2_500) == 2_500)
        _ = state.captured(frames: 1_000, peakDB: -20)
        #expect(state.phase == .recording)
        #expect(state.markerFrame(pressedAt: 3_100) == 3_100)
        _ = state.stop()
        #expect(state.markerFrame(pressedAt: 3_200) == nil)

        var vox = RecorderState()
        _ = try vox.start(Self.plan { $0.voxThresholdDB = -30 }, availableBytes: 1 << 30, now: .zero)
        #expect(vox.markerFrame(pressedAt: 0) == nil)               // waiting for the voice
    }

    /// Regression (RELIABILITY.md section 3): with no threshold set, a disk a take had just filled (ENOSPC)
    /// accepted the next `record`, which its first write stopped again. Now a second of audio must fit:
    /// 48,000 frames × 6 bytes (24-bit stereo, WAVE's block align = channels × bytes per sample) = 288,000.
    @Test func withNoThresholdADiskWithoutASecondOfRoomIsStillFull() throws {
        var state = RecorderState()
        let plan = Self.plan { $0.minimumFreeBytes = 0 }
        try #require(plan.sampleRate == 48_000)
        #expect(throws: RecorderRefusal.full(availableBytes: 287_999, minimumBytes: 288_000)) {
            try state.start(plan, availableBytes: 287_999, now: .zero)
        }
        #expect(RecorderRefusal.full(availableBytes: 4_096, minimumBytes: 288_000).message
                == "only 4 KiB free, below the 281 KiB the recorder keeps; delete recordings (rm) first")
        _ = try state.start(plan, availableBytes: 288_000, now: .zero)
        #expect(state.phase != .idle, "exactly a second of room is enough")
    }

    @Test func refusesBelowTheFreeSpaceThresholdAndStopsWhenSpaceRunsOut() throws {
        var state = RecorderState()
        let plan = Self.plan { $0.minimumFreeBytes = 64 << 20 }
        #expect(throws: RecorderRefusal.full(availableBytes: 10 << 20, minimumBytes: 64 << 20)) {
            try state.start(plan, availableBytes: 10 << 20, now: .zero)
        }
        #expect(state.phase == .idle)
        _ = try state.start(plan, availableBytes: 100 << 20, now: .zero)
        _ = state.captured(frames: 480, peakDB: -20)
        // Checked about once a second: the next check is due 1 s after the start.
        #expect(state.nextSpaceCheck == Timestamp.zero + .seconds(1))
        #expect(state.checkSpace(availableBytes: 80 << 20, now: .zero + .seconds(1)).isEmpty)
        #expect(state.nextSpaceCheck == Timestamp.zero + .seconds(2))
        #expect(state.checkSpace(availableBytes: 60 << 20, now: .zero + .seconds(2)) == [.endCapture(.diskFull)])
        #expect(state.phase == .stopping)
        // What is still delivered is not written; the take is finalized at the end of the capture.
        #expect(state.captured(frames: 480, peakDB: -20) == [.drop(frames: 480)])
        #expect(state.captureEnded() == [.closeTake(.diskFull)])
    }

    @Test func wrongCallsAreRefusedWithAReason() throws {
        var state = RecorderState()
        _ = try state.start(Self.plan(), availableBytes: 1 << 30, now: .zero)
        _ = state.captured(frames: 10, peakDB: -20)
        #expect(throws: RecorderRefusal.busy(.recording)) { try state.start(Self.plan(), availableBytes: 1 << 30, now: .zero) }
        var fresh = RecorderState()
        #expect(throws: RecorderRefusal.self) { try fresh.start(Self.plan { $0.limitSeconds = 0 }, availableBytes: 1 << 30, now: .zero) }
        #expect(fresh.stop().isEmpty)
    }
}
