import HAL

/// A codec recipe that failed on I2C after its retries (a NACK, EIO) stopped between two writes: the chip may
/// hold half of it (one channel at the new volume, an output powered with its mute still set). Such a chip is
/// never left as it is. It is brought up again as at start (the board's reset, clocks and power-up) with
/// everything the user set put back, which is the full target state; when that fails too it is left at its
/// reset values, which the datasheets define as outputs off and muted (WM8960 datasheet rev 4.4, register map:
/// R25/R26/R47 power management 0x000, R5 DACMU set; linux sound/soc/codecs/wm8960.c `wm8960_reg_defaults`),
/// silent until the next start; and when even the reset is not acknowledged, the chip is unreachable.
extension AudioController {
    /// What happened to the codec after `error`, for the `ERR` or `EVENT error` line that reports it. Errors
    /// that never reached the bus (an unsupported output, a NaN) change nothing on the chip and pass through.
    func recover(after error: CodecError) -> String {
        guard case .transferFailed = error, !isRecovering else { return "\(error)" }
        isRecovering = true
        defer { isRecovering = false }
        if let bringUp = hooks.bringUpCodec {
            if let problem = bringUp() {
                return leaveReset(after: error, because: "bringing it up again failed: \(problem)")
            }
            if let problem = putBackUserState() {
                return leaveReset(after: error, because: "restoring the route, volume, EQ and input failed: \(problem)")
            }
            hooks.countFault(.codecRecovered)
            return "\(error); the codec was reset and brought back up as it was"
        }
        return leaveReset(after: error, because: "this board cannot bring it up again while running")
    }

    /// Output, volume (and mute), EQ and input as the user left them, on a codec just brought up.
    /// Returns what failed, nil when all is back.
    private func putBackUserState() -> String? {
        do throws(CodecError) {
            try codec.select(output: policy.output)
            try applyVolume(policy.output, dB: policy.level)
            try applyPreset(preset)
        } catch {
            return "\(error)"
        }
        forgetSelectedInput()
        return syncInput().first
    }

    /// Reset values (outputs off and muted), or unreachable; counted either way.
    private func leaveReset(after failure: CodecError, because reason: String) -> String {
        hooks.countFault(.codecFailed)
        hooks.setFineGain(.zero)
        do throws(CodecError) {
            try codec.reset()
        } catch {
            return "\(failure); \(reason); the codec does not answer its reset either (\(error)): no sound until it is repaired"
        }
        return "\(failure); \(reason); the codec is left reset (outputs off and muted) until the appliance restarts"
    }
}
