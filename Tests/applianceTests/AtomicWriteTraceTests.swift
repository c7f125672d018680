import Foundation
@testable import HAL
import TestSupport
import Testing

/// The commands that replace a file (`eq show --svg`, `convert`), watched from outside with strace(1): the
/// kernel's own record of the system calls, not our code's. Expected order from the Linux man pages:
/// fsync(2) — "Calling fsync() does not necessarily ensure that the entry in the directory containing the file
/// has also reached disk. For that an explicit fsync() on a file descriptor for the directory is also needed" —
/// and rename(2), one-step replacement within one file system. So: write the temporary file, fsync it, rename
/// it over the target, fsync the directory. Without the last step a power cut can lose the new file's name.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["APPLIANCE_LAUNCHER"] == nil,
                "strace(1) cannot trace through qemu-user; the host run checks it (image/host-deps.sh installs strace)"))
struct AtomicWriteTraceTests {
    /// Runs the appliance under strace and returns its calls on paths under `directory`, read the way the System
    /// layer's recorder reads its own log (`SystemCallRecorder.pathCalls`).
    func trace(_ arguments: [String], under directory: String) throws -> [SystemCallRecorder.PathCall] {
        guard let strace = straceTool else { throw StraceMissing() }
        guard let binary = ApplianceBinary.url?.path else { throw ApplianceBinary.LocateError() }
        let log = directory + ".strace"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try Subprocess.run(strace, ["-f", "-qq", "-o", log,
                                                 "-e", "trace=openat,open,write,pwrite64,fsync,fdatasync,close,rename,renameat,renameat2",
                                                 binary] + arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        var calls: [SystemCallRecorder.Call] = []
        let quoted = try Regex(#""([^"]*)""#)
        for line in text.split(separator: "\n") {
            // "<pid> name(args)   = result" (strace pads short calls before the "=")
            guard let open = line.firstIndex(of: "("), let equals = line.range(of: " = ", options: .backwards),
                  let close = line[..<equals.lowerBound].lastIndex(of: ")"), open < close else { continue }
            let name = line[..<open].split(separator: " ").last.map(String.init) ?? ""
            let arguments = line[line.index(after: open)..<close]
            let result = Int32(line[equals.upperBound...].split(separator: " ").first ?? "") ?? -1
            let strings = arguments.matches(of: quoted).map { String($0.output[1].substring ?? "") }
            let descriptor = Int32(arguments.split(separator: ",").first ?? "") ?? -1
            switch name {
            case "openat", "open":
                if let path = strings.first { calls.append(.open(path: path, descriptor: result)) }
            case "write", "pwrite64": calls.append(.write(descriptor: descriptor))
            case "fsync", "fdatasync": calls.append(.fsync(descriptor: descriptor))
            case "close": calls.append(.close(descriptor: descriptor))
            case "rename", "renameat", "renameat2":
                if result == 0, strings.count == 2 { calls.append(.rename(from: strings[0], to: strings[1])) }
            default: continue
            }
        }
        return SystemCallRecorder.pathCalls(calls, under: directory)
    }

    func outputDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "appliance-atomic-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func expected(_ directory: String, temporary: String, target: String) -> [SystemCallRecorder.PathCall] {
        [.open(temporary), .write(temporary), .fsync(temporary), .close(temporary), .rename(temporary, target),
         .open(directory), .fsync(directory), .close(directory)]
    }

    @Test func eqShowSVGSyncsTheFileRenamesThenSyncsTheDirectory() throws {
        let directory = try outputDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/rock.svg"
        let calls = try trace(["eq", "show", "rock", "--svg", target], under: directory)
        let temporary = calls.first.flatMap { if case .open(let path) = $0 { path } else { nil } } ?? "?"
        #expect(temporary.hasPrefix(directory + "/.rock.svg.") && temporary.hasSuffix(".tmp"))
        #expect(calls == expected(directory, temporary: temporary, target: target), "\(calls)")
    }

    @Test func convertSyncsTheFileRenamesThenSyncsTheDirectory() throws {
        let input = try outputDirectory()
        defer { try? FileManager.default.removeItem(atPath: input) }
        let source = input + "/in.wav"
        try Subprocess.check("/usr/bin/sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", source, "synth", "0.2", "sine", "440"])
        let directory = try outputDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/out.aiff"
        let calls = try trace(["convert", source, target], under: directory)
        let temporary = calls.first.flatMap { if case .open(let path) = $0 { path } else { nil } } ?? "?"
        #expect(temporary.hasPrefix(directory + "/.out.aiff.") && temporary.hasSuffix(".tmp"))
        #expect(calls == expected(directory, temporary: temporary, target: target), "\(calls)")
    }
}

struct StraceMissing: Error, CustomStringConvertible {
    var description: String { "strace(1) is not installed: run image/host-deps.sh host" }
}

/// strace(1), when installed (not under qemu-user, which it cannot trace through).
private let straceTool: String? = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }
