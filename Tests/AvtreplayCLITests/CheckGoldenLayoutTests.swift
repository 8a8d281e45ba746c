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

    func testSkippedOrphanedStrictAndTheJUnitSummaryOnStandardError() throws {
        XCTAssertEqual(try run(["check", "happy-path.json", "--update"]).status, 0)
        try "".write(to: dir.appendingPathComponent("gone.expected.jsonl"), atomically: true, encoding: .utf8)
        let lenient = try run(["check", "."])
        XCTAssertEqual(lenient.status, 0, lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("SKIP ./preroll-ads.json: no expected output"), lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("ORPHAN ./gone.expected.jsonl: no timeline"), lenient.stdout)
        XCTAssertTrue(
            lenient.stdout.hasSuffix("1 passed, 0 failed, 0 errors, 1 skipped, 1 orphaned\n"), lenient.stdout)
        let strict = try run(["check", ".", "--strict", "--format", "junit", "-o", "report.xml"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.stdout, "")
        XCTAssertTrue(strict.stderr.contains("PASS ./happy-path.json: equal"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("1 passed, 2 failed, 0 errors"), strict.stderr)
        let xml = try String(contentsOf: dir.appendingPathComponent("report.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains(#"tests="3" failures="2" errors="0""#), xml)
        let junit = try run(["check", ".", "--format", "junit"])
        XCTAssertTrue(junit.stdout.contains("<skipped message=\"no expected output"), junit.stdout)
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
        let first = try run(["check", ".", "--shard", "1/2"])
        let second = try run(["check", ".", "--shard", "2/2"])
        XCTAssertTrue(first.stdout.hasPrefix("PASS ./happy-path.json") && first.stdout.contains("1 passed"))
        XCTAssertTrue(second.stdout.hasPrefix("PASS ./preroll-ads.json") && second.stdout.contains("1 passed"))
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
        XCTAssertTrue(again.stderr.contains("0 created, 0 updated, 1 unchanged"), again.stderr)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: stored)[.systemFileNumber] as? Int, inode)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: stored)[.posixPermissions] as? Int, 0o600)
        try "{}\n".write(toFile: stored, atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(stored, 0o600), 0)
        let changed = try run(["check", "happy-path.json", "--update"])
        XCTAssertTrue(changed.stderr.contains("0 created, 1 updated, 0 unchanged"), changed.stderr)
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
