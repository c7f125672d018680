import Foundation

/// Runs a program the way the tests need (a reference tool such as sox or ffmpeg, or the appliance binary) and
/// captures what it prints.
///
/// Output goes to temporary files, not pipes: swift-corelibs-foundation's `readDataToEndOfFile` traps when a
/// read is interrupted by a signal (EINTR), which happens when tests run in parallel, and a child that fills
/// one pipe while the test drains the other could stall.
public enum Subprocess {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` with `arguments`, standard input empty, and waits for it.
    public static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let stdoutURL = directory.appendingPathComponent("subprocess-\(UUID().uuidString).out")
        let stderrURL = directory.appendingPathComponent("subprocess-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: stdoutURL.path, contents: nil),
              FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        else { throw Failure(description: "cannot create output files in \(directory.path)") }
        defer {
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }
        let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
        let stderrHandle = try FileHandle(forWritingTo: stderrURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        try process.run()
        process.waitUntilExit()
        try stdoutHandle.close()
        try stderrHandle.close()
        return Result(status: process.terminationStatus,
                      stdout: try Data(contentsOf: stdoutURL),
                      stderr: try Data(contentsOf: stderrURL))
    }

    /// Runs `executable` and throws, with its stderr, unless it exits 0; returns its stdout.
    @discardableResult
    public static func check(_ executable: String, _ arguments: [String]) throws -> Data {
        let result = try run(executable, arguments)
        guard result.status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderrText)")
        }
        return result.stdout
    }
}
