/// What `appliance info`, `convert`, `render` and `play` report when they cannot do what was asked: one line.
struct AudioToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
