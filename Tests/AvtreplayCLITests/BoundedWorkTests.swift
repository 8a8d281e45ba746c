import Foundation
import XCTest

/// A few bytes of timeline cannot keep a CI runner busy for hours: a ping interval under the
/// minimum and more records than `--max-records` are bad input, naming the flag that allows them.
final class BoundedWorkTests: XCTestCase {
    func testShortPingsAndTooManyRecordsAreBadInputNamingTheirFlag() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let step = #"{"trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Start"}]"#
        try (#"{"pingInterval": 1, "until": 31622400000, "# + step.dropFirst() + "}").write(
            to: dir.appendingPathComponent("fast.json"), atomically: true, encoding: .utf8)
        try (#"{"until": 31622400000, "# + step.dropFirst() + "}").write(
            to: dir.appendingPathComponent("year.json"), atomically: true, encoding: .utf8)
        for command in [["run"], ["kpi"], ["report", "-o", "r.html"]] {
            let arguments = [command[0], "fast.json"] + command.dropFirst()
            let result = try CLI.run(arguments, in: dir)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains(
                    "fast.json: pingInterval: 1 ms is below the shortest ping interval of 100 ms (--min-ping-interval"),
                result.stderr)
        }
        let check = try CLI.run(["check", "fast.json", "--expect", "none.jsonl"], in: dir)
        XCTAssertEqual(check.status, 2)
        XCTAssertTrue(check.stdout.contains("--min-ping-interval"), check.stdout)
        let many = try CLI.run(["run", "year.json", "--max-records", "100", "-o", "out.jsonl"], in: dir)
        XCTAssertEqual(many.status, 2, many.stderr)
        XCTAssertTrue(many.stderr.contains("year.json: more than 100 records (--max-records"), many.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.jsonl").path))
        let allowed = try CLI.run(
            ["run", "fast.json", "--min-ping-interval", "1", "--until", "50", "--format", "table"], in: dir)
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }
}
