import Foundation
import TestSupport

/// Runs the built `appliance` executable as a user would, and captures what it prints.
///
/// The binary is `$APPLIANCE_BINARY` when that is set (the release build, for `make test-release`); else it is
/// looked up next to the running test executable (SwiftPM puts
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
        var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    static let url: URL? = {
        let fileManager = FileManager.default
        // A binary named explicitly is the one under test (`make test-release`): never fall back to another.
        if let path = ProcessInfo.processInfo.environment["APPLIANCE_BINARY"] {
            return fileManager.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
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
        let result: Subprocess.Result
        if let launcher = ProcessInfo.processInfo.environment["APPLIANCE_LAUNCHER"], !launcher.isEmpty {
            result = try Subprocess.run(launcher, [url.path] + arguments)
        } else {
            result = try Subprocess.run(url.path, arguments)
        }
        return Result(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
    }

    struct LocateError: Error, CustomStringConvertible {
        var description: String {
            if let path = ProcessInfo.processInfo.environment["APPLIANCE_BINARY"] {
                return "APPLIANCE_BINARY names \(path), which is not an executable file"
            }
            return "cannot find the appliance binary next to the tests; set APPLIANCE_BINARY"
        }
    }
}
