import HAL

/// A file's path and text, read by the caller: the choice itself touches no files, so tests give it texts.
public struct SourceText: Hashable, Sendable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// The board `--board auto` chose, and from what.
public struct BoardChoice: Sendable {
    public enum Source: Hashable, Sendable {
        /// A local board file (/etc/appliance/board.yaml), used as it is.
        case localFile(path: String)
        /// The `dtoverlay=appliance-NAME` line of the boot partition's appliance.txt.
        case bootConfig(path: String, line: Int)
        /// The HAT's ID EEPROM matched a board file's `hat:` block.
        case hat(HATIdentity)
    }

    public var config: BoardConfig
    public var source: Source

    /// Why this board, in one line: `fe-pi-audio (/boot/firmware/appliance.txt:3: dtoverlay=appliance-fe-pi-audio)`.
    public var explanation: String {
        switch source {
        case .localFile(let path): "\(config.name) (the local board file \(path))"
        case .bootConfig(let path, let line):
            "\(config.name) (\(path):\(line): dtoverlay=\(BoardOverlay.overlayName(config.name)))"
        case .hat(let identity): "\(config.name) (the HAT EEPROM says \"\(identity)\")"
        }
    }
}

/// Why `--board auto` found no board: one line, naming the file to mend.
public enum BoardSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The local board file is there but wrong.
    case invalidLocalFile(BoardConfigErrors)
    /// appliance.txt names a board the catalog does not have.
    case unknownBoard(file: String, line: Int, name: String, known: [String])
    /// appliance.txt names a board whose file does not validate.
    case invalidBoard(file: String, line: Int, name: String, errors: BoardConfigErrors)
    /// A file that is there could not be read.
    case unreadable(BoardFileError)
    /// The HAT EEPROM named a board, but its overlay is not in the running device tree: the firmware loaded
    /// only the EEPROM's own overlay, so the generic card the board's PCM names does not exist.
    case overlayNotLoaded(board: String, hat: HATIdentity, bootConfig: String)
    /// Nothing said which board: no local file, no overlay line, no HAT that matches.
    case noChoice(localFile: String, bootConfig: String, hat: HATIdentity?, known: [String])

    public var description: String {
        switch self {
        case .invalidLocalFile(let errors):
            let more = errors.errors.count > 1 ? " (and \(errors.errors.count - 1) more)" : ""
            return (errors.errors.first?.description ?? "invalid local board file") + more
        case .unknownBoard(let file, let line, let name, let known):
            let close = NearMatch.closest(to: name, in: known).map { "; did you mean \(BoardOverlay.overlayName($0))?" } ?? ""
            return "\(file):\(line): dtoverlay=\(BoardOverlay.overlayName(name)) names no known board\(close) "
                + "(boards: \(known.joined(separator: ", ")))"
        case .invalidBoard(let file, let line, let name, let errors):
            return "\(file):\(line): board '\(name)' does not validate: \(errors.errors.first?.description ?? "")"
        case .unreadable(let error):
            return error.description
        case .overlayNotLoaded(let board, let hat, let bootConfig):
            return "the HAT EEPROM says \"\(hat)\" (board \(board)), but its overlay is not loaded: put the line "
                + "'dtoverlay=\(BoardOverlay.overlayName(board))' in \(bootConfig) and reboot"
        case .noChoice(let localFile, let bootConfig, let hat, let known):
            let hatText = hat.map { "the HAT \"\($0)\" matches no board file" } ?? "no HAT EEPROM"
            return "no board chosen: put one line 'dtoverlay=appliance-BOARD' in \(bootConfig) (or a board file at "
                + "\(localFile)); \(hatText); boards: \(known.joined(separator: ", "))"
        }
    }
}

/// `--board auto`, as a pure function of what the files say: the local board file if there is one, else the
/// first `dtoverlay=appliance-NAME` line of the boot partition's appliance.txt (the line that also loads the
/// overlay in the firmware, so the two cannot disagree), else the HAT EEPROM, else an error that says which file
/// to edit.
public enum BoardSelection {
    /// The local board file: a board made or adjusted on this machine.
    public static let localFile = "/etc/appliance/board.yaml"
    /// The boot partition's file config.txt includes (`include appliance.txt`).
    public static let bootConfig = "/boot/firmware/appliance.txt"

