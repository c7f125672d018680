import Testing
@testable import Board

@Suite("Device-tree overlays rendered from board files")
struct BoardOverlayTests {
    func board(_ name: String) throws -> BoardConfig {
        try BoardCatalog(directories: [RepositoryFiles.boardConfigs], includesSimulated: false).board(named: name)
    }

    /// The boards whose codec the appliance programs: every shipped board file except the simulated one.
    @Test func everyShippedHardwareBoardGetsAnOverlayAndTheSimulatedOneNone() throws {
        let names = BoardCatalog(directories: [RepositoryFiles.boardConfigs], includesSimulated: false).entries()
            .compactMap(\.config).filter { (try? BoardOverlay(board: $0)) != nil }.map(\.name)
        #expect(names == ["audioinjector-stereo", "fe-pi-audio", "iqaudio-dacplus", "respeaker-2mic", "rpi-dacplus",
                          "waveshare-wm8960"])
        #expect(throws: BoardOverlayError.self) { try BoardOverlay(board: SimulatedBoard.config) }
    }

    /// Each board file's pcm: names are the card the overlay makes: simple-audio-card,name "appliance" gives ALSA
    /// card id "appliance" (sound/core/init.c keeps the alphanumerics of the name's last word), dai-link 0
    /// playback is PCM device 0, dai-link 1 capture device 1.
    @Test func theBoardFilesNameTheOverlaysCard() throws {
        for entry in BoardCatalog(directories: [RepositoryFiles.boardConfigs], includesSimulated: false).entries() {
            let config = try #require(entry.config)
            guard config.name != "simulated" else { continue }
            #expect(config.pcm.playback == "hw:CARD=appliance,DEV=0", "\(config.name)")
            if let capture = config.pcm.capture { #expect(capture == "hw:CARD=appliance,DEV=1", "\(config.name)") }
        }
    }

    /// The Waveshare HAT: the WM8960 provides the clocks (Waveshare's overlay makes it bit- and frame-clock
    /// master), two 32-bit slots, both directions.
    @Test func aCodecProviderBoardPointsTheMastersAtTheCodecAndPinsTwo32BitSlots() throws {
        let source = try BoardOverlay(board: board("waveshare-wm8960")).source
        #expect(source.contains("/plugin/;"))
        #expect(source.contains("target = <&i2s>;") && source.contains("target = <&i2c1>;"))
        // BSC1's node in Debian's bcm2837-rpi-3-b, bcm2711-rpi-4-b and bcm2837-rpi-zero-2-w trees (__symbols__ i2c1).
        #expect(source.contains("i2c1 = \"/soc/i2c@7e804000\";"), "the alias that makes it /dev/i2c-1")
        #expect(source.contains("compatible = \"simple-audio-card\";"))
        #expect(source.contains("simple-audio-card,name = \"appliance\";"))
        #expect(source.components(separatedBy: "dai-tdm-slot-width = <32>;").count == 3, "both links pinned")
        #expect(source.components(separatedBy: "dai-tdm-slot-num = <2>;").count == 3)
        #expect(source.contains("bitclock-master = <&appliance_playback_codec>;"))
        #expect(source.contains("frame-master = <&appliance_capture_codec>;"))
        #expect(source.contains("compatible = \"linux,spdif-dir\";"))
        #expect(!source.contains("0x1a {") && !source.contains("reg = <0x1a>"), "nothing claims the codec's address")
    }

    /// The IQaudio DAC+: the Pi provides the clocks (iqaudio-dac.c: CBS_CFS), and a DAC has no capture link.
    @Test func aConsumerDACPointsTheMastersAtTheCPUAndHasNoCaptureLink() throws {
        let source = try BoardOverlay(board: board("iqaudio-dacplus")).source
        #expect(source.contains("bitclock-master = <&appliance_playback_cpu>;"))
        #expect(source.contains("frame-master = <&appliance_playback_cpu>;"))
        #expect(!source.contains("dai-link@1") && !source.contains("spdif-dir"))
    }

    /// The Audio Injector's WM8731 in USB mode drives BCLK at 12 MHz: at 48 kHz a frame is 250 bit clocks (the
    /// machine driver's bclk_ratio 250), so two slots of 125 (bcm2835-i2s's set_bclk_ratio: slot_width = ratio/2).
    @Test func aFixedBitClockIsPinnedAsTheMachineDriversBclkRatioAt48kHz() throws {
        let overlay = try BoardOverlay(board: board("audioinjector-stereo"))
        #expect(overlay.slots.count == 2 && overlay.slots.width == 125)
        #expect(overlay.source.contains("dai-tdm-slot-width = <125>;"))
        // 44.1 kHz: 12 MHz / 44100 = 272.1, the driver's bclk_ratio 272 for 44100.
        #expect(try BoardOverlay(board: board("audioinjector-stereo"), rate: 44_100).slots.width == 136)
    }

    @Test func aBoardThatNamesAnotherCardOrTheKernelsDriverGetsNoOverlay() throws {
        var other = try board("fe-pi-audio")
        other.pcm.playback = "hw:CARD=Audio,DEV=0"
        #expect(throws: BoardOverlayError(board: "fe-pi-audio",
                                          reason: "pcm.playback is hw:CARD=Audio,DEV=0; the overlay's card plays on hw:CARD=appliance,DEV=0")) {
            try BoardOverlay(board: other)
        }
        var kernel = try board("fe-pi-audio")
        kernel.codec.control = .kernel
        #expect(throws: BoardOverlayError.self) { try BoardOverlay(board: kernel) }
        var plug = try board("fe-pi-audio")
        plug.pcm.playback = "default"
        #expect((try? BoardOverlay(board: plug)) != nil, "a name that is not hw: is the user's own routing")
    }
}
