import Board
import HAL
import Queue

/// Why the buttons could not start, or a simulated press was refused.
enum ButtonInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `button NAME ...` for a button the board does not have.
    case unknownButton(String, known: [String])
    /// A simulated press on a board whose buttons are real.
    case notSimulated(board: String)
    case device(BoardDeviceError)
    /// The board's buttons do not make a valid gesture decoder (a timing the decoder refuses).
    case decoder(GestureDecoderError)

    var description: String {
        switch self {
        case .unknownButton(let name, let known):
            "no button '\(name)' on this board: " + (known.isEmpty ? "it has none" : "it has \(known.joined(separator: ", "))")
        case .notSimulated(let board):
            "board '\(board)' has real buttons: press them (simulated presses work on the simulated board)"
        case .device(let error): "\(error)"
        case .decoder(let error): "\(error)"
        }
    }

    /// The console's `ERR` code for it.
    var consoleCode: ConsoleErrorCode {
        switch self {
        case .unknownButton: .notFound
        case .notSimulated: .denied
        case .device: .device
        case .decoder: .internal
        }
    }
}
