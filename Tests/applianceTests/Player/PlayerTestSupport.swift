import Foundation
import TestSupport

/// A fresh directory per test (its real path: /tmp may itself be a link), removed at the end.
final class PlayerDirectory {
    let path: String
    init() {
        let made = NSTemporaryDirectory() + "player-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        path = URL(fileURLWithPath: made).resolvingSymlinksInPath().path
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func makeDirectory(_ name: String) {
        try? FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
    }

    func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: file(name), withDestinationPath: target)
    }
}

/// Runs sox (the reference tool); throws with its stderr on failure.
@discardableResult
func sox(_ arguments: [String]) throws -> Data {
    try Subprocess.check("/usr/bin/sox", arguments)
}

let soxAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/sox")
