import Foundation
import XCTest

/// Text from timelines printed to a terminal or a CI log: control characters are escapes, error
/// messages quote at most about 80 characters of input, and a file that is not a timeline is
/// named, not quoted.
final class HostileTextTests: XCTestCase {
    static let tracker = "evil\u{1B}]0;pwned\u{07}"
    static let forged = "Foo\n0 differences\nPASS all\r"

    static func timeline(action: String) throws -> String {
        let object: [String: Any] = [
            "trackers": [["name": tracker]],
            "steps": [
                ["t": 0, "tracker": tracker, "action": "Start", "set": ["k\u{1B}[2J": "v"]],
                ["t": 10, "tracker": tracker, "action": action],
            ],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// No raw ESC, CR or BEL, and no line a log reader would take for a verdict.
    static func assertInert(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for scalar in ["\u{1B}", "\r", "\u{07}"] {
            XCTAssertFalse(text.contains(scalar), "raw control character in \(text)", file: file, line: line)
        }
        for row in text.split(separator: "\n") {
            XCTAssertFalse(
                row.hasPrefix("PASS") || row.hasPrefix("0 differences"), "forged line: \(row)", file: file, line: line)
        }
    }

    func testTableEscapesNames() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("t.json")
        try Self.timeline(action: Self.forged).write(to: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["run", path.path, "--format", "table"])
        XCTAssertEqual(result.status, 0, result.stderr)
        Self.assertInert(result.stdout)
        XCTAssertTrue(result.stdout.contains(#"evil\u001B]0;pwned\u0007"#), result.stdout)
        XCTAssertTrue(result.stdout.contains(#"Foo\u000A0 differences\u000APASS all\u000D"#), result.stdout)
    }

    func testDiffAndCheckTextEscapeNames() throws {
        let dir = try CLI.temporaryDirectory()
        let expected = dir.appendingPathComponent("a.json")
        let actual = dir.appendingPathComponent("b.json")
        try Self.timeline(action: Self.forged).write(to: expected, atomically: true, encoding: .utf8)
        try Self.timeline(action: "Bar").write(to: actual, atomically: true, encoding: .utf8)
        let a = dir.appendingPathComponent("a.jsonl")
        let b = dir.appendingPathComponent("b.jsonl")
        try Data(try CLI.run(["run", expected.path]).stdout.utf8).write(to: a)
        try Data(try CLI.run(["run", actual.path]).stdout.utf8).write(to: b)
        let diff = try CLI.run(["diff", a.path, b.path])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        Self.assertInert(diff.stdout)
        // check: the golden file holds the forged action, the timeline replays Bar.
        let suite = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: actual, to: suite.appendingPathComponent("s.json"))
        try FileManager.default.copyItem(at: a, to: suite.appendingPathComponent("s.expected.jsonl"))
        let check = try CLI.run(["check", suite.path])
        XCTAssertEqual(check.status, 1, check.stderr)
        Self.assertInert(check.stdout + check.stderr)
    }

    func testErrorsEscapeAndCutQuotedInput() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("big.json")
        let name = String(repeating: "x", count: 50_000_000)
        let text = #"{"trackers": [{"name": "a"}], "steps": [{"t": 0, "tracker": ""# + name + #""}]}"#
        try Data(text.utf8).write(to: path)
        let result = try CLI.run(["run", path.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains("unknown tracker \"" + String(repeating: "x", count: 79) + "…\""), result.stderr)
        XCTAssertLessThan(result.stderr.utf8.count, 400, "the name is cut: \(result.stderr.prefix(400))")

        let escPath = dir.appendingPathComponent("esc.json")
        try Data(#"{"trackers": [{"name": "a"}], "steps": [{"t": 0, "tracker": "b\u001b]0;t\u0007\nPASS\r"}]}"#.utf8)
            .write(to: escPath)
        let esc = try CLI.run(["run", escPath.path])
        XCTAssertEqual(esc.status, 2)
        Self.assertInert(esc.stderr)
        XCTAssertTrue(esc.stderr.contains(#""b\u001b]0;t\u0007\nPASS\r""#), esc.stderr)
    }

    func testFileThatIsNotATimelineIsNamedNotQuoted() throws {
        let dir = try CLI.temporaryDirectory()
        let secrets = dir.appendingPathComponent("environ")
        try Data("CI_TOKEN=ghp_secret123,PATH=/bin\nHOME=/root\n".utf8).write(to: secrets)
        let suite = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: suite.appendingPathComponent("e.csv"), withDestinationURL: secrets)
        try Data("{}\n".utf8).write(to: suite.appendingPathComponent("e.expected.jsonl"))
        // Given by name, the link is read and named, not quoted.
        let link = suite.appendingPathComponent("e.csv").path
        for format in ["text", "junit"] {
            let check = try CLI.run(["check", link, "--format", format])
            let all = check.stdout + check.stderr
            XCTAssertEqual(check.status, 2, all)
            XCTAssertFalse(all.contains("ghp_secret123"), all)
            XCTAssertFalse(all.contains("CI_TOKEN"), all)
            XCTAssertTrue(all.contains("not a CSV timeline"), all)
            XCTAssertTrue(all.contains("e.csv"), all)
        }
        // Inside a folder, a link out of it is not followed at all.
        let walk = try CLI.run(["check", suite.path])
        XCTAssertEqual(walk.status, 2, walk.stderr)
        XCTAssertFalse((walk.stdout + walk.stderr).contains("CI_TOKEN"), walk.stderr)
    }
}
