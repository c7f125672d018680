/// A file that is not in the YAML subset `YAMLReader` reads: where, and what is wrong.
public struct YAMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var mark: YAMLMark
    public var message: String

    public init(file: String, mark: YAMLMark, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    /// `board-configs/foo.yaml:3: tab in indentation (indent with spaces)`
    public var description: String { "\(file):\(mark.line): \(message)" }
}
