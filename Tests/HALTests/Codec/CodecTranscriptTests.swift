import Testing
@testable import HAL

/// What a driver hands back about its control port: each recipe step with the exchanges it caused, as
/// `CodecRecipe.run` returns them. The expected sequences are the golden traces' (each step there cites
/// the datasheet); here the transcript must carry exactly those transfers, in order, with their bytes.
@Suite("Codec transcripts")
struct CodecTranscriptTests {
    /// The 7+9 control word on the wire: B15-B9 the register, B8-B0 the value, sent high byte first
    /// (WM8960 datasheet, "Control interface"; the WM8731's is the same).
    static func controlWord(_ register: RegisterAddress, _ value: RegisterValue) -> I2CWireTransfer {
        .smbusWriteByteData(command: UInt8(register << 1 | value >> 8), value: UInt8(value & 0xFF))
    }

    @Test func aWM8960PowerUpCarriesTheGoldenWritesStepByStepWithTheVMIDWait() throws {
        let rig = try WM8960GoldenTraceTests.Rig(mclk: 12_288_000)
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        rig.model.bus.clearTrace()
        rig.codec.transcript = CodecTranscript()
        try rig.codec.powerUp()
        let transcript = try #require(rig.codec.transcript)

        // The writes WM8960GoldenTraceTests.powerUpAt48kFrom12288MHz lists, as the chip saw them.
        #expect(transcript.exchanges.map(\.event) == rig.model.bus.trace)
        #expect(transcript.exchanges.count == 16)
        for exchange in transcript.exchanges {
            guard case .write(let register, let value) = exchange.event else {
                Issue.record("not a write: \(exchange.event)")
                continue
            }
            #expect(exchange.wire == Self.controlWord(register, value))
        }
        #expect(transcript.entries.allSatisfy { $0.recipe == "WM8960 power-up (headphones)" && $0.step != nil })
        // VMIDSEL = 01 (R25 0x080), then the 100 ms VMID charge, then VREF (R25 0x0C0).
        let wait = try #require(transcript.entries.firstIndex { if case .delay? = $0.step { true } else { false } })
        #expect(transcript.entries[wait].step == .delay(.milliseconds(100), reason: transcript.entries[wait].reason))
        #expect(transcript.entries[wait].exchanges.isEmpty)
        #expect(transcript.entries[..<wait].last?.exchanges.map(\.event) == [.write(reg: 0x19, value: 0x080)])
        #expect(transcript.entries[(wait + 1)...].first { !$0.exchanges.isEmpty }?.exchanges.map(\.event)
                == [.write(reg: 0x19, value: 0x0C0)])
        #expect(transcript.totalDelay == .milliseconds(100))
        // Every step's reason comes with it.
        #expect(transcript.entries.allSatisfy { $0.reason == $0.step?.reason && !$0.reason.isEmpty })
    }

    @Test func aNACKAndItsRetryBelongToTheStepThatCausedThem() throws {
        let rig = try WM8960GoldenTraceTests.Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()
        rig.model.bus.failNextTransfers(1)
        rig.codec.transcript = CodecTranscript()
        try rig.codec.setVolume(-30, output: .headphones)
        let transcript = try #require(rig.codec.transcript)
        // -30 dB: LOUT1VOL 0x79 (0 dB) - 30 = 0x5B with LO1ZC (bit 7); the first try is not acknowledged.
        let first = try #require(transcript.entries.first)
        #expect(first.exchanges.map(\.event) == [.failed(.write(reg: 0x02, value: 0x0DB), .remoteIO),
                                                 .write(reg: 0x02, value: 0x0DB)])
        #expect(first.exchanges.map(\.wire) == [Self.controlWord(0x02, 0x0DB), Self.controlWord(0x02, 0x0DB)])
        #expect(transcript.exchanges.map(\.event) == rig.model.bus.trace)
    }

    @Test func anSGTL5000ResetShowsTheIdentificationReadsBeforeItsRecipe() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        codec.transcript = CodecTranscript()
        try codec.reset()
        let transcript = try #require(codec.transcript)
        // CHIP_ID (0x0000) part 0xA0 revision 0x11, then CHIP_ANA_POWER (0x0030) at its reset value 0x7060
        // (SGTL5000 datasheet, register map): the driver's own reads, ahead of the reset recipe.
        let reads = transcript.entries.prefix(2)
        #expect(reads.allSatisfy { $0.step == nil && $0.recipe == "SGTL5000 reset" })
        #expect(reads.map { $0.exchanges.map(\.event) } == [[.read(reg: 0x0000, value: 0xA011)],
                                                            [.read(reg: 0x0030, value: 0x7060)]])
        // A 16+16 read: the two register bytes written, a repeated start, two value bytes read.
        #expect(reads.first?.exchanges.first?.wire == .writeThenRead([0x00, 0x00], count: 2))
        #expect(transcript.exchanges.map(\.event) == model.bus.trace)
    }

    @Test func aPCM5122PowerUpNamesPagedRegistersAndItsPageSelects() throws {
        let rig = try PCM512xGoldenTraceTests.Rig(.bitClock64)
        try rig.codec.setVolume(-20, output: .line)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        rig.model.bus.clearTrace()
        rig.codec.transcript = CodecTranscript()
        try rig.codec.powerUp()
        let exchanges = try #require(rig.codec.transcript).exchanges
        // As PCM512xGoldenTraceTests.powerUpFromBCLKAt48k: page 1, P1 R2 (virtual 0x102), back to page 0.
        #expect(exchanges.map(\.event) == rig.model.bus.trace)
        #expect(exchanges[1...3].map(\.event) == [.write(reg: 0x000, value: 0x01), .write(reg: 0x102, value: 0x11),
                                                  .write(reg: 0x000, value: 0x00)])
        // On the wire P1 R2 is register 2 (8+8: SMBus write byte data).
        #expect(exchanges[2].wire == .smbusWriteByteData(command: 0x02, value: 0x11))
    }

    @Test func aDriverCollectsNothingUntilAskedTo() throws {
        let rig = try WM8960GoldenTraceTests.Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.powerUp()
        #expect(rig.codec.transcript == nil)
    }
}
