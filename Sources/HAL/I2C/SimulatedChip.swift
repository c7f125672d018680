/// The chip at the far end of a simulated control port: the wire transport `SimulatedRegisterBus` hands to
/// the one `RegisterTransferEngine`, as `I2CRegisterBus` hands it i2c-dev. It decodes each wire transfer
/// as the chip would, holds the registers, does what its `SimulatedChipBehavior` says on a write (soft
/// reset, paging), refuses what its register map forbids, fails transfers on request (a missing
/// acknowledge by default), and records what it saw: the register transfer and its outcome at the chip's
/// own (storage) address, and the bytes on the wire. Validation, encoding, retries and errors stay in the
/// engine.
final class SimulatedChip: I2CTransport, @unchecked Sendable {
    let layout: RegisterLayout
    let registerMap: RegisterMap?
    let behavior: (any SimulatedChipBehavior)?
    private let condition = Condition()

    // Guarded by `condition`.
    private var registers: [RegisterAddress: RegisterValue] = [:]
    private var events: [RegisterBusEvent] = []
    private var wire: [I2CWireTransfer] = []
    private var failNext: (count: Int, error: Errno) = (0, .remoteIO)
    private var failingRegisters: [RegisterAddress: (count: Int, error: Errno)] = [:]

    init(layout: RegisterLayout, registerMap: RegisterMap?, behavior: (any SimulatedChipBehavior)?) {
        self.layout = layout
        self.registerMap = registerMap
        self.behavior = behavior
        registers = registerMap?.resetValues ?? [:]
    }

    // MARK: What the chip saw

    var trace: [RegisterBusEvent] { condition.locked { events } }
    var wireTrace: [I2CWireTransfer] { condition.locked { wire } }

    func clearTrace() {
        condition.locked {
            events.removeAll()
            wire.removeAll()
        }
    }

    /// The trace and the wire transfers together, under one lock.
    var tracePairs: [(RegisterBusEvent, I2CWireTransfer)] { condition.locked { Array(zip(events, wire)) } }

    // MARK: The chip's registers and faults

    func registerValue(_ register: RegisterAddress) -> RegisterValue? {
        condition.locked { registers[register] ?? (registerMap == nil && register <= layout.maxRegister ? 0 : nil) }
    }

    func setRegister(_ register: RegisterAddress, _ value: RegisterValue) {
        condition.locked { registers[register] = value }
    }

    func resetRegisters() {
        condition.locked { registers = registerMap?.resetValues ?? [:] }
    }

    func failNextTransfers(_ count: Int, with error: Errno) {
        condition.locked { failNext = (count, error) }
    }

    func failTransfers(to register: RegisterAddress, count: Int, with error: Errno) {
        condition.locked { failingRegisters[register] = (count, error) }
    }

    func clearFailures() {
        condition.locked {
            failNext = (0, .remoteIO)
            failingRegisters.removeAll()
        }
    }

    // MARK: Transport

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
