import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Which timelines `check` compares with which golden files, and what an update does to them.
final class GoldenSuiteTests: XCTestCase {
    private static let timeline = """
        {"trackers": [{"name": "content"}], "steps": [
          {"t": 0, "tracker": "content", "action": "StreamLoad"},
          {"t": 1000, "tracker": "content", "action": "Start"},
          {"t": 61000, "tracker": "content", "action": "End"}]}
        """
    private static let csv = "t,tracker,action\n0,content,StreamLoad\n1000,content,Start\n"

    private func error(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testTwoTimelinesSharingAGoldenFileAreRefused() throws {
        let scratch = try ScratchDirectory()
        let json = try scratch.write("s.json", Self.timeline)
        let csv = try scratch.write("s.csv", Self.csv)
        for update in [false, true] {
            let message = error { _ = try GoldenSuite([scratch.url.path], update: update) }
            XCTAssertTrue(message.contains("s.json") && message.contains("s.csv"), message)
        }
        XCTAssertTrue(error { _ = try GoldenSuite([json, csv]) }.contains("would share"))
    }

    func testExpectTakesOneFileForOneTimeline() throws {
        let scratch = try ScratchDirectory()
        let a = try scratch.write("t/a.json", Self.timeline)
        try scratch.write("t/b.json", Self.timeline)
        let golden = try scratch.write("golden/a.jsonl", "")
        let directory = scratch.url.appendingPathComponent("golden").path
        XCTAssertTrue(error { _ = try GoldenSuite([a], expect: directory) }.contains("not a directory"))
        let many = error { _ = try GoldenSuite([scratch.url.appendingPathComponent("t").path], expect: golden) }
        XCTAssertTrue(many.contains("exactly one timeline"), many)
        XCTAssertEqual(try GoldenSuite([a], expect: golden).items, [.timeline(a, expected: golden)])
    }

    func testGapsOrphansAndRepeatedInputs() throws {
        let scratch = try ScratchDirectory()
        let a = try scratch.write("a.json", Self.timeline)
        let b = try scratch.write("b.json", Self.timeline)
        try scratch.write("a.expected.jsonl", "")
        let orphan = try scratch.write("gone.expected.jsonl", "")
        // A goldens folder inside: output records, not timelines.
        try scratch.write("golden/a.jsonl", #"{"type":"event","t":0}"# + "\n")
        let root = scratch.url.path
        let suite = try GoldenSuite([a, root, a])
        XCTAssertEqual(
            suite.items,
            [
                .timeline(a, expected: GoldenFiles.expectedPath(for: a)),
                .skipped(root + "/b.json", expected: GoldenFiles.expectedPath(for: b)), .orphaned(orphan),
            ])
        // Missing golden files fail by default; --allow-missing only lists them.
        XCTAssertEqual(GoldenCheck().compare(suite).map(\.verdict), [.failed, .failed, .failed])
        var lenient = GoldenCheck()
        lenient.allowMissing = true
        XCTAssertEqual(lenient.compare(suite).map(\.verdict), [.failed, .skipped, .orphaned])
    }

    func testFoldersTellOutputsFromTimelinesByTheirFirstRecord() throws {
        let scratch = try ScratchDirectory()
        let timeline = try scratch.write("s.json", Self.timeline)
        let steps = try scratch.write("steps.jsonl", #"{"trackers": [{"name": "content"}]}"# + "\n")
        let log = try scratch.write("golden/s.jsonl", "\n" + #"{"type":"event","t":0}"# + "\n")
        let root = scratch.url.path
        XCTAssertEqual(try SessionDiscovery.expand([root]), [timeline, steps])
        XCTAssertEqual(try SessionDiscovery.expand([root], keepOutputs: .whenNoTimelines), [timeline, steps])
        XCTAssertEqual(try SessionDiscovery.expand([root], keepOutputs: .always), [log, timeline, steps])
        let logs = scratch.url.appendingPathComponent("golden").path
        XCTAssertEqual(try SessionDiscovery.expand([logs], keepOutputs: .whenNoTimelines), [log])
        XCTAssertThrowsError(try SessionDiscovery.expand([logs]))
    }

    func testEmptyDirectoryIsAnError() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("notes.txt", "")
        for keepOutputs in [SessionDiscovery.Outputs.never, .always, .whenNoTimelines] {
            XCTAssertThrowsError(try SessionDiscovery.expand([scratch.url.path], keepOutputs: keepOutputs))
        }
        XCTAssertThrowsError(try GoldenSuite([scratch.url.path]))
    }

    func testTotalsCountErrorsApartFromFailures() {
        let cases = [
            CheckCase(name: "a", seconds: 0, outcome: .error("x")),
            CheckCase(name: "b", seconds: 0, outcome: .skipped("no golden"), strict: false),
            CheckCase(name: "c", seconds: 0, outcome: .orphaned("no timeline"), strict: false),
        ]
        XCTAssertEqual(CheckReport.totals(cases), "0 passed, 0 failed, 1 errors, 1 skipped, 1 orphaned")
        XCTAssertEqual(CheckReport.totals([]), "0 passed, 0 failed, 0 errors")
        let text = CheckReport.render(cases, format: .text, single: false, color: false, timestamp: "")
        XCTAssertTrue(text.contains("SKIP b: no golden\n") && text.contains("ORPHAN c: no timeline\n"), text)
        let json = CheckReport.render(cases, format: .json, single: false, color: false, timestamp: "")
        XCTAssertTrue(json.hasPrefix(#"{"passed":0,"failed":0,"errors":1,"skipped":1,"orphaned":1,"#), json)
        let xml = JUnitReport.xml(cases, timestamp: "")
        XCTAssertTrue(xml.contains(#"errors="1" skipped="2""#) && xml.contains("<skipped>no golden</skipped>"), xml)
        XCTAssertEqual(CheckReport.status(Array(cases.dropFirst())), .ok)
    }

    /// A path or message with control characters (a file named by a hostile pull request) is
    /// shown escaped in every PASS/FAIL/ERROR line: nothing moves the cursor or retitles a terminal.
    func testCaseLinesEscapeControlCharacters() {
        let cases = [
            CheckCase(name: "a\u{1B}]0;owned\u{07}.json", seconds: 0, outcome: .error("bad\rline")),
            CheckCase(name: "b\u{1B}[2J.json", seconds: 0, outcome: .skipped("no golden")),
        ]
        for text in [
            CheckReport.render(cases, format: .text, single: false, color: false, timestamp: ""),
            CheckReport.summary(cases),
        ] {
            XCTAssertFalse(text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" }, text)
            XCTAssertTrue(text.contains("ERROR a\\u001B]0;owned\\u0007.json: bad\\u000Dline"), text)
        }
    }

    func testAPrettyPrintedGoldenFileIsNamedAsSuch() throws {
        let scratch = try ScratchDirectory()
        let a = try scratch.write("a.json", Self.timeline)
        for text in ["[\n  {\"type\": \"event\", \"t\": 0}\n]\n", "{\n  \"type\": \"event\",\n  \"t\": 0\n}\n"] {
            try scratch.write("a.expected.jsonl", text)
            let cases = GoldenCheck().compare(try GoldenSuite([a]))
            guard case .error(let message) = cases.first?.outcome else { return XCTFail("not an error") }
            XCTAssertTrue(message.contains("one JSON record per line"), message)
        }
    }

    func testANoOpUpdateLeavesTheFileAlone() throws {
        let scratch = try ScratchDirectory()
        let a = try scratch.write("a.json", Self.timeline)
        let suite = try GoldenSuite([a])
        _ = GoldenCheck().update(suite) { _, _, _ in }
        // The golden file lives elsewhere, reached by a symlink, mode 600.
        let real = scratch.url.appendingPathComponent("store/a.jsonl").path
        try FileManager.default.createDirectory(
            atPath: scratch.url.appendingPathComponent("store").path, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: GoldenFiles.expectedPath(for: a), toPath: real)
        try FileManager.default.createSymbolicLink(atPath: GoldenFiles.expectedPath(for: a), withDestinationPath: real)
        XCTAssertEqual(chmod(real, 0o600), 0)
        let before = try FileManager.default.attributesOfItem(atPath: real)
        var changes: [GoldenCheck.Change] = []
        _ = GoldenCheck().update(suite) { _, _, change in changes.append(change) }
        XCTAssertEqual(changes, [.unchanged])
        let after = try FileManager.default.attributesOfItem(atPath: real)
        XCTAssertEqual(after[.systemFileNumber] as? Int, before[.systemFileNumber] as? Int)
        XCTAssertEqual(after[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: GoldenFiles.expectedPath(for: a)), real)

        // A real change: written through the link, mode kept, the differences said.
        try scratch.write("a.json", Self.timeline.replacingOccurrences(of: "61000", with: "62000"))
        var lines: [String] = []
        _ = GoldenCheck().update(suite) { _, line, change in
            lines.append(line)
            changes.append(change)
        }
        XCTAssertEqual(changes.last, .updated)
        XCTAssertTrue(lines.last?.contains("62000") == true, "\(lines)")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: GoldenFiles.expectedPath(for: a)), real)
        XCTAssertTrue(try String(contentsOfFile: real, encoding: .utf8).contains("62000"))
    }

    func testJobsKeepTheOrderAndShardsSplitIt() throws {
        let scratch = try ScratchDirectory()
        var paths: [String] = []
        for n in 0..<5 { paths.append(try scratch.write("s\(n).json", Self.timeline)) }
        let suite = try GoldenSuite([scratch.url.path], update: true)
        _ = GoldenCheck().update(suite) { _, _, _ in }
        var parallel = GoldenCheck()
        parallel.jobs = 3
        let cases = parallel.compare(try GoldenSuite([scratch.url.path]))
        XCTAssertEqual(cases.map(\.name), paths.map { $0.replacingOccurrences(of: "//", with: "/") })
        XCTAssertEqual(cases.map(\.verdict), Array(repeating: .passed, count: 5))
        XCTAssertEqual(
            try GoldenSuite([scratch.url.path], shard: Shard("2/2")).items.map(\.path), [paths[1], paths[3]])
    }
}
