import HAL

/// Why a board file or directory could not be read.
public struct BoardFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read '\(path)': \(reason)" }
}

/// The few file-system calls the board catalog needs, through HAL's System layer, with the catalog's wording.
enum BoardFiles {
    /// The whole file as UTF-8 text.
    static func read(_ path: String) throws(BoardFileError) -> String {
        do throws(SystemError) {
            return String(decoding: try FileSystem.contents(of: path, limit: 1 << 20), as: UTF8.self)
        } catch where error.errno == .fileTooLarge {
            throw BoardFileError(path: path, reason: "larger than 1 MiB, not a board file")
        } catch {
            throw BoardFileError(path: path, reason: errnoText(error.errno))
        }
    }

    /// The names in a directory, sorted; nil when it does not exist or is not a directory.
    static func list(_ directory: String) -> [String]? {
        FileSystem.entries(in: directory)
    }

    static func isRegularFile(_ path: String) -> Bool {
        FileStatus.of(path)?.kind == .regular
    }

    static func environment(_ name: String) -> String? {
        CurrentProcess.environment(name)
    }

    static func errnoText(_ code: Errno) -> String {
        switch code {
        case .noSuchFile: "no such file or directory"
        case .permissionDenied: "permission denied"
        case .isDirectory: "is a directory"
        default: code.message
        }
    }
}
