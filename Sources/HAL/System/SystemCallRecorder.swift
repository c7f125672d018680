import Synchronization

/// A seam for tests: while recording, the wrappers in `Syscalls` log the calls whose order decides what a
/// power cut leaves behind (open, write, fsync, close, rename, unlink). Off, it costs one relaxed load a call.
/// The log is process-wide: a test keeps the calls on its own paths (`calls(under:)`).
enum SystemCallRecorder {
    /// A call as the kernel saw it; descriptors are resolved to paths by `calls(under:)`.
    enum Call: Equatable, Sendable {
        case open(path: String, descriptor: Int32)
        case write(descriptor: Int32)
        case fsync(descriptor: Int32)
        case close(descriptor: Int32)
        case rename(from: String, to: String)
        case unlink(path: String)
    }

    /// A call on a path: what a test compares.
    enum PathCall: Equatable, Sendable, CustomStringConvertible {
        case open(String)
        case write(String)
        case fsync(String)
        case close(String)
        case rename(String, String)
        case unlink(String)

        var description: String {
            switch self {
            case .open(let path): "open(\(path))"
            case .write(let path): "write(\(path))"
            case .fsync(let path): "fsync(\(path))"
            case .close(let path): "close(\(path))"
            case .rename(let from, let to): "rename(\(from), \(to))"
            case .unlink(let path): "unlink(\(path))"
            }
        }
    }

    private static let active = Atomic<Int>(0)
    private static let log = Mutex<[Call]>([])

    static func note(_ call: Call) {
        guard active.load(ordering: .relaxed) > 0 else { return }
        log.withLock { $0.append(call) }
    }

    /// Runs `body` with recording on (nested and concurrent recorders share the one log) and returns its calls
    /// on paths that start with `prefix` (`pathCalls`).
    static func recording(under prefix: String, _ body: () throws -> Void) rethrows -> [PathCall] {
        let start = log.withLock { $0.count }
        active.add(1, ordering: .relaxed)
        defer { active.subtract(1, ordering: .relaxed) }
        try body()
        return pathCalls(log.withLock { Array($0[start...]) }, under: prefix)
    }

    /// The calls on paths that start with `prefix`, descriptors resolved through the opens seen, consecutive
    /// writes to one file folded into one (also for traces taken from outside, such as strace's).
    static func pathCalls(_ calls: [Call], under prefix: String) -> [PathCall] {
        var paths: [Int32: String] = [:]
        var result: [PathCall] = []
        func keep(_ call: PathCall, _ path: String?) {
            guard let path, path.hasPrefix(prefix) else { return }
            if case .write = call, result.last == call { return }
            result.append(call)
        }
        for call in calls {
            switch call {
            case let .open(path, descriptor):
                guard descriptor >= 0 else { continue }
                paths[descriptor] = path
                keep(.open(path), path)
            case let .write(descriptor):
                keep(.write(paths[descriptor] ?? ""), paths[descriptor])
            case let .fsync(descriptor):
                keep(.fsync(paths[descriptor] ?? ""), paths[descriptor])
            case let .close(descriptor):
                keep(.close(paths[descriptor] ?? ""), paths[descriptor])
                paths[descriptor] = nil
            case let .rename(from, to):
                keep(.rename(from, to), from)
            case let .unlink(path):
                keep(.unlink(path), path)
            }
        }
        return result
    }
}
