import Foundation
import XCTest

/// The command line's option groups stay one level deep. A debug build of swift-argument-parser
/// validates a group once more for every level it is nested in, each time it builds a command's
/// arguments; three levels made a debug `avtreplay run` spend most of its start-up there, and
/// the CLI tests spawn the debug binary hundreds of times (docs/testing.md).
final class OptionGroupDepthTests: XCTestCase {
    func testNoOptionGroupHoldsAnotherGroup() throws {
        let sources = URL(fileURLWithPath: "Sources/avtreplay")
        let files = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        XCTAssertFalse(files.isEmpty, "no sources found at \(sources.path): run from the package root")
        var groups = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            // A group is a ParsableArguments type; a command (ParsableCommand) may hold groups.
            guard text.contains(": ParsableArguments") || text.contains(", ParsableArguments") else { continue }
            groups += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("@OptionGroup") {
                XCTFail("\(file.lastPathComponent):\(number + 1): an option group inside a group; make it a sibling")
            }
        }
        XCTAssertGreaterThan(groups, 10, "the option groups were not found")
    }
}
