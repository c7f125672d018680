import Board

/// What `appliance board` reports when it cannot do what was asked: one line on stderr, exit status 1.
enum BoardCommandError: Error, CustomStringConvertible {
    case catalog(BoardCatalogError, argument: String)
    case checkFailed(failed: Int, total: Int)
    case overlay(BoardOverlayError)
    case noBoards(String)
    case selection(BoardSelectionError)

    init(_ error: BoardCatalogError, argument: String) {
        self = .catalog(error, argument: argument)
    }

    var description: String {
        switch self {
        case .catalog(.invalid(let errors), let argument):
            let first = errors.errors.first?.description ?? "\(argument): invalid"
            let more = errors.errors.count - 1
            return more > 0 ? "\(first) (and \(more) more: see 'appliance board check \(errors.errors[0].file)')" : first
        case .catalog(let error, _):
            return error.description
        case .overlay(let error):
            return error.description
        case .noBoards(let directory):
            return "no board files in '\(directory)'"
        case .selection(let error):
            return error.description
        case .checkFailed(let failed, let total):
            return "\(failed) of \(total) board file\(total == 1 ? "" : "s") \(failed == 1 ? "has" : "have") errors"
        }
    }
}
