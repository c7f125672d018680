import Testing
@testable import HAL

/// `PagedRegisterBus` on the simulated PCM512x: virtual addresses page * 256 + register.
@Suite("PCM512x paged register bus")
struct PCM512xPagedBusTests {
    func rig() throws -> (chip: SimulatedRegisterBus, paged: PagedRegisterBus) {
        let model = PCM512xModel(address: try I2CAddress(0x4c), clockSource: .bitClock64)
        return (model.bus, PagedRegisterBus(bus: model.bus))
    }

    @Test func thePageIsSelectedOnlyWhenItChanges() throws {
        let (chip, paged) = try rig()
        #expect(paged.currentPage == nil)
        try paged.write(0x03D, 0x40)
        try paged.write(0x03E, 0x40)
        try paged.write(0x102, 0x11)
        try paged.write(0x107, 0x11)
        #expect(try paged.read(0x102) == 0x11)
        try paged.write(0x003, 0x11)
        #expect(try paged.read(0x028) == 0x02)
        #expect(chip.trace == [
            .write(reg: 0x000, value: 0x00),  // page 0: unknown at first
            .write(reg: 0x03D, value: 0x40),
            .write(reg: 0x03E, value: 0x40),  // same page: no select
            .write(reg: 0x000, value: 0x01),  // page 1
            .write(reg: 0x102, value: 0x11),
            .write(reg: 0x107, value: 0x11),
            .read(reg: 0x102, value: 0x11),
            .write(reg: 0x000, value: 0x00),  // back to page 0
            .write(reg: 0x003, value: 0x11),
            .read(reg: 0x028, value: 0x02),
        ])
        #expect(paged.currentPage == 0)
        #expect(chip.wireTrace[4] == .smbusWriteByteData(command: 0x02, value: 0x11), "on the wire it is register 2")
        #expect(chip.registerValue(0x002) == 0x00, "page 0 register 2 untouched")
    }

    @Test func aFailedPageSelectIsForgottenAndRetried() throws {
        let (chip, paged) = try rig()
        try paged.write(0x002, 0x10)
        chip.clearTrace()
        chip.failNextTransfers(3)  // every retry of the page select fails
        #expect(throws: I2CError.self) { try paged.write(0x102, 0x11) }
        #expect(paged.currentPage == nil, "the chip may or may not have changed page")
        chip.clearTrace()
        try paged.write(0x002, 0x00)
        #expect(chip.trace == [.write(reg: 0x000, value: 0x00), .write(reg: 0x002, value: 0x00)])
    }

    @Test func aResetPutsTheChipOnPage0() throws {
        let (chip, paged) = try rig()
        try paged.write(0x102, 0x11)
        try paged.write(0x001, 0x11)  // RSTR: the chip resets, page select included
        #expect(chip.registerValue(0x000) == 0 && chip.registerValue(0x102) == 0)
        paged.chipDidReset()
        chip.clearTrace()
        try paged.write(0x002, 0x10)
        #expect(chip.trace == [.write(reg: 0x002, value: 0x10)], "no select after the reset")
    }

    @Test func writingThePageRegisterMovesTheChip() throws {
        let (chip, paged) = try rig()
        try paged.write(0x000, 0x01)
        chip.clearTrace()
        try paged.write(0x109, 0x00)
        #expect(chip.trace == [.write(reg: 0x109, value: 0x00)])
        #expect(paged.target == chip.target && paged.layout == .reg8Value8)
    }

    @Test func blocksStayInsideOnePageAndUnknownRegistersAreRefused() throws {
        let (chip, paged) = try rig()
        #expect(throws: I2CError.self) { try paged.readBlock(from: 0x1FF, count: 2) }
        #expect(throws: I2CError.self) { try paged.write(0x103, 0x00) }  // page 1 register 3 does not exist
        #expect(chip.trace.last == .rejected(.write(reg: 0x103, value: 0x00), .noSuchRegister(0x103)))
        #expect(throws: I2CError.self) { try paged.write(0x201, 0x00) }  // page 2 holds nothing the map knows
        #expect(chip.trace.suffix(2) == [.write(reg: 0x000, value: 0x02),
                                         .rejected(.write(reg: 0x201, value: 0x00), .noSuchRegister(0x201))])
    }
}
