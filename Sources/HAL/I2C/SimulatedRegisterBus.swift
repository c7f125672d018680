/// The simulated twin of a chip's control port: a `RegisterBus` whose chip holds registers, answers the
/// same wire transfers the hardware would (decoding the bytes as the chip does), and records every
/// transfer in order, for tests to compare with a golden trace.
///
/// It goes through the same validation, encoding, retries and errors as `I2CRegisterBus`; only the
/// transport is a model. Without a `RegisterMap` every register of the layout exists, reads and writes,
/// and resets to 0 (like i2c-stub). With one, the chip refuses what its datasheet forbids:
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
public final class SimulatedRegisterBus: RegisterBus, I2CTransport, @unchecked Sendable {
    public let target: I2CTarget
    public let layout: RegisterLayout
    public let registerMap: RegisterMap?
    public let retry: I2CRetryPolicy
    /// What the chip does on a write beyond storing it (soft reset, paging), if anything.
    public let behavior: (any SimulatedChipBehavior)?
    private let engine: RegisterTransferEngine
    private let condition = Condition()

    // Guarded by `condition`.
    private var registers: [RegisterAddress: RegisterValue] = [:]
    private var events: [RegisterBusEvent] = []
    private var wire: [I2CWireTransfer] = []
    private var failNext: (count: Int, error: Errno) = (0, .remoteIO)
    private var failingRegisters: [RegisterAddress: (count: Int, error: Errno)] = [:]

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
        self.layout = layout
        self.registerMap = registerMap
        self.behavior = behavior
        self.retry = retry ?? I2CRetryPolicy(clock: ManualClock(skipsSleeps: true))
        engine = RegisterTransferEngine(target: target, layout: layout, retry: self.retry)
        registers = registerMap?.resetValues ?? [:]
    }

    // MARK: RegisterBus

    public func perform(_ transfer: RegisterTransfer) throws(I2CError) -> RegisterBusReply {
        try engine.perform(transfer, on: self)
    }

    // MARK: The trace

    /// Every transfer since creation (or `clearTrace()`), in order, with its outcome; retries appear as
    /// separate events.
    public var trace: [RegisterBusEvent] { condition.locked { events } }

    /// How many transfers the trace holds (without copying it).
    public var traceCount: Int { condition.locked { events.count } }

    /// The same transfers as bytes on the wire.
    public var wireTrace: [I2CWireTransfer] { condition.locked { wire } }

    public func clearTrace() {
        condition.locked {
            events.removeAll()
            wire.removeAll()
        }
    }

    /// One line per transfer: the event, then the bytes in `i2ctransfer` notation.
    /// `write 0x0F = 0x000      w2@0x1a 0x1e 0x00`
    public var traceDescription: String {
        condition.locked {
            zip(events, wire).map { event, bytes in
                let text = event.description(in: layout)
                let padding = String(repeating: " ", count: max(2, 24 - text.count))
                return text + padding + bytes.description(address: target.address)
            }.joined(separator: "\n")
        }
    }

    // MARK: The chip's side

    /// A register's current value as the chip holds it (no transfer; nil if it does not exist).
    public func registerValue(_ register: RegisterAddress) -> RegisterValue? {
        condition.locked { registers[register] ?? (registerMap == nil && register <= layout.maxRegister ? 0 : nil) }
    }

    /// The chip changes a register by itself (a status bit, jack detect), with no transfer.
    public func setRegister(_ register: RegisterAddress, _ value: RegisterValue) {
        precondition(register <= layout.maxRegister && value <= layout.maxValue)
        condition.locked { registers[register] = value }
    }

    /// Power-on or soft reset: every register back to its reset value.
    public func resetRegisters() {
        condition.locked { registers = registerMap?.resetValues ?? [:] }
    }

    /// The next `count` transfers fail with `error` (a missing acknowledge by default).
    public func failNextTransfers(_ count: Int, with error: Errno = .remoteIO) {
        condition.locked { failNext = (count, error) }
    }

    /// The next `count` transfers touching `register` fail with `error` (all of them by default).
    public func failTransfers(to register: RegisterAddress, count: Int = .max, with error: Errno = .remoteIO) {
        condition.locked { failingRegisters[register] = (count, error) }
    }

    /// Stops every injected failure.
    public func clearFailures() {
        condition.locked {
            failNext = (0, .remoteIO)
            failingRegisters.removeAll()
        }
    }

    // MARK: Transport: the chip model

    func perform(_ transfer: I2CWireTransfer) throws(I2CTransportFailure) -> [UInt8] {
        guard let wireRequest = layout.decode(transfer) else {
            preconditionFailure("the \(layout) layout never sends \(transfer)")
        }
        let outcome: Result<[UInt8], I2CTransportFailure> = condition.locked {
            wire.append(transfer)
            let request = storageRequest(for: wireRequest)
            if let error = injectedFailure(for: request) {
                events.append(.failed(request, error))
                return .failure(.bus(error))
            }
            if let violation = violation(of: request) {
                events.append(.rejected(request, violation))
                return .failure(.registerMap(violation))
            }
            switch request {
            case .write(let reg, let value):
                registers[reg] = value
                behavior?.didWrite(reg, value, registers: &registers, resetValues: registerMap?.resetValues ?? [:])
                events.append(.write(reg: reg, value: value))
                return .success([])
            case .read(let reg):
                let value = registers[reg] ?? 0
                events.append(.read(reg: reg, value: value))
                return .success(layout.readBytes(of: value))
            case .readBlock(let reg, let count):
                let bytes = (0..<count).map { UInt8(truncatingIfNeeded: registers[reg + RegisterAddress($0)] ?? 0) }
                events.append(.readBlock(reg: reg, bytes: bytes))
                return .success(bytes)
            }
        }
        return try outcome.get()
    }

    /// The request with its register translated to where the chip stores it (a paged chip's current page).
    /// Under the lock.
    private func storageRequest(for request: RegisterTransfer) -> RegisterTransfer {
        guard let behavior else { return request }
        switch request {
        case .write(let reg, let value):
            return .write(reg: behavior.storageAddress(of: reg, registers: registers), value: value)
        case .read(let reg):
            return .read(reg: behavior.storageAddress(of: reg, registers: registers))
        case .readBlock(let reg, let count):
            return .readBlock(reg: behavior.storageAddress(of: reg, registers: registers), count: count)
        }
    }

    /// An injected failure for this transfer, counting it down. Under the lock.
    private func injectedFailure(for request: RegisterTransfer) -> Errno? {
        if failNext.count > 0 {
            failNext.count -= 1
            return failNext.error
        }
        for register in request.registers {
            let address = RegisterAddress(register)
            guard let failure = failingRegisters[address], failure.count > 0 else { continue }
            failingRegisters[address]?.count = failure.count == .max ? .max : failure.count - 1
            return failure.error
        }
        return nil
    }

    /// What the register map forbids about this transfer, if anything.
    private func violation(of request: RegisterTransfer) -> RegisterMapViolation? {
        guard let registerMap else { return nil }
        switch request {
        case .write(let reg, let value):
            guard let definition = registerMap[reg] else { return .noSuchRegister(reg) }
            if definition.access == .readOnly { return .readOnly(reg) }
            if value >> definition.width != 0 { return .valueTooWide(reg, width: definition.width) }
            return nil
        case .read, .readBlock:
            for register in request.registers {
                let address = RegisterAddress(register)
                guard let definition = registerMap[address] else { return .noSuchRegister(address) }
                if definition.access == .writeOnly { return .writeOnly(address) }
            }
            return nil
        }
    }
}
