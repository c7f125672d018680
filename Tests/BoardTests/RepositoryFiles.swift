import Foundation
import TestSupport

/// Paths of the repository's own files, found from this source file (tests run from any directory).
enum RepositoryFiles {
    /// The repository root.
    static let root = SourceTree.root()

    static let boardConfigs = root + "/board-configs"
    static let brokenFixtures = root + "/Tests/BoardTests/Fixtures/broken"

    static func yamlFiles(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// A fresh temporary directory; the caller removes it.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "board-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