    /// Chooses. `localFile` and `bootConfig` are nil when the file is not there; `entries` is the catalog.
    /// `overlayLoaded`: whether the running device tree has the generic card's node (nil: not known, as off a
    /// board). `localPath`/`bootPath` name the files in the error when they are absent.
    public static func choose(localFile: SourceText?, bootConfig: SourceText?, hat: HATIdentity?,
                              overlayLoaded: Bool? = nil,
                              entries: [BoardCatalogEntry], localPath: String = BoardSelection.localFile,
                              bootPath: String = BoardSelection.bootConfig) throws(BoardSelectionError) -> BoardChoice {
        if let localFile {
            do throws(BoardConfigErrors) {
                return BoardChoice(config: try BoardConfig.parse(localFile.text, file: localFile.path),
                                   source: .localFile(path: localFile.path))
            } catch {
                throw .invalidLocalFile(error)
            }
        }
        let known = entries.map(\.name).filter { $0 != SimulatedBoard.name }
        if let bootConfig, let (line, name) = overlayLine(in: bootConfig.text) {
            guard let entry = entries.first(where: { $0.name == name }) else {
                throw .unknownBoard(file: bootConfig.path, line: line, name: name, known: known)
            }
            switch entry.result {
            case .success(let config): return BoardChoice(config: config, source: .bootConfig(path: bootConfig.path, line: line))
            case .failure(let errors): throw .invalidBoard(file: bootConfig.path, line: line, name: name, errors: errors)
            }
        }
        if let hat, let config = entries.lazy.compactMap(\.config).first(where: { $0.hat?.matches(hat) ?? false }) {
            if overlayLoaded == false && config.codec.control == .appliance {
                throw .overlayNotLoaded(board: config.name, hat: hat, bootConfig: bootConfig?.path ?? bootPath)
            }
            return BoardChoice(config: config, source: .hat(hat))
        }
        throw .noChoice(localFile: localFile?.path ?? localPath, bootConfig: bootConfig?.path ?? bootPath, hat: hat,
                        known: known)
    }

    /// Chooses from the files themselves: each read if it is there, the HAT from `hatRoot`'s device tree.
    public static func choose(localPath: String = BoardSelection.localFile, bootPath: String = BoardSelection.bootConfig,
                              hatRoot: String = "/", catalog: BoardCatalog) throws(BoardSelectionError) -> BoardChoice {
        let detector = HATDetector(root: hatRoot)
        return try choose(localFile: try readIfPresent(localPath), bootConfig: try readIfPresent(bootPath),
                          hat: detector.identity(), overlayLoaded: detector.deviceTreeHasNode(soundNode),
                          entries: catalog.entries(), localPath: localPath, bootPath: bootPath)
    }

    /// The generic card's node the overlays add at the device tree's root (BoardOverlay's fragment on "/").
    static let soundNode = "appliance-sound"


    /// The file's text, or nil when there is no such file.
    static func readIfPresent(_ path: String) throws(BoardSelectionError) -> SourceText? {
        guard FileStatus.of(path) != nil else { return nil }
        do throws(BoardFileError) {
            return SourceText(path: path, text: try BoardFiles.read(path))
        } catch {
            throw .unreadable(error)
        }
    }

    /// The first `dtoverlay=appliance-NAME[,param=value...]` line (1-based) and NAME. config.txt's syntax: one
    /// `property=value` a line, `#` starting a comment line; overlay parameters follow the name after commas;
    /// lines under a `[none]` filter are read by no board (until the next filter, e.g. `[all]`). Lines end in LF
    /// or CRLF (a file edited on Windows: "\r\n" is one Character, so it is split on as a newline).
    public static func overlayLine(in text: String) -> (line: Int, board: String)? {
        var number = 0
        var skipping = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let line = raw.trimmingSpaces
            if line.hasPrefix("[") {
                skipping = line.lowercased() == "[none]"
                continue
            }
            guard !skipping, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            guard line[..<equals].trimmingSpaces == "dtoverlay" else { continue }
            let value = line[line.index(after: equals)...].trimmingSpaces
            let overlay = value.prefix { $0 != "," && $0 != ":" }.trimmingSpaces
            guard overlay.hasPrefix(BoardOverlay.overlayPrefix) else { continue }
            return (number, String(overlay.dropFirst(BoardOverlay.overlayPrefix.count)))
        }
        return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns (a file edited on Windows).
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return Substring()
        }
        return Substring(self[start...end])
    }
}
