import Foundation
import HAL
import Testing
@testable import appliance

struct SettingsStoreTests {
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "appliance-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func noFileMeansDefaultsAndNoProblem() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loaded = SettingsStore(path: directory + "/settings.json").load()
        #expect(loaded.settings == ApplianceSettings())
        #expect(loaded.problem == nil)
    }

    @Test func theHeadphoneCapIsReadBack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SettingsStore(path: directory + "/settings.json")
        var settings = ApplianceSettings()
        settings.headphoneCapDB = -12.5
        try store.save(settings)
        #expect(store.load().settings.headphoneCapDB == -12.5)
    }

    /// Huge and out-of-range numbers in a hand-edited file: each replaced by its default and reported, none
    /// trapping later (the recorder converts seconds to Int64 frames; 1e300 s does not fit).
    @Test func outOfRangeNumbersAreReplacedByTheirDefaultsAndReported() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SettingsStore(path: directory + "/settings.json")
        let json = """
            {"volumeDB": {"speaker": 1e300, "headphones": -20}, "headphoneCapDB": 123456789012345678901,
             "positions": {"a.wav": 1e300, "b.wav": -5, "c.wav": 12.5},
             "replayGainPreampDB": 40,
             "recording": {"preRollSeconds": 1e300, "splitSeconds": 123456789012345678901, "voxHangSeconds": -1,
                           "voxThresholdDB": 1e300, "container": "mp3", "bitRate": 1000000}}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: store.path))
        let loaded = store.load()
        let defaults = ApplianceSettings()
        #expect(loaded.settings.volumeDB == ["headphones": -20])
        #expect(loaded.settings.headphoneCapDB == defaults.headphoneCapDB)
        #expect(loaded.settings.positions == ["c.wav": 12.5])
        #expect(loaded.settings.recording == defaults.recording)
        #expect(loaded.settings.replayGainPreampDB == 0)
        let problem = try #require(loaded.problem)
        for name in ["volumeDB[speaker]", "headphoneCapDB", "positions[a.wav]", "positions[b.wav]", "recording.preRollSeconds",
                     "recording.splitSeconds", "recording.voxHangSeconds", "recording.voxThresholdDB",
                     "replayGainPreampDB", "recording.container 'mp3'", "recording.bitRate 1000000"] {
            #expect(problem.contains(name), "\(name) reported")
        }
        // The file stays (it was valid JSON): only the values were replaced.
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    /// Only a missing file or a corrupt one (moved aside) may be replaced; one that cannot be read (here a
    /// symbolic link to itself: open(2) fails with ELOOP, which root cannot get past as it can chmod 000)
    /// must survive.
    @Test func onlyAMissingOrCorruptFileMayBeReplaced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/settings.json"
        #expect(SettingsStore(path: path).load().mayReplace)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(SettingsStore(path: path).load().mayReplace)
        try FileManager.default.removeItem(atPath: directory + "/settings.json.corrupt-1")
        #expect(symlink(path, path) == 0)
        let unreadable = SettingsStore(path: path).load()
        #expect(!unreadable.mayReplace)
        #expect(unreadable.problem?.contains("will not be saved") == true, "\(unreadable.problem ?? "nil")")
    }

    @Test func savedSettingsComeBackAndTheFileIsJSONWithTheFieldNames() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SettingsStore(path: directory + "/settings.json")
        var settings = ApplianceSettings()
        settings.volumeDB = ["headphones": -20.5, "speaker": -6]
        settings.eqPreset = "rock"
        settings.positions = ["talks/long.wav": 1234.5]
        settings.repeatMode = .all
        settings.recording.splitBytes = 1 << 30
        settings.replayGain = .album
        settings.replayGainPreampDB = 3
        settings.recording.container = "flac"
        settings.recording.bitRate = 96_000
        try store.save(settings)
        #expect(store.load().settings == settings)
        // Read back with Foundation's own JSON parser, not ours.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.path))) as? [String: Any])
        #expect(object["eqPreset"] as? String == "rock")
        #expect(object["replayGain"] as? String == "album")
        #expect((object["recording"] as? [String: Any])?["container"] as? String == "flac")
        #expect((object["volumeDB"] as? [String: Double])?["headphones"] == -20.5)
        // No temporary file left beside it (AtomicFile renamed it).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["settings.json"])
    }

    /// An older file with fewer keys loads: the missing ones take their defaults, unknown ones are ignored.
    @Test func aFileWithMissingAndUnknownKeysLoads() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/settings.json"
        try Data(#"{"eqPreset": "jazz", "fromTheFuture": 3, "recording": {"bits": 16}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = SettingsStore(path: path).load()
        var expected = ApplianceSettings()
        expected.eqPreset = "jazz"
        expected.recording.bits = 16
        #expect(loaded.settings == expected)
        #expect(loaded.problem == nil)
    }

    /// Corrupt files are moved aside under the next free number, kept byte for byte, and reported.
    @Test func aCorruptFileIsKeptAsideAndDefaultsAreUsed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/settings.json"
        let store = SettingsStore(path: path)
        let garbage = Data([0x7b, 0x22, 0x65, 0x71, 0xff, 0x00])  // `{"eq` and two bytes that are not JSON
        try garbage.write(to: URL(fileURLWithPath: path))
        let first = store.load()
        #expect(first.settings == ApplianceSettings())
        #expect(first.problem?.contains("kept as \(path).corrupt-1") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt-1")) == garbage)
        #expect(!FileManager.default.fileExists(atPath: path))
        try Data(#"{"muted": "yes"}"#.utf8).write(to: URL(fileURLWithPath: path))  // a string where a Bool belongs
        let second = store.load()
        #expect(second.settings == ApplianceSettings())
        #expect(second.problem?.contains("muted") == true)
        #expect(FileManager.default.fileExists(atPath: path + ".corrupt-2"))
    }
}
