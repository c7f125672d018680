import Testing
@testable import HAL

@Suite("WM8960 routes, standby and failures")
struct WM8960RouteTests {
    static func poweredCodec(mclk: Int = 12_288_000) throws -> (WM8960Model, WM8960, ManualClock) {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: mclk)
        let clock = ManualClock(skipsSleeps: true)
        let codec = WM8960(bus: model.bus, clock: clock, mclk: mclk)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.setVolume(-20, output: .headphones)
        try codec.setVolume(-12, output: .speaker)
        try codec.powerUp()
        model.bus.clearTrace()
        return (model, codec, clock)
    }

    @Test func switchingToTheSpeakerMutesAndPowersDownTheHeadphonesFirst() throws {
        let (model, codec, _) = try Self.poweredCodec()
        try codec.select(output: .speaker)
        #expect(model.bus.trace == [
            .write(reg: 0x02, value: 0x080),  // R2 headphones to mute at a zero crossing
            .write(reg: 0x03, value: 0x180),  // R3 ... with the update bit
            .write(reg: 0x1A, value: 0x180),  // R26 LOUT1/ROUT1 off
            .write(reg: 0x1A, value: 0x198),  // R26 SPKL/SPKR on
            .write(reg: 0x31, value: 0x0F7),  // R49 SPK_OP_EN both channels
            .write(reg: 0x28, value: 0x0ED),  // R40 SPKLZC | 0x6D = -12 dB
            .write(reg: 0x29, value: 0x1ED),  // R41 SPKVU | SPKLZC | 0x6D
            .write(reg: 0x0A, value: 0x0FF),  // R10 DAC 0 dB (written again: the new output's stage)
            .write(reg: 0x0B, value: 0x1FF),  // R11 DACVU
        ])
        let state = model.state
        #expect(state.speakerPowered && !state.headphonesPowered)
        #expect(state.level(.speaker) == -12 && state.level(.headphones) == nil)
        #expect(throws: CodecError.self) { try codec.select(output: .line) }
    }

    @Test func standbyKeepsVMIDChargedAndWakeRestoresTheLevel() throws {
        let (model, codec, clock) = try Self.poweredCodec()
        let before = clock.now
        try codec.standby()
        var state = model.state
        #expect(codec.powerState == .standby)
        #expect(state.vmid == .lowPower && state.vref && !state.dacPowered && !state.headphonesPowered)
        #expect(clock.now - before == .milliseconds(11), "only the soft-mute ramp, no VMID discharge")
        try codec.wake()
        state = model.state
        #expect(codec.powerState == .on && state.vmid == .playback)
        #expect(state.level(.headphones) == -20)
    }

    @Test func microphoneInputSetsPathPGAAndBias() throws {
        let (model, codec, _) = try Self.poweredCodec()
        let gain = try codec.select(input: .microphone, micBias: true, pgaGainDB: 12.1)
        #expect(gain == 12)  // nearest 0.75 dB step: code 0x27
        #expect(model.bus.trace == [
            .write(reg: 0x20, value: 0x108),  // R32 LMN1 | LMIC2B: LINPUT1 into the PGA, PGA into the boost mixer
            .write(reg: 0x21, value: 0x108),  // R33 the same on the right
            .write(reg: 0x00, value: 0x067),  // R0 LIZC | 0x27 (+12 dB), unmuted
            .write(reg: 0x01, value: 0x167),  // R1 IPVU | LIZC | 0x27
            .write(reg: 0x2F, value: 0x03C),  // R47 LMIC, RMIC on (mixers kept)
            .write(reg: 0x19, value: 0x0FE),  // R25 AINL, AINR, ADCL, ADCR, MICB (VMID, VREF kept)
        ])
        let state = model.state
        #expect(state.inputPGAdB == 12 && state.adcPowered && state.micBias)
        #expect(throws: CodecError.self) { try codec.select(input: .headsetMicrophone, micBias: true, pgaGainDB: 0) }
    }

    /// Selected while off, the input waits for power-up, and power-down turns it off with the rest.
    @Test func anInputSelectedWhileOffComesUpWithPower() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 16_000))
        model.bus.clearTrace()
        #expect(try codec.select(input: .line, micBias: false, pgaGainDB: 0) == 0)
        #expect(model.bus.trace.isEmpty)
        try codec.powerUp()
        #expect(model.state.inputPGAdB == 0 && model.state.adcPowered && !model.state.micBias)
        #expect(model.bus.registerValue(0x20) == 0x088)  // R32 LMP3 | LMIC2B: LINPUT3 into the PGA
        try codec.powerDown()
        #expect(!model.state.adcPowered && model.bus.registerValue(0x2F) == 0x000)
    }

    /// A NACK in the middle of a volume change: the cache keeps what the chip accepted, so a retry sends
    /// what is still missing.
    @Test func aFailedWriteLeavesTheCacheTrue() throws {
        let (model, codec, _) = try Self.poweredCodec()
        model.bus.failTransfers(to: 0x03)
        do {
            try codec.setVolume(-30, output: .headphones)
            Issue.record("the NACK was not reported")
        } catch {
            guard case .transferFailed(_, let step, let i2c) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(step.reason.contains("right"))
            #expect(i2c.errno == .remoteIO)
            #expect(error.description.contains("failed"))
        }
        #expect(codec.registers.cachedValue(0x02) == 0x0DB)  // the left write went through (-30 dB)
        #expect(codec.registers.cachedValue(0x03) == 0x1E5)  // the right still holds -20 dB
        model.bus.clearFailures()
        model.bus.clearTrace()
        try codec.setVolume(-30, output: .headphones)
        #expect(model.bus.trace == [
            .write(reg: 0x02, value: 0x0DB),  // the pair goes out again so the update bit latches both
            .write(reg: 0x03, value: 0x1DB),
        ])
        #expect(model.state.level(.headphones) == -30)
    }

    @Test func capabilitiesDescribeTheChip() throws {
        let (_, codec, _) = try Self.poweredCodec(mclk: 24_000_000)
        let capabilities = codec.capabilities
        #expect(capabilities.hardwareEQ == .none)
        #expect(capabilities.outputs == [.headphones, .speaker])
        #expect(capabilities.outputStages[.headphones]?.map(\.stepDB) == [1, 0.5])
        #expect(capabilities.outputStages[.headphones]?.first?.zeroCross == true)
        #expect(capabilities.inputStages.first?.minimumDB == -17.25)
        #expect(capabilities.sampleRates == WM8960ClockPlan.standardRates)
        #expect(capabilities.jackDetect == .codecSwitchesOutputs && capabilities.micBias)
    }
}
