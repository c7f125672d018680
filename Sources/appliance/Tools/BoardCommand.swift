import ArgumentParser
import Board

/// `appliance board ...`: the board files the firmware knows, shown and checked.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "List, show and check board files.",
        subcommands: [List.self, Show.self, Check.self, Overlay.self, Which.self]
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

    static func choose(boards: String?, where choice: ChoiceOptions) throws -> BoardChoice {
        do throws(BoardSelectionError) {
            return try BoardSelection.choose(localPath: choice.localBoard, bootPath: choice.bootConfig,
                                             hatRoot: choice.hatRoot, catalog: BoardCatalog.standard(explicit: boards))
        } catch {
            throw BoardCommandError.selection(error)
        }
    }

    /// Where `--board auto` looks; the defaults are the board's own paths, tests point elsewhere.
    struct ChoiceOptions: ParsableArguments {
        static let auto = "auto"

        @Option(name: .customLong("local-board"), help: "--board auto: the local board file, used if it exists.")
        var localBoard = BoardSelection.localFile

        @Option(name: .customLong("boot-config"), help: "--board auto: the boot partition's file with the dtoverlay line.")
        var bootConfig = BoardSelection.bootConfig

        @Option(name: .customLong("hat-root"), help: "--board auto: the root whose proc/device-tree/hat names the HAT.")
        var hatRoot = "/"
    }

    /// `appliance board which`
    struct Which: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say which board '--board auto' chooses, and why.",
            discussion: "In order: the local board file (\(BoardSelection.localFile)) if it exists; the first "
                + "'dtoverlay=appliance-BOARD' line of \(BoardSelection.bootConfig); the HAT EEPROM "
                + "(/proc/device-tree/hat); else an error naming the file to edit.")

        @OptionGroup var choice: ChoiceOptions

        @Option(help: "Look for board files in this directory first.")
        var boards: String?

        func run() throws {
            print(try BoardCommand.choose(boards: boards, where: choice).explanation)
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

    /// `appliance board overlay NAME|FILE` and `appliance board overlay --all-in DIR`
    struct Overlay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a board's device-tree overlay source (DTS), for dtc.",
            discussion: "The overlay enables I2S and I2C1 and makes the simple-audio-card \"\(BoardOverlay.cardName)\" "
                + "the board's pcm: names use. With --all-in DIR, print the names of the boards in DIR that get "
                + "an overlay (image/overlays/build.sh compiles each).")

        @Argument(help: "A board name (see 'appliance board list') or a board file path.")
        var board: String?

        @Option(help: "Look for board files in this directory first.")
        var boards: String?

        @Option(name: .customLong("all-in"), help: "List the boards in this directory that get an overlay.")
        var allIn: String?

        @Option(help: "The rate a fixed bit clock's frame is pinned at.")
        var rate = BoardOverlay.defaultRate

        func validate() throws {
            if (board == nil) == (allIn == nil) { throw ValidationError("give a board, or --all-in DIR") }
        }

        func run() throws {
            if let allIn {
                let entries = BoardCatalog(directories: [allIn], includesSimulated: false).entries()
                if entries.isEmpty { throw BoardCommandError.noBoards(allIn) }
                for entry in entries {
                    switch entry.result {
                    case .success(let config):
                        if (try? BoardOverlay(board: config, rate: rate)) != nil { print(config.name) }
                    case .failure(let errors):
                        throw BoardCommandError(.invalid(errors), argument: entry.file ?? entry.name)
                    }
                }
                return
            }
            let config = try BoardCommand.load(board ?? "", boards: boards)
            do throws(BoardOverlayError) {
                print(try BoardOverlay(board: config, rate: rate).source, terminator: "")
            } catch {
                throw BoardCommandError.overlay(error)
            }
        }
    }
}
