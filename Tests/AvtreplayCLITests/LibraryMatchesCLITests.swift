import AVTReplayKit
import Foundation
import XCTest

// Only public API and the one import a library user writes.

/// Every fixture through the library and through the command line: `run`, `kpi` (each definition
/// set, with aggregates and state histories) and `check` give the same bytes, since the command
/// calls the same entry points.
final class LibraryMatchesCLITests: XCTestCase {
    /// The 22 fixtures: the timelines and the players' own logs.
    static var fixtures: [String] {
        get throws {
            let root = CLI.packageRoot.appendingPathComponent("fixtures")
            var paths: [String] = []
            for folder in ["", "player-logs"] {
                let dir = folder.isEmpty ? root : root.appendingPathComponent(folder)
                for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                    var isDirectory: ObjCBool = false
                    let url = dir.appendingPathComponent(name)
                    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                        !isDirectory.boolValue
                    else { continue }
                    paths.append("fixtures/" + (folder.isEmpty ? "" : folder + "/") + name)
                }
            }
            return paths
        }
    }

    override func setUp() {
        super.setUp()
        // Relative paths, as the command is given them (and as sessions are named).
        _ = FileManager.default.changeCurrentDirectoryPath(CLI.packageRoot.path)
    }

    func testRunGivesTheCLIsRecords() throws {
        let fixtures = try Self.fixtures
        XCTAssertEqual(fixtures.count, 22)
        for fixture in fixtures {
            let sink = MemorySink()
            try Replayer.run(fixture, into: sink)
            let cli = try CLI.run(["run", fixture])
            XCTAssertEqual(cli.status, 0, "\(fixture): \(cli.stderr)")
            XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), cli.stdout, fixture)
        }
    }

    func testKPIsInEveryDefinitionSetAreTheCLIs() throws {
        let fixtures = try Self.fixtures
        let sessions = try KPISessions.load(fixtures, keepSpans: true)
        XCTAssertEqual(sessions.count, fixtures.count, "a session per input")
        for definitions in KPIDefinitions.allCases {
            let cli = try CLI.run(
                ["kpi", "--format", "json", "--aggregate", "--definitions", definitions.rawValue] + fixtures)
            XCTAssertEqual(cli.status, 0, cli.stderr)
            XCTAssertEqual(
                KPIReport.json(sessions, definitions: definitions, aggregate: true), cli.stdout, definitions.rawValue)
            let table = try CLI.run(["kpi", "--states", "--definitions", definitions.rawValue] + fixtures)
            let tables = sessions.map { KPIReport.table($0, definitions: definitions) + StateHistoryTable.render($0) }
            XCTAssertEqual(tables.joined(), table.stdout, definitions.rawValue)
        }
    }

    func testCheckGivesTheCLIsReport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for fixture in ["happy-path.json", "html5-session.json", "ima-preroll.json"] {
            let source = CLI.packageRoot.appendingPathComponent("fixtures/" + fixture)
            let copy = dir.appendingPathComponent(fixture)
            try FileManager.default.copyItem(at: source, to: copy)
            let golden = MemorySink()
            try Replayer.run(copy.path, into: golden)
            var bytes = golden.bytes
            // One golden file a little off: a failure, with its differences, in both reports.
            if fixture == "html5-session.json" {
                bytes = Array(
                    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"t\":0,", with: "\"t\":1,").utf8)
            }
            try Data(bytes).write(
                to: dir.appendingPathComponent(fixture.replacingOccurrences(of: ".json", with: ".expected.jsonl")))
        }
        var checker = GoldenChecker()
        checker.comparison = try XCTUnwrap(ComparisonOptions(ignore: ["attributes.position"], tolerance: 0))
        let results = try checker.check([dir.path])
        XCTAssertEqual(results.map(\.verdict), [.passed, .failed, .passed])
        XCTAssertGreaterThan(results[1].differences.changed, 0)
        let cli = try CLI.run(["check", dir.path, "--ignore", "attributes.position"])
        XCTAssertEqual(cli.status, 1, cli.stderr)
        XCTAssertEqual(GoldenChecker.report(results, format: .text), cli.stdout)
    }
}
