import Foundation
import XCTest

/// `check` reports each case as it finishes (a CI log shows the verdicts as they come, and a
/// finished case is released), while an `-o` report still appears whole at the end or not at all.
final class CheckStreamingTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        let fixture = CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json")
        for name in ["a", "b", "c"] {
            try FileManager.default.copyItem(at: fixture, to: dir.appendingPathComponent("\(name).json"))
        }
        XCTAssertEqual(try CLI.run(["check", ".", "--update"], in: dir).status, 0)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The second timeline is a FIFO nobody writes to until the first case's verdict has been
    /// read from `check`'s standard output: a report written only at the end would never come.
    /// The `-o` file of the same check does not exist until the end.
    func testEachCaseIsReportedBeforeTheNextIsRead() throws {
        let fifo = dir.appendingPathComponent("late.json")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("a.expected.jsonl"), to: dir.appendingPathComponent("late.expected.jsonl"))
        for format in ["text", "junit"] {
            let report = dir.appendingPathComponent("report-\(format)")
            let process = Process()
            process.executableURL = try CLI.binary
            process.currentDirectoryURL = dir
            process.arguments = ["check", "a.json", "late.json", "--format", format, "-o", report.path, "--progress"]
            let err = Pipe()
            process.standardError = err
            try process.run()
            // The first case's progress line comes while the second waits on the FIFO.
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("\n") {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += chunk
            }
            let first = String(decoding: seen, as: UTF8.self)
            XCTAssertTrue(first.hasPrefix("[1/2] PASS a.json: equal: 33 records\n"), first)
            XCTAssertFalse(FileManager.default.fileExists(atPath: report.path), "the report appears whole, at the end")
            let writer = try FileHandle(forWritingTo: fifo)
            writer.write(try Data(contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json")))
            try writer.close()
            let rest = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, first + rest)
            XCTAssertTrue(rest.contains("[2/2] PASS late.json: equal: 33 records\n"), rest)
            let text = try String(contentsOf: report, encoding: .utf8)
            XCTAssertTrue(text.contains(format == "junit" ? #"tests="2" failures="0""# : "2 passed, 0 failed"), text)
        }
    }

    /// Without `--progress`, standard error stays quiet off a terminal (CI logs and the docs'
    /// examples); with it, one line per case in suite order, also with `--jobs`.
    func testProgressLinesOnlyWhenAsked() throws {
        var golden = try String(contentsOf: dir.appendingPathComponent("b.expected.jsonl"), encoding: .utf8)
        golden = golden.replacingOccurrences(of: #""t":1400"#, with: #""t":1401"#)
        try golden.write(to: dir.appendingPathComponent("b.expected.jsonl"), atomically: true, encoding: .utf8)
        let quiet = try CLI.run(["check", "."], in: dir)
        XCTAssertEqual(quiet.status, 1)
        XCTAssertEqual(quiet.stderr, "")
        for jobs in ["1", "2"] {
            let loud = try CLI.run(["check", ".", "--progress", "--jobs", jobs], in: dir)
            XCTAssertEqual(loud.status, 1)
            XCTAssertEqual(
                loud.stderr.split(separator: "\n").map { String($0.prefix(17)) },
                ["[1/3] PASS ./a.js", "[2/3] FAIL ./b.js", "[3/3] PASS ./c.js"], loud.stderr)
            XCTAssertEqual(loud.stdout, quiet.stdout, "the report does not depend on --progress or --jobs")
        }
    }

    /// Spooled cases come back after the totals: every format is whole and, for JUnit, valid.
    func testStreamedJUnitAndJSONAreWhole() throws {
        try "not a timeline\n".write(to: dir.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let junit = try CLI.run(["check", ".", "--format", "junit", "-o", "r.xml", "--jobs", "2"], in: dir)
        XCTAssertEqual(junit.status, 2, junit.stderr)
        XCTAssertTrue(junit.stderr.hasSuffix("2 passed, 0 failed, 1 errors\n"), junit.stderr)
        let xml = try String(contentsOf: dir.appendingPathComponent("r.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains(#"tests="3" failures="0" errors="1""#), xml)
        XCTAssertEqual(xml.components(separatedBy: "<testcase ").count - 1, 3)
        XCTAssertTrue(xml.hasSuffix("  </testsuite>\n</testsuites>\n"), xml)
        if let xmllint = ["/usr/bin/xmllint"].first(where: FileManager.default.isExecutableFile) {
            let schema = CLI.packageRoot.appendingPathComponent("Tests/AVTReplayTests/Check/junit.xsd")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xmllint)
            process.arguments = ["--noout", "--schema", schema.path, dir.appendingPathComponent("r.xml").path]
            process.standardError = Pipe()
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let json = try CLI.run(["check", ".", "--format", "json"], in: dir)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["passed"] as? Int, 2)
        XCTAssertEqual(object?["errors"] as? Int, 1)
        XCTAssertEqual((object?["cases"] as? [Any])?.count, 3)
        // Nothing of the spool is left beside the report.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("spool") }
        XCTAssertEqual(left, [])
    }
}

extension CheckStreamingTests {
    /// `check` compares streaming, `diff` compares two whole files: for a golden file edited in
    /// several ways, `check`'s report of the case is `diff`'s of the golden file and the output.
    func testCheckReportsWhatDiffReports() throws {
        XCTAssertEqual(try CLI.run(["run", "a.json", "-o", "produced.jsonl"], in: dir).status, 0)
        let golden = dir.appendingPathComponent("a.expected.jsonl")
        let original = try String(contentsOf: golden, encoding: .utf8)
        var lines = original.split(separator: "\n").map(String.init)
        lines.remove(at: 5)
        lines[12] = lines[12].replacingOccurrences(of: #"{"type":"#, with: #"{"unit":"ms","type":"#)
        lines.insert(lines[20], at: 20)
        lines[27] = lines[27].replacingOccurrences(of: #""t":"#, with: #""t":1"#)
        try (lines.joined(separator: "\n") + "\n").write(to: golden, atomically: true, encoding: .utf8)
        let check = try CLI.run(["check", "a.json", "--max-differences", "0"], in: dir)
        let diff = try CLI.run(["diff", "a.expected.jsonl", "produced.jsonl", "--max-differences", "0"], in: dir)
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(diff.status, 1)
        XCTAssertTrue(diff.stdout.contains("5 differences: 1 changed, 2 missing, 2 extra"), diff.stdout)
        XCTAssertEqual(check.stdout, "FAIL a.json\n" + diff.stdout + "0 passed, 1 failed, 0 errors\n")
    }
}
