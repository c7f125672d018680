/// The simulated twin of a chip's control port: a `RegisterBus` whose chip holds registers, answers the
/// same wire transfers the hardware would (decoding the bytes as the chip does), and records every
/// transfer in order, for tests to compare with a golden trace.
///
/// It is the one `RegisterTransferEngine` (the same validation, encoding, retries and errors as
/// `I2CRegisterBus`) driving a `SimulatedChip` as its wire transport instead of i2c-dev. Without a
/// `RegisterMap` every register of the layout exists, reads and writes, and resets to 0 (like i2c-stub). With one, the chip refuses what its datasheet forbids:
/// - a register not in the map, a write to a read-only register, a read of a write-only register, or a
///   value with bits above the register's width throw `I2CError.rejectedByRegisterMap` at once, without
///   retries, and leave the registers unchanged. Real chips differ here (most NACK an unknown register,
///   many ignore such writes silently, a write-only register reads back garbage); in a test each of these
///   is a driver bug, so the twin names it instead of imitating one of those behaviours.
/// - a block read must cover registers that exist and are readable, like single reads.
///
/// Failures can be injected to exercise retries: the next N transfers, or transfers touching a register,
/// fail with a missing acknowledge (EREMOTEIO, what the Raspberry Pi's controller reports) or another errno.
/// Time spent in retry delays passes on `retry.clock`, simulated time by default.
public final class SimulatedRegisterBus: RegisterBus, @unchecked Sendable {
    public let target: I2CTarget
    public let retry: I2CRetryPolicy
    private let engine: RegisterTransferEngine

    /// Transfers tried again after a transient failure (NACK, bus error) since the bus was opened.
    public var retryCount: Int { engine.retries.value }
    /// The chip the engine's transfers reach.
    private let chip: SimulatedChip

    /// A chip at `address` on bus `bus` (only named in errors). `retry` defaults to 3 tries 2 ms apart on
    /// simulated time. A paged chip's `behavior` may store registers beyond the wire's address range.
    public init(bus: Int = 1, address: I2CAddress, layout: RegisterLayout, registerMap: RegisterMap? = nil,
                behavior: (any SimulatedChipBehavior)? = nil, retry: I2CRetryPolicy? = nil) {
        if let registerMap {
            for definition in registerMap.definitions.values {
                precondition((behavior != nil || definition.address <= layout.maxRegister)
                             && definition.width <= layout.valueBits,
                             "register \(I2CHex.register(definition.address)) does not fit the \(layout) layout")
            }
        }
        target = I2CTarget(bus: bus, address: address)
        self.retry = retry ?? I2CRetryPolicy(clock: ManualClock(skipsSleeps: true))
        engine = RegisterTransferEngine(target: target, layout: layout, retry: self.retry)
        chip = SimulatedChip(layout: layout, registerMap: registerMap, behavior: behavior)
    }

    public var layout: RegisterLayout { chip.layout }
    public var registerMap: RegisterMap? { chip.registerMap }
    /// What the chip does on a write beyond storing it (soft reset, paging), if anything.
    public var behavior: (any SimulatedChipBehavior)? { chip.behavior }

    public func perform(_ transfer: RegisterTransfer) throws(I2CError) -> RegisterBusReply {
        try engine.perform(transfer, on: chip)
    }

    // MARK: The trace

    /// Every transfer since creation (or `clearTrace()`), in order, with its outcome as the chip saw it;
    /// retries appear as separate events.
    public var trace: [RegisterBusEvent] { chip.trace }

    /// The same transfers as bytes on the wire.
    public var wireTrace: [I2CWireTransfer] { chip.wireTrace }

    public func clearTrace() { chip.clearTrace() }

    /// One line per transfer: the event, then the bytes in `i2ctransfer` notation.
    /// `write 0x0F = 0x000      w2@0x1a 0x1e 0x00`
    public var traceDescription: String {
        chip.tracePairs.map { event, bytes in
            let text = event.description(in: layout)
            let padding = String(repeating: " ", count: max(2, 24 - text.count))
            return text + padding + bytes.description(address: target.address)
        }.joined(separator: "\n")
    }

    // MARK: The chip's side

    /// A register's current value as the chip holds it (no transfer; nil if it does not exist).
    public func registerValue(_ register: RegisterAddress) -> RegisterValue? { chip.registerValue(register) }

    /// The chip changes a register by itself (a status bit, jack detect), with no transfer.
    public func setRegister(_ register: RegisterAddress, _ value: RegisterValue) {
        precondition(register <= layout.maxRegister && value <= layout.maxValue)
        chip.setRegister(register, value)
    }

    /// Power-on or soft reset: every register back to its reset value.
    public func resetRegisters() { chip.resetRegisters() }

    /// The next `count` transfers fail with `error` (a missing acknowledge by default).
    public func failNextTransfers(_ count: Int, with error: Errno = .remoteIO) {
        chip.failNextTransfers(count, with: error)
    }

    /// The next `count` transfers touching `register` fail with `error` (all of them by default).
    public func failTransfers(to register: RegisterAddress, count: Int = .max, with error: Errno = .remoteIO) {
        chip.failTransfers(to: register, count: count, with: error)
    }

    /// Stops every injected failure.
    public func clearFailures() { chip.clearFailures() }
}
