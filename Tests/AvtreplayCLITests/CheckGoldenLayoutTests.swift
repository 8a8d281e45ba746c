import Foundation
import XCTest

/// Every golden-file layout `check --help` and docs/check-diff.md show, the folder layouts
/// `run`, `kpi` and `report` meet beside them, and the verdicts CI reads from `check`.
final class CheckGoldenLayoutTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        for name in ["happy-path.json", "preroll-ads.json"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name)"), to: dir.appendingPathComponent(name))
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func run(_ arguments: [String]) throws -> CLIResult { try CLI.run(arguments, in: dir) }

    /// `avtreplay check session.json --expect golden/session.jsonl`, with `golden/` inside the
    /// timelines folder: `check`, `run`, `kpi` and `report` on the folder leave it alone.
    func testAGoldenFolderInsideTheTimelinesFolder() throws {
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("golden"), withIntermediateDirectories: true)
        let golden = try run(["run", "happy-path.json", "-o", "golden/happy-path.jsonl"])
        XCTAssertEqual(golden.status, 0, golden.stderr)
        let expect = try run(["check", "happy-path.json", "--expect", "golden/happy-path.jsonl"])
        XCTAssertEqual(expect.status, 0, expect.stdout + expect.stderr)
        let update = try run(["check", "--update", "."])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertFalse(update.stderr.contains("golden/"), update.stderr)
        XCTAssertEqual(try run(["check", "."]).status, 0)
        let replay = try run(["run", "."])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertFalse(replay.stdout.contains("golden/"))
        XCTAssertEqual(try run(["kpi", "."]).status, 0)
        let report = try run(["report", ".", "-o", "report.html"])
        XCTAssertEqual(report.status, 0, report.stderr)
    }

    /// `avtreplay check tests/player/ --update`, then `check tests/player/`: goldens beside.
    func testGoldenFilesBesideTheTimelines() throws {
        XCTAssertEqual(try run(["check", ".", "--update"]).status, 0)
        let pass = try run(["check", "."])
        XCTAssertEqual(pass.status, 0, pass.stdout)
        XCTAssertTrue(pass.stdout.hasSuffix("2 passed, 0 failed, 0 errors\n"), pass.stdout)
        XCTAssertEqual(try run(["run", "."]).status, 0)
        XCTAssertEqual(try run(["kpi", "."]).status, 0)
    }

    func testTwoTimelinesSharingAGoldenFileAreBadInput() throws {
        let csv = try run(["convert", "happy-path.json", "happy-path.csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        for arguments in [["check", ".", "--update"], ["check", "."]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, result.stdout)
            XCTAssertTrue(
                result.stderr.contains("happy-path.csv and ./happy-path.json would share"), result.stderr)
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: dir.appendingPathComponent("happy-path.expected.jsonl").path))
    }

    func testExpectTakesOneFileForOneTimeline() throws {
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("golden"), withIntermediateDirectories: true)
        let directory = try run(["check", "happy-path.json", "--expect", "golden"])
        XCTAssertEqual(directory.status, 2)
        XCTAssertTrue(directory.stderr.contains("not a directory"), directory.stderr)
        XCTAssertEqual(try run(["check", ".", "--expect", "golden/x.jsonl"]).status, 2)
        XCTAssertEqual(
            try run(["check", "happy-path.json", "preroll-ads.json", "--expect", "golden/x.jsonl"]).status, 2)
    }

    func testAnEmptyFolderIsBadInputForEveryCommand() throws {
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("empty"), withIntermediateDirectories: true)
        for command in ["run", "kpi", "report", "check"] {
            let result = try run([command, "empty"])
            XCTAssertEqual(result.status, 2, "\(command): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains("empty: no timelines"), "\(command): \(result.stderr)")
        }
    }

    /// Missing golden files fail by default (one line each); `--allow-missing` lists them;
    /// `--strict`, the old opt-in, is still accepted.
    func testMissingGoldenFilesFailUnlessAllowedAndTheJUnitSummaryOnStandardError() throws {
        XCTAssertEqual(try run(["check", "happy-path.json", "--update"]).status, 0)
        try "".write(to: dir.appendingPathComponent("gone.expected.jsonl"), atomically: true, encoding: .utf8)
        let strict = try run(["check", "."])
        XCTAssertEqual(strict.status, 1, strict.stdout)
        XCTAssertTrue(strict.stdout.contains("FAIL ./preroll-ads.json: no expected output"), strict.stdout)
        XCTAssertTrue(strict.stdout.contains("FAIL ./gone.expected.jsonl: no timeline"), strict.stdout)
        XCTAssertTrue(strict.stdout.hasSuffix("1 passed, 2 failed, 0 errors\n"), strict.stdout)
        let lenient = try run(["check", ".", "--allow-missing"])
        XCTAssertEqual(lenient.status, 0, lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("SKIP ./preroll-ads.json: no expected output"), lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("ORPHAN ./gone.expected.jsonl: no timeline"), lenient.stdout)
        XCTAssertTrue(
            lenient.stdout.hasSuffix("1 passed, 0 failed, 0 errors, 1 skipped, 1 orphaned\n"), lenient.stdout)
        let junitFile = try run(["check", ".", "--strict", "--format", "junit", "-o", "report.xml"])
        XCTAssertEqual(junitFile.status, 1)
        XCTAssertEqual(junitFile.stdout, "")
        XCTAssertTrue(junitFile.stderr.contains("PASS ./happy-path.json: equal"), junitFile.stderr)
        XCTAssertTrue(junitFile.stderr.contains("1 passed, 2 failed, 0 errors"), junitFile.stderr)
        let xml = try String(contentsOf: dir.appendingPathComponent("report.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains(#"tests="3" failures="2" errors="0""#), xml)
        let junit = try run(["check", ".", "--allow-missing", "--format", "junit"])
        XCTAssertTrue(junit.stdout.contains("<skipped>no expected output"), junit.stdout)
        XCTAssertEqual(try run(["check", ".", "--strict", "--allow-missing"]).status, 2)
    }

    /// A folder whose golden files were never committed guards nothing: it fails.
    func testAFolderWithoutGoldenFilesFails() throws {
        let result = try run(["check", "."])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("0 passed, 2 failed, 0 errors\n"), result.stdout)
    }

    /// A player log with its golden file, overwritten by a failed capture: an ERROR for that
    /// case (exit 2), not a vanished timeline and an orphaned golden file.
    func testAFileThatIsNoLongerATimelineBesideItsGoldenIsAnError() throws {
        XCTAssertEqual(try run(["check", ".", "--update"]).status, 0)
        try "error: no devices/emulators found\n".write(
            to: dir.appendingPathComponent("logcat.txt"), atomically: true, encoding: .utf8)
        try "".write(to: dir.appendingPathComponent("logcat.txt.expected.jsonl"), atomically: true, encoding: .utf8)
        let result = try run(["check", "."])
        XCTAssertEqual(result.status, 2, result.stdout)
        XCTAssertTrue(result.stdout.contains("ERROR ./logcat.txt: "), result.stdout)
        XCTAssertFalse(result.stdout.contains("ORPHAN"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("2 passed, 0 failed, 1 errors\n"), result.stdout)
    }

    /// `check --update` reports on standard output, or into `-o FILE`, and in JSON for tools.
    func testUpdateWritesItsReportWhereAskedAndInJSON() throws {
        let file = try run(["check", ".", "--update", "-o", "update.txt"])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(file.stdout, "")
        let text = try String(contentsOf: dir.appendingPathComponent("update.txt"), encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("2 created, 0 updated, 0 unchanged\n"), text)
        let json = try run(["check", ".", "--update", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(
            json.stdout.hasPrefix(
                #"{"created":0,"updated":0,"unchanged":2,"files":[{"path":"./happy-path.expected.jsonl","change":"unchanged""#
            ),
            json.stdout)
        XCTAssertTrue(json.stdout.hasSuffix(#""cases":[]}}"# + "\n"), json.stdout)
    }

    func testErrorsAreCountedApartFromFailures() throws {
        XCTAssertEqual(try run(["check", ".", "--update"]).status, 0)
        try "{\"type\": \"event\"}\n".write(
            to: dir.appendingPathComponent("happy-path.expected.jsonl"), atomically: true, encoding: .utf8)
        let result = try run(["check", ".", "--format", "json"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stdout.hasPrefix(#"{"passed":1,"failed":0,"errors":1,"#), result.stdout)
    }

    func testJobsShardsAndRepeatedInputs() throws {
        XCTAssertEqual(try run(["check", ".", "--update"]).status, 0)
        let all = try run(["check", ".", "happy-path.json", "./happy-path.json", "--jobs", "2"])
        XCTAssertEqual(all.status, 0, all.stdout)
        XCTAssertTrue(all.stdout.hasSuffix("2 passed, 0 failed, 0 errors\n"), all.stdout)
        // The two shards check each case once between them (which one takes a case is its name's).
        var passed: [String] = []
        for shard in ["1/2", "2/2"] {
            let result = try run(["check", ".", "--shard", shard])
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            passed += result.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS ") }.map(String.init)
        }
        XCTAssertEqual(
            passed.sorted(),
            ["PASS ./happy-path.json: equal: 33 records", "PASS ./preroll-ads.json: equal: 28 records"])
    }

    func testAnUpdateKeepsModeAndSymlinkAndWritesOnlyChanges() throws {
        XCTAssertEqual(try run(["check", "happy-path.json", "--update"]).status, 0)
        let golden = dir.appendingPathComponent("happy-path.expected.jsonl").path
        let stored = dir.appendingPathComponent("store.jsonl").path
        try FileManager.default.moveItem(atPath: golden, toPath: stored)
        try FileManager.default.createSymbolicLink(atPath: golden, withDestinationPath: "store.jsonl")
        XCTAssertEqual(chmod(stored, 0o600), 0)
        let inode = try FileManager.default.attributesOfItem(atPath: stored)[.systemFileNumber] as? Int
        let again = try run(["check", "happy-path.json", "--update"])
        XCTAssertTrue(again.stdout.contains("0 created, 0 updated, 1 unchanged"), again.stdout)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: stored)[.systemFileNumber] as? Int, inode)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: stored)[.posixPermissions] as? Int, 0o600)
        try "{}\n".write(toFile: stored, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(stored, 0o600), 0)
        let changed = try run(["check", "happy-path.json", "--update"])
        XCTAssertTrue(changed.stdout.contains("0 created, 1 updated, 0 unchanged"), changed.stdout)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: golden), "store.jsonl")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: stored)[.posixPermissions] as? Int, 0o600)
    }

    func testAPrettyPrintedGoldenFileIsNamedAsSuch() throws {
        try "[\n  {\"type\": \"event\"}\n]\n".write(
            to: dir.appendingPathComponent("happy-path.expected.jsonl"), atomically: true, encoding: .utf8)
        let result = try run(["check", "happy-path.json"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stdout.contains("a golden file holds one JSON record per line"), result.stdout)
    }
}
