import Testing
@testable import HAL

@Suite("Register fields")
struct RegisterFieldTests {
    @Test func fieldsExtractAndDescribeTheirBits() {
        let interface = RegisterDefinition(0x07, "Audio Interface (1)", width: 9, reset: 0x00A, fields: [
            RegisterField("FORMAT", bits: 0...1), RegisterField("WL", bits: 2...3), RegisterField("LRP", bit: 4),
            RegisterField("MS", bit: 6), RegisterField("ALRSWAP", bit: 8),
        ])
        #expect(interface.fields[1].mask == 0x00C && interface.fields[1].value(in: 0x00A) == 0b10)
        #expect(interface.describeFields(0x00A) == "ALRSWAP=0 MS=0 LRP=0 WL=0b10 FORMAT=0b10")
        #expect(interface.describeFields(0x142) == "ALRSWAP=1 MS=1 LRP=0 WL=0b00 FORMAT=0b10")
        let volume = RegisterField("LOUT1VOL", bits: 0...6)
        #expect(volume.describe(0x179) == "LOUT1VOL=0x79" && volume.describe(0x105) == "LOUT1VOL=0x05")
        #expect(RegisterField("ID", bits: 0...15).describe(0xA011) == "ID=0xA011")
    }
}
