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

    /// A timeline of a few bytes whose `until` asks for more output than `--max-output-bytes`
    /// stops with the flag named, and no output file claims the replay succeeded.
    func testOutputPastMaxOutputBytesIsBadInputNamingTheFlag() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try
            #"{"until": 31622400000, "trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Start"}]}"#
            .write(to: dir.appendingPathComponent("year.json"), atomically: true, encoding: .utf8)
        let limited = try CLI.run(["run", "year.json", "--max-output-bytes", "100000", "-o", "out.jsonl"], in: dir)
        XCTAssertEqual(limited.status, 2, limited.stderr)
        XCTAssertTrue(
            limited.stderr.contains(
                "year.json: would write more than 100000 bytes of output (--max-output-bytes; default 1073741824); "
                    + "raise it with --max-output-bytes <bytes>"), limited.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.jsonl").path))
        // To standard output, what was written stays under the limit.
        let piped = try CLI.run(["run", "year.json", "--max-output-bytes", "100000"], in: dir)
        XCTAssertEqual(piped.status, 2, piped.stderr)
        XCTAssertLessThanOrEqual(piped.stdout.utf8.count, 100_000)
        XCTAssertGreaterThan(piped.stdout.utf8.count, 0)
        try #"{"until": 600000, "trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Start"}]}"#
            .write(to: dir.appendingPathComponent("short.json"), atomically: true, encoding: .utf8)
        for command in [["kpi"], ["report", "-o", "r.html"]] {
            let arguments = [command[0], "short.json", "--max-output-bytes", "100"] + command.dropFirst()
            let result = try CLI.run(arguments, in: dir)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("bytes of output (--max-output-bytes"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.html").path))
    }

    /// A parallel run counts the sessions' bytes as it copies their temporary files, and stops
    /// at the step a serial run stops at: the second session is the one that passes the limit.
    func testParallelRunCountsEverySessionsBytes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("f")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pings = (1..<2000).map { #"{"t": \#($0 * 1000), "tracker": "c", "action": "Ping"}"# }
        let timeline =
            #"{"trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Start"}, "#
            + pings.joined(separator: ", ") + "]}"
        for name in ["a.json", "b.json"] {
            try timeline.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let whole = try CLI.run(["run", "f", "--jobs", "2"], in: dir)
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let total = whole.stdout.utf8.count
        // Room for the first session and part of the second.
        let limit = String(total * 3 / 4)
        var errors: [String] = []
        for jobs in ["1", "2"] {
            let result = try CLI.run(
                ["run", "f", "--jobs", jobs, "--max-output-bytes", limit, "-o", "out.jsonl"], in: dir)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(
                result.stderr.contains("f/b.json:1:")
                    && result.stderr.contains(
                        "would write more than \(limit) bytes of output (--max-output-bytes"),
                result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.jsonl").path))
            errors.append(result.stderr)
        }
        XCTAssertEqual(errors[0], errors[1], "--jobs 1 and --jobs 2 stop at the same step")
        let enough = try CLI.run(["run", "f", "--jobs", "2", "--max-output-bytes", String(total)], in: dir)
        XCTAssertEqual(enough.status, 0, enough.stderr)
        XCTAssertEqual(enough.stdout, whole.stdout)
    }
}
