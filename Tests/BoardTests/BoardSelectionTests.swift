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

    /// A file saved on Windows: every line ends in CRLF, and the overlay line has no parameters after its name.
    @Test func aFileWithWindowsLineEndingsIsReadLineByLine() throws {
        let text = "# the board: one line\r\ndtparam=audio=off\r\ndtoverlay=appliance-fe-pi-audio\r\n"
        let choice = try choose(boot: text)
        #expect(choice.config.name == "fe-pi-audio")
        #expect(choice.source == .bootConfig(path: Self.boot, line: 3))
    }

    /// config.txt's conditional filters (Raspberry Pi documentation, "Conditional filters"): `[none]` applies to
    /// no board, until `[all]`.
    @Test func aLineUnderTheNoneFilterIsReadByNoBoard() throws {
        let text = "[none]\ndtoverlay=appliance-fe-pi-audio\n[all]\ndtoverlay=appliance-waveshare-wm8960\n"
        #expect(BoardSelection.overlayLine(in: text)?.board == "waveshare-wm8960")
        #expect(BoardSelection.overlayLine(in: text)?.line == 4)
    }

    /// The firmware loads only the EEPROM's own overlay when appliance.txt names none: the generic card the
    /// board's PCM names is then missing, which is said before the PCM fails to open.
    @Test func aHATWhoseOverlayIsNotLoadedIsToldToAddTheLine() throws {
        #expect(throws: BoardSelectionError.overlayNotLoaded(board: "rpi-dacplus", hat: Self.dacPlus, bootConfig: Self.boot)) {
            try BoardSelection.choose(localFile: nil, bootConfig: SourceText(path: Self.boot, text: "dtparam=i2c_arm=on\n"),
                                      hat: Self.dacPlus, overlayLoaded: false, entries: Self.entries)
        }
        let error = BoardSelectionError.overlayNotLoaded(board: "rpi-dacplus", hat: Self.dacPlus, bootConfig: Self.boot)
        #expect(error.description == "the HAT EEPROM says \"Raspberry Pi Ltd. Raspberry Pi DAC Plus\" (board rpi-dacplus), "
            + "but its overlay is not loaded: put the line 'dtoverlay=appliance-rpi-dacplus' in \(Self.boot) and reboot")
        let loaded = try BoardSelection.choose(localFile: nil, bootConfig: nil, hat: Self.dacPlus, overlayLoaded: true,
                                               entries: Self.entries)
        #expect(loaded.config.name == "rpi-dacplus")
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
