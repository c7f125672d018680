/// Why a player command could not be carried out: the console's error code and a message saying what and
/// why, so the reply is `ERR <code> <message>`.
struct PlayerError: Error, Hashable, Sendable, CustomStringConvertible {
    let code: ConsoleErrorCode
    let message: String

    init(_ code: ConsoleErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
    var reply: ConsoleReply { .error(code, message) }
}
