import Foundation
import XCTest

/// `avtreplay check` and `avtreplay diff` end to end: exit codes, golden files, reports.
final class CheckDiffCommandTests: XCTestCase {
    private func goldenDirectory() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        for name in ["happy-path.json", "preroll-ads.json"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name)"), to: dir.appendingPathComponent(name))
        }
        return dir
    }

    func testDiffExitsZeroOnEqualOutputsWithRandomIdsAndOneOnADifference() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = dir.appendingPathComponent("e.jsonl")
        try CLI.run(["run", "fixtures/happy-path.json"]).stdout.write(to: expected, atomically: true, encoding: .utf8)
        let random = try CLI.run(["run", "fixtures/happy-path.json", "--random-ids"]).stdout
        let same = try CLI.run(["diff", expected.path, "-"], stdin: random)
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertEqual(same.stdout, "equal: 33 records\n")
        let changed = random.replacingOccurrences(of: #""value":2500}"#, with: #""value":2600}"#)
        let different = try CLI.run(["diff", expected.path, "-"], stdin: changed)
        XCTAssertEqual(different.status, 1)
        XCTAssertTrue(different.stdout.contains("~ t=22900 metric RebufferTime = 2500"), different.stdout)
        XCTAssertTrue(different.stdout.contains("    value: 2500 → 2600"))
        XCTAssertEqual(try CLI.run(["diff", expected.path, "-", "--tolerance", "100"], stdin: changed).status, 0)
        let bad = try CLI.run(["diff", expected.path, "-"], stdin: "{\"type\": \"event\"}\n")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("<stdin>:1:1: expected a string \"action\""), bad.stderr)
    }

    func testCheckUpdateThenPassThenFailWithJUnit() throws {
        let dir = try goldenDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let update = try CLI.run(["check", dir.path, "--update"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(
            update.stdout.contains("created \(dir.path)/happy-path.expected.jsonl: 33 records"), update.stdout)
        let pass = try CLI.run(["check", dir.path])
        XCTAssertEqual(pass.status, 0, pass.stdout)
        XCTAssertTrue(pass.stdout.hasSuffix("2 passed, 0 failed, 0 errors\n"), pass.stdout)

        let golden = dir.appendingPathComponent("preroll-ads.expected.jsonl")
        let lines = try String(contentsOf: golden, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        try lines.enumerated().filter { $0.offset != 5 }.map(\.element).joined(separator: "\n").write(
            to: golden, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("report.xml")
        let fail = try CLI.run(["check", dir.path, "--format", "junit", "-o", report.path])
        XCTAssertEqual(fail.status, 1)
        let xml = try String(contentsOf: report, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"<testsuites name="avtreplay" tests="2" failures="1" errors="0""#), xml)
        // The message names the first difference, then the counts.
        XCTAssertTrue(xml.contains("<failure message=\"extra t="), xml)
        XCTAssertTrue(xml.contains("; 1 difference: 0 changed, 0 missing, 1 extra"), xml)

        let again = try CLI.run(["check", dir.path, "--update"])
        XCTAssertTrue(again.stdout.contains("updated \(golden.path): 1 difference"), again.stdout)
        XCTAssertEqual(try CLI.run(["check", dir.path]).status, 0)
    }

    func testCheckWithExpectAndBadInput() throws {
        let dir = try goldenDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = dir.appendingPathComponent("golden.jsonl")
        try CLI.run(["run", "fixtures/happy-path.json"]).stdout.write(to: expected, atomically: true, encoding: .utf8)
        XCTAssertEqual(try CLI.run(["check", "fixtures/happy-path.json", "--expect", expected.path]).status, 0)
        let mismatched = try CLI.run([
            "check", "fixtures/preroll-ads.json", "--expect", expected.path, "--format", "json",
        ])
        XCTAssertEqual(mismatched.status, 1)
        XCTAssertTrue(
            mismatched.stdout.hasPrefix(
                #"{"passed":0,"failed":1,"errors":0,"skipped":0,"orphaned":0,"cases":[{"name":"fixtures/preroll-ads.json","equal":false"#
            ),
            mismatched.stdout)
        let missingGolden = try CLI.run(["check", "fixtures/html5-session.json"])
        XCTAssertEqual(missingGolden.status, 2)
        XCTAssertTrue(
            missingGolden.stdout.contains(
                "ERROR fixtures/html5-session.json: fixtures/html5-session.expected.jsonl: no golden file: write it with "
                    + "`avtreplay check fixtures/html5-session.json --update`"),
            missingGolden.stdout)
        XCTAssertEqual(try CLI.run(["check", dir.appendingPathComponent("nothing-here").path]).status, 2)
    }
}
