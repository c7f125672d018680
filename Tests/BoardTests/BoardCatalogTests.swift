import Foundation
import Testing
@testable import Board

@Suite("Board catalog and HAT detection")
struct BoardCatalogTests {
    static let hatBoard = """
    name: hat-board
    description: a board with an ID EEPROM
    hat:
      vendor: Example Audio Ltd
      product: Example DAC
    codec:
      chip: pcm5122
      address: 0x4d
      mclk: bclk
    pcm:
      playback: default
    volume:
      max-db: 0
    """

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func detectsTheBoardWhoseHATBlockMatchesTheEEPROMStrings() throws {
        let directory = try RepositoryFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let boards = directory + "/boards", root = directory + "/root"
        try FileManager.default.createDirectory(atPath: boards, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/proc/device-tree/hat", withIntermediateDirectories: true)
        try write(Self.hatBoard, to: boards + "/hat-board.yaml")
        let catalog = BoardCatalog(directories: [boards])

        #expect(HATDetector(root: root).identity() == nil, "no EEPROM strings: no HAT")
        #expect(catalog.detect(using: HATDetector(root: root)) == nil)

        try write("Example Audio Ltd\0", to: root + "/proc/device-tree/hat/vendor")
        try write("Example DAC\0", to: root + "/proc/device-tree/hat/product")
        #expect(HATDetector(root: root).identity() == HATIdentity(vendor: "Example Audio Ltd", product: "Example DAC"))
        #expect(catalog.detect(using: HATDetector(root: root + "/"))?.name == "hat-board")

        try write("Other DAC\0", to: root + "/proc/device-tree/hat/product")
        #expect(catalog.detect(using: HATDetector(root: root)) == nil)
    }

    @Test func theShippedRaspberryPiDACPlusIsFoundByItsEEPROM() throws {
        let root = try RepositoryFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/proc/device-tree/hat", withIntermediateDirectories: true)
        // What the HAT's EEPROM puts in the device tree (the firmware copies vendor and product strings).
        try write("Raspberry Pi Ltd.\0", to: root + "/proc/device-tree/hat/vendor")
        try write("Raspberry Pi DAC Plus\0", to: root + "/proc/device-tree/hat/product")
        let board = BoardCatalog(directories: [RepositoryFiles.boardConfigs]).detect(using: HATDetector(root: root))
        #expect(board?.name == "rpi-dacplus")
        #expect(board?.codec.chip == .pcm5122 && board?.pcm.playback == "hw:CARD=appliance,DEV=0")
    }

    @Test func listsFilesThenTheBuiltInBoardAndFindsByNameOrPath() throws {
        let directory = try RepositoryFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(Self.hatBoard, to: directory + "/hat-board.yaml")
        try write("name: broken\n", to: directory + "/broken.yaml")
        try write("not a board", to: directory + "/notes.txt")
        let catalog = BoardCatalog(directories: [directory, directory + "/missing"])
        let entries = catalog.entries()
        #expect(entries.map(\.name) == ["broken", "hat-board", "simulated"])
        #expect(entries[0].config == nil)
        #expect(entries[2].file == nil)
        #expect(try catalog.board(named: "hat-board").codec.address == 0x4d)
        #expect(try catalog.board(named: "simulated") == SimulatedBoard.config)
        #expect(try catalog.board(nameOrPath: directory + "/hat-board.yaml").name == "hat-board")
        #expect(throws: BoardCatalogError.self) { try catalog.board(named: "hat-bord") }
        do throws(BoardCatalogError) {
            _ = try catalog.board(named: "hat-bord")
        } catch {
            #expect(error.description.hasPrefix("unknown board 'hat-bord'; did you mean hat-board? (known boards: broken, hat-board, simulated;"))
        }
        do throws(BoardCatalogError) {
            _ = try catalog.board(named: "broken")
            Issue.record("a broken board loaded")
        } catch {
            guard case .invalid(let errors) = error else { Issue.record("\(error)"); return }
            #expect(errors.errors.count == 4)   // description, codec, pcm, volume missing
        }
        do throws(BoardCatalogError) {
            _ = try BoardCatalog.load(path: directory + "/none.yaml")
        } catch {
            #expect(error.description == "cannot read '\(directory)/none.yaml': no such file or directory")
        }
        let huge = directory + "/huge.yaml"
        FileManager.default.createFile(atPath: huge, contents: Data(repeating: 0x23, count: (1 << 20) + 1))
        do throws(BoardCatalogError) {
            _ = try BoardCatalog.load(path: huge)
            Issue.record("loaded a file over 1 MiB")
        } catch {
            #expect(error.description == "cannot read '\(huge)': larger than 1 MiB, not a board file")
        }
    }

    @Test func aFileOverridesTheBuiltInSimulatedBoard() {
        let catalog = BoardCatalog(directories: [RepositoryFiles.boardConfigs])
        let simulated = catalog.entries().filter { $0.name == "simulated" }
        #expect(simulated.count == 1)
        #expect(simulated.first?.file == RepositoryFiles.boardConfigs + "/simulated.yaml")
        #expect(BoardCatalog(directories: [], includesSimulated: false).entries().isEmpty)
    }

    @Test func searchPathOrder() {
        #expect(BoardCatalog.standardDirectories(explicit: "/x", environment: "/a:/b") ==
                ["/x", "/a", "/b", "board-configs", "/usr/share/appliance/board-configs"])
        #expect(BoardCatalog.standardDirectories(explicit: nil, environment: nil) ==
                ["board-configs", "/usr/share/appliance/board-configs"])
    }
}
