import Testing
@testable import Board

@Suite("--board auto: local file, appliance.txt, HAT EEPROM")
struct BoardSelectionTests {
    static let entries = BoardCatalog(directories: [RepositoryFiles.boardConfigs]).entries()
    static let boot = "/boot/firmware/appliance.txt"

    static let localBoard = """
    name: my-board
    description: a board adjusted on this machine
    codec:
      chip: pcm5122
      address: 0x4d
      mclk: bclk
    pcm:
      playback: default
    volume:
      max-db: 0
    """

    func choose(local: String? = nil, boot: String? = nil, hat: HATIdentity? = nil) throws -> BoardChoice {
        try BoardSelection.choose(localFile: local.map { SourceText(path: "/etc/appliance/board.yaml", text: $0) },
                                  bootConfig: boot.map { SourceText(path: Self.boot, text: $0) }, hat: hat,
                                  entries: Self.entries)
    }

    static let dacPlus = HATIdentity(vendor: "Raspberry Pi Ltd.", product: "Raspberry Pi DAC Plus")

    @Test func theLocalBoardFileComesFirst() throws {
        let choice = try choose(local: Self.localBoard, boot: "dtoverlay=appliance-fe-pi-audio\n", hat: Self.dacPlus)
        #expect(choice.config.name == "my-board")
        #expect(choice.source == .localFile(path: "/etc/appliance/board.yaml"))
    }

    @Test func thenTheFirstApplianceOverlayLineOfApplianceTxt() throws {
        // config.txt syntax (Raspberry Pi documentation): '#' comment lines, other overlays, parameters after commas.
        let text = """
        # the board: one line
        dtparam=audio=off
        dtoverlay=vc4-kms-v3d
          dtoverlay=appliance-waveshare-wm8960,foo=1\r
        dtoverlay=appliance-fe-pi-audio
        """
        let choice = try choose(boot: text, hat: Self.dacPlus)
        #expect(choice.config.name == "waveshare-wm8960")
        #expect(choice.source == .bootConfig(path: Self.boot, line: 4))
        #expect(choice.explanation == "waveshare-wm8960 (\(Self.boot):4: dtoverlay=appliance-waveshare-wm8960)")
        #expect(BoardSelection.overlayLine(in: "#dtoverlay=appliance-fe-pi-audio\n") == nil, "a comment is no line")
    }

    @Test func thenTheHATEEPROM() throws {
        let choice = try choose(boot: "dtparam=i2c_arm=on\n", hat: Self.dacPlus)
        #expect(choice.config.name == "rpi-dacplus")
        #expect(choice.explanation == "rpi-dacplus (the HAT EEPROM says \"Raspberry Pi Ltd. Raspberry Pi DAC Plus\")")
    }

    @Test func anUnknownBoardIsToldWithItsFileLineAndNearMatch() throws {
        do {
            _ = try choose(boot: "\ndtoverlay=appliance-fe-pi-audoi\n", hat: Self.dacPlus)
            Issue.record("an unknown board was accepted")
        } catch let error as BoardSelectionError {
            let text = error.description
            #expect(text.hasPrefix("\(Self.boot):2: dtoverlay=appliance-fe-pi-audoi names no known board; "
                + "did you mean appliance-fe-pi-audio? (boards: audioinjector-stereo, fe-pi-audio, "))
            #expect(!text.contains("simulated"))
        }
    }

    @Test func nothingChosenSaysWhichFileToEditAndListsTheBoards() throws {
        #expect(throws: BoardSelectionError.noChoice(localFile: "/etc/appliance/board.yaml", bootConfig: Self.boot,
                                                     hat: nil, known: Self.entries.map(\.name).filter { $0 != "simulated" })) {
            try choose()
        }
        let error = BoardSelectionError.noChoice(localFile: "/etc/appliance/board.yaml", bootConfig: Self.boot, hat: nil,
                                                 known: ["a", "b"])
        #expect(error.description == "no board chosen: put one line 'dtoverlay=appliance-BOARD' in \(Self.boot) "
            + "(or a board file at /etc/appliance/board.yaml); no HAT EEPROM; boards: a, b")
    }

    @Test func aBrokenLocalFileIsNotSkipped() throws {
        #expect(throws: BoardSelectionError.self) { try choose(local: "name: x\n", boot: "dtoverlay=appliance-fe-pi-audio") }
    }
}
