import Foundation
import XCTest

/// Each input limit ends a hostile input with exit 2, its place, the limit and the flag that
/// raises it; the flag raised, the same input is read.
final class InputLimitTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try CLI.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func expectLimit(
        _ arguments: [String], flag: String, place: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try CLI.run(arguments, in: directory)
        XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(flag), "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(place), "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
    }

    private static let header = #"{"trackers":[{"name":"c"}]}"# + "\n"

    /// A line with no end (as `/dev/zero` gives) stops at the limit instead of filling memory, in
    /// every format that reads lines.
    func testALineWithoutEndIsBadInput() throws {
        let jsonl = try file("long.jsonl", Self.header + String(repeating: " ", count: 5000))
        let csv = try file("long.csv", "t,tracker,action\n" + String(repeating: "x", count: 5000))
        let json = try file("long.json", "{" + String(repeating: " ", count: 200_000))
        try expectLimit(["run", jsonl, "--max-line-bytes", "1000"], flag: "--max-line-bytes", place: "long.jsonl:2:")
        try expectLimit(
            ["run", csv, "--tracker", "c", "--max-line-bytes", "1000"], flag: "--max-line-bytes", place: "long.csv:2:")
        try expectLimit(
            ["kpi", json, "--max-document-bytes", "100000"], flag: "--max-document-bytes", place: "long.json")
        // Raised, the same inputs are read (and found to be what they are: blank, or not JSON).
        XCTAssertEqual(try CLI.run(["run", jsonl], in: directory).status, 0)
    }

    /// `/dev/zero` itself, as a CSV (its sniffed format) and as JSONL: exit 2, not a crash.
    func testDevZeroIsBadInput() throws {
        for arguments in [["run", "/dev/zero"], ["run", "/dev/zero", "--input-format", "jsonl"]] {
            let result = try HostileInputTests.run(arguments + ["--max-line-bytes", "1000000"], timeout: 20)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--max-line-bytes"), "\(arguments): \(result.stderr)")
        }
    }

    func testALongNameIsBadInput() throws {
        let name = String(repeating: "A", count: 5000)
        let action = try file("action.jsonl", Self.header + #"{"t":0,"tracker":"c","action":"\#(name)"}"# + "\n")
        let key = try file(
            "key.json", #"{"trackers":[{"name":"c"}],"steps":[{"t":0,"tracker":"c","set":{"\#(name)":1}}]}"#)
        let tracker = try file("tracker.jsonl", #"{"trackers":[{"name":"\#(name)"}]}"# + "\n")
        let column = try file("column.csv", "t,tracker,attributes.\(name)\n")
        try expectLimit(["run", action], flag: "--max-name-bytes", place: "action.jsonl:2:")
        try expectLimit(["run", key], flag: "--max-name-bytes", place: "key.json:1:")
        try expectLimit(["kpi", tracker], flag: "--max-name-bytes", place: "tracker.jsonl:1:")
        try expectLimit(
            ["convert", column, "-", "--tracker", "c", "--output-format", "jsonl"], flag: "--max-name-bytes",
            place: "column.csv:1:")
        let raised = try CLI.run(["run", action, "--max-name-bytes", "5000"], in: directory)
        XCTAssertEqual(raised.status, 0, raised.stderr)
        XCTAssertTrue(raised.stdout.contains(name))
    }

    /// A new attribute name on every step: past `--max-keys` distinct names, exit 2 at the step.
    /// Names are interned per process, and built-in names count, so the limit is set just above
    /// what the fixture's replay needs.
    func testTooManyDistinctKeysIsBadInput() throws {
        var text = Self.header
        for i in 0..<300 { text += #"{"t":\#(i),"tracker":"c","action":"Ping","attributes":{"k\#(i)":1}}"# + "\n" }
        let timeline = try file("keys.jsonl", text)
        let result = try CLI.run(["run", timeline, "--max-keys", "250"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("distinct attribute names (--max-keys)"), result.stderr)
        XCTAssertTrue(result.stderr.contains(".attributes"), result.stderr)
        XCTAssertEqual(try CLI.run(["run", timeline, "--max-keys", "1000"], in: directory).status, 0)
    }

    /// CSV rows carry every column: a CSV input header, a CSV output of `run` and a CSV `convert`
    /// past `--max-columns` are bad input, and nothing is written.
    func testTooManyCSVColumnsIsBadInput() throws {
        let wide = try file(
            "wide.csv", "t,tracker," + (0..<50).map { "attributes.k\($0)" }.joined(separator: ",") + "\n")
        try expectLimit(
            ["run", wide, "--tracker", "c", "--max-columns", "20"], flag: "--max-columns", place: "wide.csv:1:")
        var text = Self.header
        for i in 0..<50 { text += #"{"t":\#(i),"tracker":"c","action":"Ping","attributes":{"k\#(i)":1}}"# + "\n" }
        let timeline = try file("keys.jsonl", text)
        let out = directory.appendingPathComponent("out.csv").path
        for arguments in [
            ["run", timeline, "--format", "csv", "-o", out, "--max-columns", "40"],
            ["convert", timeline, out, "--max-columns", "40"],
        ] {
            let result = try CLI.run(arguments, in: directory)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("limit of 40 columns (--max-columns)"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(arguments)")
        }
        XCTAssertEqual(try CLI.run(["convert", timeline, out, "--max-columns", "60"], in: directory).status, 0)
    }

    /// Past a few keys the repeated-key check uses a set; a repeat is still found, in JSONL (the
    /// scanner, then the general reader) and in a JSON document.
    func testARepeatedKeyAmongManyIsStillFound() throws {
        let keys = (0..<40).map { #""k\#($0)":1"# } + [#""k3":2"#]
        let object = "{" + keys.joined(separator: ",") + "}"
        let jsonl = try file(
            "repeat.jsonl", Self.header + #"{"t":0,"tracker":"c","action":"A","attributes":\#(object)}"# + "\n")
        let json = try file(
            "repeat.json", #"{"trackers":[{"name":"c"}],"steps":[{"t":0,"tracker":"c","set":\#(object)}]}"#)
        for path in [jsonl, json] {
            let result = try CLI.run(["run", path], in: directory)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains(#"duplicate attribute "k3""#), result.stderr)
        }
    }

    func testALimitBelowOneIsAUsageError() throws {
        let result = try CLI.run(["run", "fixtures/happy-path.json", "--max-keys", "0"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--max-keys must be at least 1"), result.stderr)
    }
}
