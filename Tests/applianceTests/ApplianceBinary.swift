import Foundation

/// Runs the built `appliance` executable as a user would, and captures what it prints.
///
/// The binary is looked up, in order: `$APPLIANCE_BINARY`; next to the running test bundle (SwiftPM puts
/// `appliance` and the `.xctest` in the same products directory, for `swift test` on the host and for a
/// cross-built test run alike); the directory of `Bundle.main`.
enum ApplianceBinary {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: true) }
    }

    static let url: URL? = {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["APPLIANCE_BINARY"], fileManager.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("appliance")
            if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    static func run(_ arguments: [String]) throws -> Result {
        guard let url else { throw LocateError() }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read the pipes before waiting, so a full stdout pipe cannot stall the child (stderr is one line).
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }

    struct LocateError: Error, CustomStringConvertible {
        var description: String { "cannot find the appliance binary next to the tests; set APPLIANCE_BINARY" }
    }
}
