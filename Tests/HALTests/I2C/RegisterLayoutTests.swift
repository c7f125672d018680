import Codec8_24
import Testing
@testable import HAL

@Suite("I2C register layouts")
struct RegisterLayoutTests {
    @Test func eightBitRegisterEightBitValueIsSMBusByteData() {
        let layout = RegisterLayout.reg8Value8
        #expect(layout.writeTransfer(register: 0x2A, value: 0xC3) == .smbusWriteByteData(command: 0x2A, value: 0xC3))
        #expect(layout.writeTransfer(register: 0x2A, value: 0xC3).bytesWritten == [0x2A, 0xC3])
        #expect(layout.readTransfer(register: 0xFF) == .smbusReadByteData(command: 0xFF))
        #expect(layout.readTransfer(register: 0xFF)?.bytesWritten == [0xFF])
        #expect(layout.readTransfer(register: 0xFF)?.bytesRead == 1)
        #expect(layout.value(fromReadBytes: [0x5A]) == 0x5A)
    }

    /// WM8960 datasheet: B[15:9] register address, B[8:0] data; e.g. R15 (reset) written with 0 is 1E 00,
    /// R7 (audio interface) = 0x00A is 0E 0A, and a set bit 8 lands in the first byte's LSB.
    @Test func sevenBitRegisterNineBitValuePacksBit8IntoTheFirstByte() {
        let layout = RegisterLayout.reg7Value9
        #expect(layout.writeTransfer(register: 0x0F, value: 0x000).bytesWritten == [0x1E, 0x00])
        #expect(layout.writeTransfer(register: 0x07, value: 0x00A).bytesWritten == [0x0E, 0x0A])
        #expect(layout.writeTransfer(register: 0x02, value: 0x179).bytesWritten == [0x05, 0x79])
        #expect(layout.writeTransfer(register: 0x7F, value: 0x1FF).bytesWritten == [0xFF, 0xFF])
        #expect(layout.writeTransfer(register: 0x02, value: 0x179) == .smbusWriteByteData(command: 0x05, value: 0x79))
        #expect(layout.readTransfer(register: 0x02) == nil)
        #expect(!layout.isReadable)
    }

    /// SGTL5000: CHIP_ANA_POWER (0x0030) = 0x4260 goes out as 00 30 42 60; a read writes 00 30 and reads 2.
    @Test func sixteenBitRegisterSixteenBitValueIsBigEndianI2CMessages() {
        let layout = RegisterLayout.reg16Value16
        #expect(layout.writeTransfer(register: 0x0030, value: 0x4260) == .write([0x00, 0x30, 0x42, 0x60]))
        #expect(layout.writeTransfer(register: 0x1234, value: 0xABCD).bytesWritten == [0x12, 0x34, 0xAB, 0xCD])
        #expect(layout.readTransfer(register: 0x0000) == .writeThenRead([0x00, 0x00], count: 2))
        #expect(layout.readTransfer(register: 0x0102)?.bytesRead == 2)
        #expect(layout.value(fromReadBytes: [0xA0, 0x11]) == 0xA011)
    }

