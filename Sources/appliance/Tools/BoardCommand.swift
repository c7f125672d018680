import ArgumentParser
import Board

/// `appliance board ...`: the board files the firmware knows, shown and checked.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "List, show and check board files.",
        subcommands: [List.self, Show.self, Check.self]
    )
}

extension BoardCommand {
    /// The board a name or file names, searched from `boards` first; one-line errors.
    static func load(_ nameOrPath: String, boards: String?) throws -> BoardConfig {
        do throws(BoardCatalogError) {
            return try BoardCatalog.standard(explicit: boards).board(nameOrPath: nameOrPath)
        } catch {
            throw BoardCommandError(error, argument: nameOrPath)
        }
    }

    /// `appliance board list [--boards DIR]`
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the boards: name, codec, description and file.",
            discussion: "Searched in order: --boards DIR, $APPLIANCE_BOARDS (':'-separated), ./board-configs, "
                + "\(BoardCatalog.installedDirectory); then the built-in simulated board.")

        @Option(help: "Look for board files in this directory first.")
        var boards: String?

        func run() throws {
            let entries = BoardCatalog.standard(explicit: boards).entries()
            let nameWidth = entries.map(\.name.count).max() ?? 0
            print("\(entries.count) boards:")
            for entry in entries {
                let file = entry.file ?? "(built in)"
                let name = entry.name.rightPadded(to: nameWidth)
                switch entry.result {
                case .success(let config):
                    print("  \(name)  \(config.codec.chip.rawValue.rightPadded(to: 8))  \(config.description)  [\(file)]")
                case .failure(let errors):
                    let count = errors.errors.count
                    print("  \(name)  \("invalid".rightPadded(to: 8))  \(count) error\(count == 1 ? "" : "s"); "
                        + "see 'appliance board check \(file)'  [\(file)]")
                }
            }
        }
    }

    /// `appliance board show NAME|FILE [--boards DIR]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a board's validated configuration, defaults filled in.")

        @Argument(help: "A board name (see 'appliance board list') or a board file path.")
        var board: String

        @Option(help: "Look for board files in this directory first.")
        var boards: String?

        func run() throws {
            print(try BoardCommand.load(board, boards: boards).readableDescription)
        }
    }

    /// `appliance board check FILE...`
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate board files: 'FILE: ok' or every error; exit status 1 if any file has errors.")

        @Argument(help: "Board files to check.")
        var files: [String]

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one board file") }
        }

        func run() throws {
            var failed = 0
            for file in files {
                do throws(BoardCatalogError) {
                    _ = try BoardCatalog.load(path: file)
                    print("\(file): ok")
                } catch {
                    failed += 1
                    switch error {
                    case .invalid(let errors): for line in errors.errors { print(line.description) }
                    default: print("\(file): \(error)")
                    }
                }
            }
            if failed > 0 { throw BoardCommandError.checkFailed(failed: failed, total: files.count) }
        }
    }
}
