import HAL

/// Which clock a board's timed parts run on.
public enum BoardTiming: Sendable {
    /// The running appliance: hardware on the system clock. The simulated board's GPIO lines run on a
    /// `ManualClock` that starts at the system clock's time and that `SimulatedClockPump` brings up to it
    /// on every control-loop turn, so debouncing and gestures keep real-time pace; simulated PCMs run on the
    /// system clock, as a sound card would.
    case realTime
    /// Tests: every simulated part on this clock, moved only by the test (`SimulatedGPIO.advance`), so a
    /// 400 ms hold takes no 400 ms and gives the same answer every time.
    case manual(ManualClock)
}
