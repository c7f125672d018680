import CALSA
import Testing
@testable import HAL

/// The capture gap after an overrun, from one status reading. The kernel stamps `trigger_tstamp` when it
/// stops a stream on an xrun (sound/core/pcm_native.c snd_pcm_trigger_tstamp, called from snd_pcm_stop via
/// snd_pcm_post_stop), on the stream's tstamp clock; the gap is that stop to the reading, times the rate.
struct ALSAStatusTests {
    @Test func theGapIsTheStoppedTimeAtTheRate() {
        let status = ALSAStatus(state: SND_PCM_STATE_XRUN, available: 4096,
                                time: Timestamp(nanoseconds: 11_500_000_000),
                                triggerTime: Timestamp(nanoseconds: 10_000_000_000))
        #expect(status.framesMissedWhileStopped(rate: 48_000) == 72_000)   // 1.5 s at 48 kHz
        #expect(status.framesMissedWhileStopped(rate: 44_100) == 66_150)
    }

    /// A plugin that keeps no trigger time reports it as zero: counting from the clock's origin would add
    /// the seconds since boot times the rate (an hour's uptime: 172.8 million frames at 48 kHz).
    @Test func noTriggerTimeCountsNoGap() {
        let status = ALSAStatus(state: SND_PCM_STATE_XRUN, available: 4096,
                                time: Timestamp(nanoseconds: 3_600_000_000_000), triggerTime: .zero)
        #expect(status.framesMissedWhileStopped(rate: 48_000) == 0)
    }

    @Test func aTriggerTimeAfterTheReadingCountsNoGap() {
        let status = ALSAStatus(state: SND_PCM_STATE_XRUN, available: 0,
                                time: Timestamp(nanoseconds: 5_000_000_000),
                                triggerTime: Timestamp(nanoseconds: 6_000_000_000))
        #expect(status.framesMissedWhileStopped(rate: 48_000) == 0)
    }
}
