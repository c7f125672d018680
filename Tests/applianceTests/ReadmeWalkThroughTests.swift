import Foundation
import TestSupport
import Testing
@testable import appliance

/// README.md's "Run the appliance" walk-through: every `appliance> ` line in it is a command the console
/// accepts (parsed to a command, not rejected), so a newcomer copying it meets no `ERR unknown`/`ERR usage`.
struct ReadmeWalkThroughTests {
    @Test func everyWalkThroughLineIsAnAcceptedCommand() throws {
        let readme = try String(contentsOfFile: SourceTree.root() + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## Run the appliance"))
        let lines = readme[section.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("## ") }
            .filter { $0.hasPrefix("appliance> ") }.map { String($0.dropFirst("appliance> ".count)) }
        // The issue's "Done when" list, in its order (the simulated board's headset-style remote button is called "play").
        #expect(lines == ["play", "vol 40", "eq rock", "button play double", "jack out", "record --seconds 3", "ls", "stats"])
        for line in lines {
            guard case .command = ConsoleParser.parse(line) else {
                Issue.record("README line '\(line)' is not an accepted command")
                continue
            }
        }
    }
}
