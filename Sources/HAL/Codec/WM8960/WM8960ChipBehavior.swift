/// What the simulated WM8960 does beyond storing words: R15 is a soft reset, and its PLL needs time to lock.
/// The datasheet gives no lock time; the kernel waits 250 ms between powering the PLL and switching SYSCLK
/// to it (sound/soc/codecs/wm8960.c `wm8960_set_pll`), so the twin counts a switch sooner than that (on the
/// driver's clock) as SYSCLK running from an unlocked PLL, until CLKSEL goes back to MCLK.
struct WM8960ChipBehavior: SimulatedChipBehavior {
    let clock: (any MonotonicClock)?
    let pll = PLLLock()

    /// When the PLL was powered, and whether SYSCLK switched to it before it locked.
    final class PLLLock: @unchecked Sendable {
        private let condition = Condition()
        private var poweredAt: Timestamp?
        private var switchedUnlocked = false

        var sysclkFromUnlockedPLL: Bool { condition.locked { switchedUnlocked } }

        func reset() { condition.locked { poweredAt = nil; switchedUnlocked = false } }

        /// PLL_EN written: remembers when it went on (only with a clock to tell the time by).
        func powered(_ on: Bool, at now: Timestamp?) {
            condition.locked {
                if !on { poweredAt = nil } else if poweredAt == nil { poweredAt = now }
            }
        }

        /// CLKSEL written: a switch to the PLL sooner than the lock time after PLL_EN is a switch to an
        /// unlocked PLL; a switch back to MCLK clears it.
        func sysclkFromPLL(_ fromPLL: Bool, at now: Timestamp?) {
            condition.locked {
                guard fromPLL else { switchedUnlocked = false; return }
                if let poweredAt, let now, now - poweredAt < WM8960.pllLockDelay { switchedUnlocked = true }
            }
        }
    }

    func didWrite(_ register: RegisterAddress, _ value: RegisterValue,
                  registers: inout [RegisterAddress: RegisterValue], resetValues: [RegisterAddress: RegisterValue]) {
        switch register {
        case WM8960Register.reset:
            registers = resetValues
            pll.reset()
        case WM8960Register.power2:
            pll.powered(value & WM8960Bits.pllEnable != 0, at: clock?.now)
        case WM8960Register.clocking1:
            pll.sysclkFromPLL(value & WM8960Bits.sysclkFromPLL != 0, at: clock?.now)
        default:
            break
        }
    }
}
