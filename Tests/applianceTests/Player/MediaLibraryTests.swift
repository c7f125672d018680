import Foundation
import TestSupport
import Testing
@testable import appliance

/// The media directory as a sandbox (issue 13 Deliver 2: "it only ever opens files inside the media
/// directory (symlinks resolved and checked)"; Deliver 6: "paths outside the media directory get an ERR and
/// change nothing"), and its listings.
@Suite("Media library")
struct MediaLibraryTests {
    let root = PlayerDirectory()
    let outside = PlayerDirectory()

    func library() -> MediaLibrary {
        root.makeDirectory("media")
        root.makeDirectory("recordings")
        return MediaLibrary(mediaDirectory: root.file("media"), recordingsDirectory: root.file("recordings"))
    }

    func wav(_ path: String, seconds: Double = 0.5) throws {
        try sox(["-n", "-r", "8000", "-c", "1", "-b", "16", path, "synth", "\(seconds)", "sine", "440"])
    }

    func code(_ body: () throws -> Void) -> ConsoleErrorCode? {
        do { try body(); return nil } catch { return (error as? PlayerError)?.code ?? .internal }
    }

    @Test func pathsThatLeadOutAreDenied() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let library = library()
        try wav(outside.file("secret.wav"))
        try wav(root.file("media/song.wav"))
        try root.link("media/out.wav", to: outside.file("secret.wav"))        // a link pointing out
        try root.link("media/outdir", to: outside.path)                      // a folder link pointing out
        try root.link("media/in.wav", to: "song.wav")                        // a relative link, pointing inside
        try root.link("media/absin.wav", to: root.file("media/song.wav"))   // an absolute one, pointing inside
        #expect(code { _ = try library.resolve("out.wav") } == .denied)
        #expect(code { _ = try library.resolve("outdir/secret.wav") } == .denied)
        #expect(code { _ = try library.resolve("../recordings") } == .denied)
        #expect(code { _ = try library.resolve("sub/../song.wav") } == .denied, "any '..' is refused")
        #expect(code { _ = try library.resolve(outside.file("secret.wav")) } == .denied, "absolute path")
        #expect(code { _ = try library.resolve("/etc/passwd") } == .denied)
        #expect(code { _ = try library.resolve("missing.wav") } == .notFound)
        // openat2(2) RESOLVE_BENEATH refuses absolute links, even those pointing inside.
        #expect(code { _ = try library.resolve("absin.wav") } == .denied)
        // A NUL would cut the path short in the C call: refused, as any control character.
        #expect(code { _ = try library.resolve("song.wav\u{0}/../../etc/passwd") } == .denied)
        #expect(code { _ = try library.resolve("song\n.wav") } == .denied)
        // NAME_MAX is 255 bytes (limits.h); PATH_MAX 4096.
        #expect(code { _ = try library.resolve(String(repeating: "n", count: 256)) } == .usage)
        #expect(code { _ = try library.resolve(String(repeating: "d/", count: 2100)) } == .usage)
        let inside = try library.resolve("in.wav")
        #expect(inside.path == root.file("media/song.wav") && inside.name == "in.wav" && !inside.isDirectory)
        #expect(try library.resolve("./song.wav").name == "song.wav")
        // Listings leave the links that point out out.
        #expect(try library.list(nil).map(\.name) == ["in.wav", "song.wav"])
    }

    @Test func listsPlayableFilesInNaturalOrderWithDurationsAndTheRecordings() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let library = library()
        root.makeDirectory("media/Album")
        for name in ["track10.wav", "track2.wav", "Track1.aiff", "notes.txt", ".hidden.wav"] {
            if name.hasSuffix(".txt") { FileManager.default.createFile(atPath: root.file("media/" + name), contents: Data("x".utf8)) }
            else { try wav(root.file("media/" + name), seconds: 1.5) }
        }
        try wav(root.file("recordings/2026-11-24 19.00.00.wav"), seconds: 2)
        let entries = try library.list(nil)
        // Natural order: numbers as numbers, case ignored ("Track1" < "track2" < "track10").
        #expect(entries.map(\.name) == ["Album/", "Track1.aiff", "track2.wav", "track10.wav",
                                        "recordings/2026-11-24 19.00.00.wav"])
        // sox wrote 1.5 s at 8000 Hz = 12000 frames; the duration is frames / rate.
        #expect(entries[1].duration == 1.5 && entries[4].duration == 2)
        #expect(try library.playlist(for: nil) == ["Track1.aiff", "track2.wav", "track10.wav"])
        #expect(try library.playlist(for: "recordings") == ["recordings/2026-11-24 19.00.00.wav"])
        #expect(code { _ = try library.playlist(for: "Album") } == .notFound, "an empty folder has nothing to play")
        #expect(code { _ = try library.playlist(for: "notes.txt") } == .usage)
    }

    @Test func removeTakesFilesButNotFoldersNorTheRecordingInProgress() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        var library = library()
        try wav(root.file("media/old.wav"))
        try wav(root.file("recordings/now.wav"))
        let recordingPath = root.file("recordings/now.wav")
        library.isRecording = { $0 == recordingPath }
        #expect(code { _ = try library.remove("recordings/now.wav") } == .state)
        #expect(FileManager.default.fileExists(atPath: recordingPath))
        #expect(code { _ = try library.remove("recordings") } == .usage)
        #expect(code { _ = try library.remove("") } == .usage)
        #expect(try library.remove("old.wav").name == "old.wav")
        #expect(!FileManager.default.fileExists(atPath: root.file("media/old.wav")))
        #expect(code { _ = try library.remove("old.wav") } == .notFound)
    }
}
