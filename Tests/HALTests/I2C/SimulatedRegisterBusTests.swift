import Testing
@testable import HAL

/// A few WM8960 registers as data (datasheet: R15 reset, R7 audio interface, R2/R3 headphone volume
/// LOUT1/ROUT1, R25 power management 1), all write-only on the chip since the layout is.
private let wm8960Map = RegisterMap([
    RegisterDefinition(0x02, "LOUT1", width: 9, reset: 0x000),
    RegisterDefinition(0x03, "ROUT1", width: 9, reset: 0x000),
    RegisterDefinition(0x07, "audio interface", width: 9, reset: 0x00A),
    RegisterDefinition(0x0F, "reset", width: 9, reset: 0x000),
    RegisterDefinition(0x19, "power 1", width: 9, reset: 0x000),
])

/// An 8-bit chip with an ID register, a status register the chip changes, a write-only command register
/// and a 4-bit register.
private let statusChipMap = RegisterMap([
    RegisterDefinition(0x00, "chip ID", width: 8, reset: 0x5A, access: .readOnly),
    RegisterDefinition(0x01, "status", width: 8, reset: 0x00, access: .readOnly, volatile: true),
    RegisterDefinition(0x02, "control", width: 8, reset: 0x10),
    RegisterDefinition(0x03, "command", width: 8, access: .writeOnly),
    RegisterDefinition(0x04, "gain", width: 4, reset: 0x3),
])

