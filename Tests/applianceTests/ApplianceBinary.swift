import Foundation

/// Runs the built `appliance` executable as a user would, and captures what it prints.
///
/// The binary is looked up, in order: `$APPLIANCE_BINARY`; next to the running test executable (SwiftPM puts
/// `appliance` and the `.xctest` in the same products directory, for `swift test` on the host and for a
/// cross-built test run under qemu alike), found through `/proc/self/exe` and then `argv[0]`.
/// (Only plain file APIs: `Bundle` lookups crash in swift-corelibs-foundation 6.0.3 under a bare environment.)
///
/// `$APPLIANCE_LAUNCHER`, when set, runs the binary: the aarch64 test run under qemu-user sets it to
/// `qemu-aarch64-static`, because the kernel cannot start an aarch64 child by itself there.
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
        var executables: [String] = []
        if let exe = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") { executables.append(exe) }
        if let first = CommandLine.arguments.first { executables.append(first) }
        for executable in executables {
            guard let slash = executable.lastIndex(of: "/") else { continue }
            let candidate = String(executable[..<slash]) + "/appliance"
            if fileManager.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }()

    static func run(_ arguments: [String]) throws -> Result {
        guard let url else { throw LocateError() }
        let process = Process()
        if let launcher = ProcessInfo.processInfo.environment["APPLIANCE_LAUNCHER"], !launcher.isEmpty {
            process.executableURL = URL(fileURLWithPath: launcher)
            process.arguments = [url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
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
