/// One board the catalog found: valid or not, so `appliance board list` can show broken files too.
public struct BoardCatalogEntry: Sendable {
    /// The board's `name`, or the file name without `.yaml` when the file does not validate.
    public var name: String
    /// The file; nil for the board built into the firmware (`simulated`).
    public var file: String?
    public var result: Result<BoardConfig, BoardConfigErrors>

    public var config: BoardConfig? { try? result.get() }
}

/// Why the catalog could not give a board.
public enum BoardCatalogError: Error, Sendable, CustomStringConvertible {
    case unknownBoard(String, known: [String], directories: [String])
    case unreadable(BoardFileError)
    case invalid(BoardConfigErrors)

    public var description: String {
        switch self {
        case .unknownBoard(let name, let known, let directories):
            let close = NearMatch.closest(to: name, in: known).map { "; did you mean \($0)?" } ?? ""
            return "unknown board '\(name)'\(close) (known boards: \(known.joined(separator: ", ")); "
                + "searched \(directories.joined(separator: ", ")))"
        case .unreadable(let error): return error.description
        case .invalid(let errors): return errors.description
        }
    }
}

/// The boards the appliance knows: board files in a search path, then the built-in simulated board.
/// A name found earlier in the path hides the same name later (a local file overrides an installed one).
public struct BoardCatalog: Sendable {
    public var directories: [String]
    public var includesSimulated: Bool

    public init(directories: [String], includesSimulated: Bool = true) {
        self.directories = directories
        self.includesSimulated = includesSimulated
    }

    /// Where the installed firmware's board files live.
    public static let installedDirectory = "/usr/share/appliance/board-configs"
    /// The environment variable with more directories, separated by ':'.
    public static let environmentVariable = "APPLIANCE_BOARDS"

    /// The search path: `explicit`, then `$APPLIANCE_BOARDS`, then ./board-configs, then the installed files.
    public static func standardDirectories(explicit: String? = nil) -> [String] {
        standardDirectories(explicit: explicit, environment: BoardFiles.environment(environmentVariable))
    }

    /// The search path with the value of `$APPLIANCE_BOARDS` given (tests pass their own).
    public static func standardDirectories(explicit: String?, environment: String?) -> [String] {
        var directories: [String] = []
        if let explicit, !explicit.isEmpty { directories.append(explicit) }
        if let environment {
            directories += environment.split(separator: ":").map(String.init)
        }
        directories += ["board-configs", installedDirectory]
        var unique: [String] = []
        for directory in directories where !unique.contains(directory) { unique.append(directory) }
        return unique
    }

    public static func standard(explicit: String? = nil) -> BoardCatalog {
        BoardCatalog(directories: standardDirectories(explicit: explicit))
    }

    /// Every board, in search-path order, each name once; the simulated board last unless a file overrides it.
    public func entries() -> [BoardCatalogEntry] {
        var entries: [BoardCatalogEntry] = []
        for directory in directories {
            guard let names = BoardFiles.list(directory) else { continue }
            for fileName in names where fileName.hasSuffix(".yaml") || fileName.hasSuffix(".yml") {
                let path = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
                guard BoardFiles.isRegularFile(path) else { continue }
                let stem = String(fileName.prefix { $0 != "." })
                let entry: BoardCatalogEntry
                do throws(BoardCatalogError) {
                    let config = try Self.load(path: path)
                    entry = BoardCatalogEntry(name: config.name, file: path, result: .success(config))
                } catch {
                    let errors: BoardConfigErrors
                    switch error {
                    case .invalid(let invalid): errors = invalid
                    default: errors = BoardConfigErrors([BoardConfigError(file: path, line: 1, field: "", message: "\(error)")])
                    }
                    entry = BoardCatalogEntry(name: stem, file: path, result: .failure(errors))
                }
                if !entries.contains(where: { $0.name == entry.name }) { entries.append(entry) }
            }
        }
        if includesSimulated, !entries.contains(where: { $0.name == SimulatedBoard.name }) {
            entries.append(BoardCatalogEntry(name: SimulatedBoard.name, file: nil, result: .success(SimulatedBoard.config)))
        }
        return entries
    }

    /// The board called `name`: its `name` field, or its file name without `.yaml`.
    public func board(named name: String) throws(BoardCatalogError) -> BoardConfig {
        let all = entries()
        guard let entry = all.first(where: { $0.name == name })
            ?? all.first(where: { $0.file.map { Self.stem(of: $0) == name } ?? false }) else {
            throw .unknownBoard(name, known: all.map(\.name), directories: directories)
        }
        switch entry.result {
        case .success(let config): return config
        case .failure(let errors): throw .invalid(errors)
        }
    }

    /// A path (anything with a '/' or ending in .yaml/.yml) is read as a file; anything else is a name.
    public func board(nameOrPath: String) throws(BoardCatalogError) -> BoardConfig {
        if Self.looksLikePath(nameOrPath) { return try Self.load(path: nameOrPath) }
        return try board(named: nameOrPath)
    }

    /// The board whose `hat` block matches the HAT the detector reads, if any.
    public func detect(using detector: HATDetector = HATDetector()) -> BoardConfig? {
        guard let identity = detector.identity() else { return nil }
        return entries().lazy.compactMap(\.config).first { $0.hat?.matches(identity) ?? false }
    }

    /// Reads and validates one board file.
    public static func load(path: String) throws(BoardCatalogError) -> BoardConfig {
        let text: String
        do throws(BoardFileError) { text = try BoardFiles.read(path) } catch { throw .unreadable(error) }
        do throws(BoardConfigErrors) { return try BoardConfig.parse(text, file: path) } catch { throw .invalid(error) }
    }

    static func looksLikePath(_ text: String) -> Bool {
        text.contains("/") || text.hasSuffix(".yaml") || text.hasSuffix(".yml")
    }

    static func stem(of path: String) -> String {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        return String(fileName.prefix { $0 != "." })
    }
}