@Suite("Simulated register bus")
struct SimulatedRegisterBusTests {
    @Test func aWM8960PowerUpSequenceMatchesItsGoldenTrace() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9, registerMap: wm8960Map)
        try bus.write(0x0F, 0x000)      // reset
        try bus.write(0x19, 0x0C0)      // VMID 2x50k, VREF
        try bus.write(0x07, 0x002)      // I2S, 16-bit
        try bus.write(0x02, 0x179)      // LOUT1 0 dB
        try bus.write(0x03, 0x179)      // ROUT1 0 dB, update
        #expect(bus.trace == [
            .write(reg: 0x0F, value: 0x000),
            .write(reg: 0x19, value: 0x0C0),
            .write(reg: 0x07, value: 0x002),
            .write(reg: 0x02, value: 0x179),
            .write(reg: 0x03, value: 0x179),
        ])
        #expect(bus.wireTrace.map(\.bytesWritten) == [[0x1E, 0x00], [0x32, 0xC0], [0x0E, 0x02], [0x05, 0x79], [0x07, 0x79]])
        #expect(bus.traceDescription == """
            write 0x0F = 0x000      w2@0x1a 0x1e 0x00
            write 0x19 = 0x0C0      w2@0x1a 0x32 0xc0
            write 0x07 = 0x002      w2@0x1a 0x0e 0x02
            write 0x02 = 0x179      w2@0x1a 0x05 0x79
            write 0x03 = 0x179      w2@0x1a 0x07 0x79
            """)
        #expect(bus.registerValue(0x02) == 0x179)
        #expect(bus.registerValue(0x07) == 0x002)
    }

    @Test func readsReturnWhatTheChipHolds() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x0a), layout: .reg16Value16)
        try bus.write(0x0030, 0x4260)
        #expect(try bus.read(0x0030) == 0x4260)
        bus.setRegister(0x0000, 0xA011)          // CHIP_ID, set by the chip
        #expect(try bus.read(0x0000) == 0xA011)
        #expect(bus.trace == [.write(reg: 0x0030, value: 0x4260), .read(reg: 0x0030, value: 0x4260),
                              .read(reg: 0x0000, value: 0xA011)])
        #expect(bus.wireTrace == [.write([0x00, 0x30, 0x42, 0x60]), .writeThenRead([0x00, 0x30], count: 2),
                                  .writeThenRead([0x00, 0x00], count: 2)])
    }

    @Test func blockReadsAutoIncrementIn32ByteTransfers() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x18), layout: .reg8Value8AutoIncrement)
        for register in 0..<0x50 { bus.setRegister(RegisterAddress(register), RegisterValue(register ^ 0xA5)) }
        let bytes = try bus.readBlock(from: 0x08, count: 40)
        #expect(bytes == (0x08..<0x30).map { UInt8($0 ^ 0xA5) })
        #expect(bus.wireTrace == [.smbusReadI2CBlock(command: 0x08, count: 32), .smbusReadI2CBlock(command: 0x28, count: 8)])
        #expect(bus.trace == [.readBlock(reg: 0x08, bytes: Array(bytes[0..<32])),
                              .readBlock(reg: 0x28, bytes: Array(bytes[32...]))])
    }

    @Test func blockReadsNeedAnAutoIncrementLayout() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x18), layout: .reg8Value8)
        #expect(throws: I2CError.blockOutOfRange(from: 0x00, count: 4, layout: .reg8Value8)) {
            try bus.readBlock(from: 0x00, count: 4)
        }
        #expect(bus.trace.isEmpty)
    }

    @Test func argumentsAreCheckedBeforeAnyByteGoesOut() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9)
        #expect(throws: I2CError.valueOutOfRange(0x200, register: 0x02, layout: .reg7Value9)) { try bus.write(0x02, 0x200) }
        #expect(throws: I2CError.registerOutOfRange(0x80, layout: .reg7Value9)) { try bus.write(0x80, 0x000) }
        #expect(throws: I2CError.notReadable(bus.target, register: 0x02, layout: .reg7Value9)) { try bus.read(0x02) }
        #expect(bus.trace.isEmpty && bus.wireTrace.isEmpty)
    }

    @Test func theRegisterMapRefusesWhatTheDatasheetForbids() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x20), layout: .reg8Value8, registerMap: statusChipMap)
        #expect(try bus.read(0x00) == 0x5A)
        #expect(try bus.read(0x02) == 0x10)
        let cases: [(RegisterTransfer, RegisterMapViolation)] = [
            (.write(reg: 0x00, value: 0x01), .readOnly(0x00)),
            (.read(reg: 0x03), .writeOnly(0x03)),
            (.write(reg: 0x09, value: 0x01), .noSuchRegister(0x09)),
            (.read(reg: 0x09), .noSuchRegister(0x09)),
            (.write(reg: 0x04, value: 0x10), .valueTooWide(0x04, width: 4)),
        ]
        for (transfer, violation) in cases {
            bus.clearTrace()
            #expect(throws: I2CError.rejectedByRegisterMap(bus.target, transfer, violation)) {
                switch transfer {
                case .write(let reg, let value): try bus.write(reg, value)
                case .read(let reg): _ = try bus.read(reg)
                case .readBlock(let reg, let count): _ = try bus.readBlock(from: reg, count: count)
                }
            }
            #expect(bus.trace == [.rejected(transfer, violation)], "refused at once, not retried")
        }
        #expect(bus.registerValue(0x00) == 0x5A && bus.registerValue(0x04) == 0x3, "refused writes change nothing")
        try bus.write(0x03, 0xFF)       // a write-only register takes writes
        try bus.write(0x04, 0x0F)
        #expect(bus.registerValue(0x04) == 0x0F)
        let error = I2CError.rejectedByRegisterMap(bus.target, .write(reg: 0x00, value: 0x01), .readOnly(0x00))
        #expect(error.description == "the simulated chip on i2c-1 address 0x20 refused the write of 0x01 to "
            + "register 0x00: register 0x00 is read-only")
    }

    @Test func blockReadsAcrossAMissingRegisterAreRefused() throws {
        let map = RegisterMap([RegisterDefinition(0x10, width: 8), RegisterDefinition(0x11, width: 8),
                               RegisterDefinition(0x13, width: 8)])
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x18), layout: .reg8Value8AutoIncrement, registerMap: map)
        #expect(try bus.readBlock(from: 0x10, count: 2) == [0, 0])
        #expect(throws: I2CError.rejectedByRegisterMap(bus.target, .readBlock(reg: 0x10, count: 4), .noSuchRegister(0x12))) {
            try bus.readBlock(from: 0x10, count: 4)
        }
    }

    @Test func aMissingAcknowledgeIsRetriedAndThenReported() throws {
        let bus = SimulatedRegisterBus(bus: 1, address: try I2CAddress(0x1a), layout: .reg7Value9, registerMap: wm8960Map)
        let start = bus.retry.clock.now
        bus.failNextTransfers(2)
        try bus.write(0x07, 0x002)        // third try acknowledged
        #expect(bus.trace == [
            .failed(.write(reg: 0x07, value: 0x002), .remoteIO),
            .failed(.write(reg: 0x07, value: 0x002), .remoteIO),
            .write(reg: 0x07, value: 0x002),
        ])
        #expect(bus.retry.clock.now - start == .milliseconds(4), "two waits of 2 ms between three tries")

        bus.clearTrace()
        bus.failTransfers(to: 0x02)
        let expected = I2CError.transferFailed(bus.target, .write(reg: 0x02, value: 0x179), .remoteIO, attempts: 3)
        #expect(throws: expected) { try bus.write(0x02, 0x179) }
        #expect(bus.trace == Array(repeating: .failed(.write(reg: 0x02, value: 0x179), .remoteIO), count: 3))
        #expect(bus.registerValue(0x02) == 0x000)
        #expect(bus.traceDescription.hasPrefix("NACK write of 0x179 to register 0x02  w2@0x1a 0x05 0x79"))

        let text = expected.description
        #expect(text.hasPrefix("I2C write of 0x179 to register 0x02 on i2c-1 address 0x1a failed after 3 attempts: "))
        #expect(text.contains("(EREMOTEIO)"))
        #expect(text.contains("No device acknowledged at 0x1a"))
        #expect(text.contains("i2cdetect -y 1"))

        try bus.write(0x03, 0x179)       // other registers still answer
        bus.clearFailures()
        try bus.write(0x02, 0x179)
        #expect(bus.registerValue(0x02) == 0x179)
    }

    @Test func registerFailuresCountDownAndPermanentErrorsAreNotRetried() throws {
        let clock = ManualClock(skipsSleeps: true)
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x20), layout: .reg8Value8,
                                       retry: I2CRetryPolicy(attempts: 4, delay: .milliseconds(5), clock: clock))
        bus.failTransfers(to: 0x10, count: 3, with: .io)
        try bus.write(0x10, 0x01)
        #expect(bus.trace.count == 4)
        #expect(clock.now == .zero + .milliseconds(15))
        #expect(bus.trace.last == .write(reg: 0x10, value: 0x01))

        bus.clearTrace()
        bus.failNextTransfers(1, with: .permissionDenied)
        let error = I2CError.transferFailed(bus.target, .read(reg: 0x10), .permissionDenied, attempts: 1)
        #expect(throws: error) { try bus.read(0x10) }
        #expect(bus.trace == [.failed(.read(reg: 0x10), .permissionDenied)])
        #expect(error.description.contains("group"))
        #expect(try bus.read(0x10) == 0x01)

        bus.failNextTransfers(1, with: .interrupted)       // EINTR: tried again, not counted
        bus.clearTrace()
        #expect(try bus.read(0x10) == 0x01)
        #expect(bus.trace.count == 2)
    }

    @Test func aBlockReadRetriesOnlyTheChunkThatFailed() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x18), layout: .reg8Value8AutoIncrement)
        for register in 0..<0x40 { bus.setRegister(RegisterAddress(register), RegisterValue(register)) }
        bus.failTransfers(to: 0x30, count: 1)
        #expect(try bus.readBlock(from: 0x00, count: 0x40) == (0..<0x40).map { UInt8($0) })
        #expect(bus.wireTrace == [.smbusReadI2CBlock(command: 0x00, count: 32), .smbusReadI2CBlock(command: 0x20, count: 32),
                                  .smbusReadI2CBlock(command: 0x20, count: 32)])
        #expect(bus.trace.map(\.isFailure) == [false, true, false])
    }

    @Test func resetRestoresTheMapsResetValues() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9, registerMap: wm8960Map)
        try bus.write(0x07, 0x1FF)
        bus.resetRegisters()
        #expect(bus.registerValue(0x07) == 0x00A)
        #expect(bus.registerValue(0x08) == nil)
    }

    @Test func aSoftResetRegisterPutsEveryRegisterBack() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9, registerMap: wm8960Map,
                                       behavior: SoftResetRegister(0x0F))
        try bus.write(0x07, 0x1FF)
        try bus.write(0x02, 0x179)
        try bus.write(0x19, 0x0C0)
        #expect(bus.registerValue(0x07) == 0x1FF)
        try bus.write(0x0F, 0x000)
        #expect(bus.registerValue(0x07) == 0x00A && bus.registerValue(0x02) == 0x000 && bus.registerValue(0x19) == 0x000)
        #expect(bus.trace.last == .write(reg: 0x0F, value: 0x000))
    }

    /// A chip with a page register at 0 on every page: pages are stored 256 apart.
    struct PagedChip: SimulatedChipBehavior {
        func storageAddress(of wireRegister: RegisterAddress, registers: [RegisterAddress: RegisterValue]) -> RegisterAddress {
            wireRegister == 0 ? 0 : (registers[0] ?? 0) << 8 | wireRegister
        }
    }

    @Test func aPagedChipStoresTheSameWireAddressPerPage() throws {
        let map = RegisterMap([
            RegisterDefinition(0x000, "page", width: 8),
            RegisterDefinition(0x002, "standby", width: 8, reset: 0x00),
            RegisterDefinition(0x102, "analog gain", width: 8, reset: 0x00),
        ])
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x4c), layout: .reg8Value8, registerMap: map,
                                       behavior: PagedChip())
        try bus.write(0x02, 0x10)
        try bus.write(0x00, 0x01)
        try bus.write(0x02, 0x11)
        #expect(try bus.read(0x02) == 0x11)
        #expect(bus.registerValue(0x002) == 0x10 && bus.registerValue(0x102) == 0x11)
        #expect(throws: I2CError.self) { try bus.write(0x03, 0x00) }  // page 1 register 3 does not exist
        #expect(bus.trace == [.write(reg: 0x002, value: 0x10), .write(reg: 0x000, value: 0x01),
                              .write(reg: 0x102, value: 0x11), .read(reg: 0x102, value: 0x11),
                              .rejected(.write(reg: 0x103, value: 0x00), .noSuchRegister(0x103))])
    }
}

private extension RegisterBusEvent {
    var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}
