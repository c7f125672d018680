import Testing
@testable import HAL

@Suite("Register dump")
struct RegisterDumpTests {
    @Test func aWriteOnlyChipIsDumpedFromTheCacheWithItsFieldsDecoded() throws {
        let model = WM8731Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8731(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.setVolume(-20, output: .headphones)
        try codec.powerUp()
        let dump = RegisterDump(map: WM8731Register.map, cache: codec.registers, layout: .reg7Value9, readBack: true)
        #expect(dump.entries.allSatisfy { $0.source == .cache }, "a 7+9 chip cannot be read back")
        let lines = dump.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 11)
        #expect(lines[2] == "R2    0x02  Left Headphone Out              0x0E5  cache  LRHPBOTH=0 LZCEN=1 LHPVOL=0x65")
        #expect(lines.contains { $0.hasPrefix("R15   0x0F") && $0.hasSuffix("(write-only: a command, not a state)") })
        // The cache agrees with what the simulated chip holds, register by register.
        for entry in dump.entries where entry.definition.access != .writeOnly {
            #expect(entry.value == model.bus.registerValue(entry.definition.address))
        }
    }

    @Test func aReadableChipIsReadBackAndAFailedReadSaysSo() throws {
        let map = RegisterMap([
            RegisterDefinition(0x00, "chip ID", width: 8, reset: 0x5A, access: .readOnly,
                               fields: [RegisterField("ID", bits: 0...7)]),
            RegisterDefinition(0x01, "status", width: 8, access: .readOnly, volatile: true,
                               fields: [RegisterField("JACK", bit: 0), RegisterField("MIC", bit: 1)]),
        ])
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x4c), layout: .reg8Value8, registerMap: map)
        bus.setRegister(0x01, 0x03)
        let cache = RegisterCache(bus: bus, map: map)
        let fromChip = RegisterDump(map: map, cache: cache, layout: .reg8Value8, readBack: true)
        #expect(fromChip.entries.map(\.value) == [0x5A, 0x03] && fromChip.entries.allSatisfy { $0.source == .chip })
        #expect(fromChip.description.split(separator: "\n").last == "R1    0x01  status   0x03  chip   MIC=1 JACK=1")
        let fromCache = RegisterDump(map: map, cache: cache, layout: .reg8Value8, readBack: false)
        #expect(fromCache.entries[1].value == nil && fromCache.entries[1].note == "not cached; read back to see it")
        bus.failTransfers(to: 0x01, with: .io)
        let failed = RegisterDump(map: map, cache: cache, layout: .reg8Value8, readBack: true)
        #expect(failed.entries[1].value == nil && failed.entries[1].note?.hasPrefix("read failed: ") == true)
    }
}
