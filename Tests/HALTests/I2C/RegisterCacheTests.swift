import Testing
@testable import HAL

@Suite("Register cache")
struct RegisterCacheTests {
    /// WM8960 R7 (audio interface, reset 0x00A: 24-bit I2S), R25/R26 (power management 1 and 2).
    private let wm8960Map = RegisterMap([
        RegisterDefinition(0x07, "audio interface", width: 9, reset: 0x00A),
        RegisterDefinition(0x19, "power 1", width: 9, reset: 0x000),
        RegisterDefinition(0x1A, "power 2", width: 9, reset: 0x000),
    ])

    @Test func updateMergesBitsIntoTheCachedValueAndWritesOnlyChanges() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9, registerMap: wm8960Map)
        let cache = RegisterCache(bus: bus, map: wm8960Map)
        #expect(try cache.update(0x07, mask: 0x00C, value: 0x000).wrote)           // WL = 16 bits: 0x00A -> 0x002
        #expect(try cache.update(0x07, mask: 0x00C, value: 0x000).wrote == false)  // unchanged: no transfer
        #expect(try cache.update(0x07, mask: 0x003, value: 0x0FF).wrote)           // bits outside the mask ignored
        #expect(try cache.update(0x1A, mask: 0x180, value: 0x180).wrote)           // DACL, DACR on
        #expect(try cache.update(0x1A, mask: 0x060, value: 0x040).wrote)           // LOUT1 on, ROUT1 off
        #expect(try cache.update(0x1A, mask: 0x100, value: 0x000).wrote)           // DACL off
        #expect(bus.trace == [
            .write(reg: 0x07, value: 0x002),
            .write(reg: 0x07, value: 0x003),
            .write(reg: 0x1A, value: 0x180),
            .write(reg: 0x1A, value: 0x1C0),
            .write(reg: 0x1A, value: 0x0C0),
        ])
        #expect(cache.cachedValue(0x07) == 0x003)
        #expect(try cache.read(0x1A) == 0x0C0)
        #expect(bus.registerValue(0x1A) == 0x0C0)
        #expect(bus.trace.count == 5, "reads of a write-only chip come from the cache")
    }

    @Test func aWriteOnlyChipsUnknownRegisterCannotBeRead() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9)
        let cache = RegisterCache(bus: bus, defaults: [0x07: 0x00A])
        #expect(try cache.read(0x07) == 0x00A)
        let error = I2CError.notReadable(bus.target, register: 0x08, layout: .reg7Value9)
        #expect(throws: error) { try cache.update(0x08, mask: 0x001, value: 0x001) }
        #expect(error.description.contains("RegisterCache"))
        #expect(bus.trace.isEmpty)
    }

    @Test func aFailedWriteLeavesTheCacheAtWhatTheChipLastAccepted() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9, registerMap: wm8960Map)
        let cache = RegisterCache(bus: bus, map: wm8960Map)
        try cache.write(0x19, 0x0C0)
        bus.failNextTransfers(3)
        #expect(throws: I2CError.transferFailed(bus.target, .write(reg: 0x19, value: 0x0C2), .remoteIO, attempts: 3)) {
            try cache.update(0x19, mask: 0x002, value: 0x002)
        }
        #expect(cache.cachedValue(0x19) == 0x0C0)
        #expect(try cache.update(0x19, mask: 0x002, value: 0x002).wrote)      // tried again: written this time
        #expect(bus.registerValue(0x19) == 0x0C2)
        #expect(cache.cachedValue(0x19) == 0x0C2)
    }

    @Test func volatileRegistersAlwaysComeFromTheChip() throws {
        let map = RegisterMap([
            RegisterDefinition(0x01, "status", width: 8, access: .readOnly, volatile: true),
            RegisterDefinition(0x02, "control", width: 8, reset: 0x10),
            RegisterDefinition(0x05, "gain", width: 8, reset: 0x20),
        ])
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x20), layout: .reg8Value8, registerMap: map)
        let cache = RegisterCache(bus: bus, defaults: [0x01: 0x00, 0x02: 0x10], volatile: [0x01])
        bus.setRegister(0x01, 0x80)                  // headphones plugged in
        #expect(try cache.read(0x01) == 0x80)
        bus.setRegister(0x01, 0x00)                  // and pulled
        #expect(try cache.read(0x01) == 0x00)
        #expect(cache.cachedValue(0x01) == nil)
        #expect(try cache.read(0x02) == 0x10)         // cached: no transfer
        #expect(try cache.read(0x05) == 0x20)         // unknown: read once, then cached
        #expect(try cache.read(0x05) == 0x20)
        #expect(bus.trace == [.read(reg: 0x01, value: 0x80), .read(reg: 0x01, value: 0x00), .read(reg: 0x05, value: 0x20)])
    }

    @Test func resetToDefaultsForgetsWrites() throws {
        let bus = SimulatedRegisterBus(address: try I2CAddress(0x1a), layout: .reg7Value9, registerMap: wm8960Map)
        let cache = RegisterCache(bus: bus, map: wm8960Map)
        try cache.write(0x07, 0x042)
        try cache.write(0x19, 0x0C0)
        cache.resetToDefaults()
        #expect(cache.cachedValue(0x07) == 0x00A)
        #expect(cache.cachedValue(0x19) == 0x000)
    }
}
