/// What `appliance info`, `convert` and `render` report when they cannot do what was asked: one line.
struct AudioToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