    @Test func autoIncrementBlockReadsAreSplitInto32ByteTransfers() {
        let layout = RegisterLayout.reg8Value8AutoIncrement
        #expect(layout.writeTransfer(register: 0x41, value: 0x07).bytesWritten == [0x41, 0x07])
        #expect(layout.blockReadTransfers(from: 0x10, count: 4) == [.smbusReadI2CBlock(command: 0x10, count: 4)])
        #expect(layout.blockReadTransfers(from: 0x00, count: 70) == [
            .smbusReadI2CBlock(command: 0x00, count: 32),
            .smbusReadI2CBlock(command: 0x20, count: 32),
            .smbusReadI2CBlock(command: 0x40, count: 6),
        ])
        #expect(layout.blockReadTransfers(from: 0x10, count: 4)[0].bytesWritten == [0x10])
        #expect(layout.blockReadTransfers(from: 0x10, count: 4)[0].bytesRead == 4)
    }

    @Test(arguments: RegisterLayout.allCases)
    func theChipDecodesWhatTheBusEncodes(layout: RegisterLayout) {
        var generator = NoiseGenerator(seed: 0x12C)
        for _ in 0..<500 {
            let register = RegisterAddress(truncatingIfNeeded: generator.next()) & layout.maxRegister
            let value = RegisterValue(truncatingIfNeeded: generator.next()) & layout.maxValue
            #expect(layout.decode(layout.writeTransfer(register: register, value: value))
                == .write(reg: register, value: value))
            if let read = layout.readTransfer(register: register) {
                #expect(layout.decode(read) == .read(reg: register))
                #expect(layout.value(fromReadBytes: layout.readBytes(of: value)) == value)
            }
        }
    }

    @Test func wireTransfersDescribeThemselvesAsI2ctransferArguments() throws {
        let address = try I2CAddress(0x1a)
        #expect(I2CWireTransfer.smbusWriteByteData(command: 0x1E, value: 0x00).description(address: address)
            == "w2@0x1a 0x1e 0x00")
        #expect(I2CWireTransfer.smbusReadI2CBlock(command: 0x10, count: 4).description == "w1 0x10 r4")
        #expect(I2CWireTransfer.writeThenRead([0x00, 0x30], count: 2).description == "w2 0x00 0x30 r2")
    }

    @Test func registersAndValuesOutsideTheLayoutAreRejected() {
        #expect(throws: I2CError.registerOutOfRange(0x80, layout: .reg7Value9)) {
            try RegisterLayout.reg7Value9.validate(register: 0x80)
        }
        #expect(throws: I2CError.valueOutOfRange(0x200, register: 0x05, layout: .reg7Value9)) {
            try RegisterLayout.reg7Value9.validate(value: 0x200, register: 0x05)
        }
        #expect(throws: I2CError.registerOutOfRange(0x100, layout: .reg8Value8)) {
            try RegisterLayout.reg8Value8.validate(register: 0x100)
        }
        #expect(throws: I2CError.valueOutOfRange(0x100, register: 0x01, layout: .reg8Value8)) {
            try RegisterLayout.reg8Value8.validate(value: 0x100, register: 0x01)
        }
        #expect(throws: Never.self) {
            try RegisterLayout.reg7Value9.validate(register: 0x7F)
            try RegisterLayout.reg7Value9.validate(value: 0x1FF, register: 0x7F)
            try RegisterLayout.reg16Value16.validate(register: 0xFFFF)
            try RegisterLayout.reg16Value16.validate(value: 0xFFFF, register: 0xFFFF)
            try RegisterLayout.reg8Value8AutoIncrement.validateBlock(from: 0xF0, count: 16)
        }
        #expect(throws: I2CError.blockOutOfRange(from: 0xF0, count: 17, layout: .reg8Value8AutoIncrement)) {
            try RegisterLayout.reg8Value8AutoIncrement.validateBlock(from: 0xF0, count: 17)
        }
        #expect(throws: I2CError.blockOutOfRange(from: 0x00, count: 0, layout: .reg8Value8AutoIncrement)) {
            try RegisterLayout.reg8Value8AutoIncrement.validateBlock(from: 0x00, count: 0)
        }
    }

    @Test func addressesAreSevenBitDeviceAddresses() throws {
        #expect(try I2CAddress(0x03).rawValue == 0x03)
        #expect(try I2CAddress(0x77).rawValue == 0x77)
        #expect(try I2CAddress(0x1a).description == "0x1a")
        for invalid in [-1, 0x00, 0x02, 0x78, 0x7F, 0x80, 0xFF, 0x100] {
            #expect(throws: I2CError.invalidAddress(invalid)) { try I2CAddress(invalid) }
        }
        let error = I2CError.invalidAddress(0x80)
        #expect(error.description.contains("0x03...0x77"))
        let target = I2CTarget(bus: 1, address: try I2CAddress(0x1a))
        #expect(target.sysfsName == "1-001a")
        #expect(target.devicePath == "/dev/i2c-1")
        #expect(target.description == "i2c-1 address 0x1a")
    }
}
