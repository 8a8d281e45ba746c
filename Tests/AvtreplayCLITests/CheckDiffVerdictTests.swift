import Foundation
import XCTest

/// `check` and `diff` verdicts end to end: long sessions, tolerances by kind, `--ignore` names and
/// what the text report lets reach a terminal.
final class CheckDiffVerdictTests: XCTestCase {
    private func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testALiveSessionWithRenamedPlayTimeInItsGoldenFails() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let timeline = try write(
            """
            {"pingInterval": 1000, "until": 3000000, "trackers": [{"name": "content"}], "steps": [
              {"t": 0, "tracker": "content", "action": "StreamLoad"},
              {"t": 1000, "tracker": "content", "action": "Start"}]}
            """, "live.json", in: dir)
        XCTAssertEqual(try CLI.run(["check", timeline, "--update"]).status, 0)
        let goldenURL = dir.appendingPathComponent("live.expected.jsonl")
        let golden = try String(contentsOf: goldenURL, encoding: .utf8)
        let renamed = golden.replacingOccurrences(of: #""name":"PlayTime""#, with: #""name":"PlayingTime""#)
        let count = golden.components(separatedBy: #""name":"PlayTime""#).count - 1
        XCTAssertGreaterThan(count, 2900)
        try renamed.write(to: goldenURL, atomically: true, encoding: .utf8)
        let result = try CLI.run(["check", timeline, "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stdout.suffix(500) + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("\"changed\":0,\"missing\":\(count),\"extra\":\(count)"),
            String(result.stdout.prefix(500)))
    }

    func testTwoThousandAndOneCountersOfAnotherNameDiffer() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func counters(_ name: String) -> String {
            (0..<2001).map {
                #"{"type":"metric","t":\#($0 * 1000),"name":"\#(name)","metricType":"counter","value":1}"#
            }.joined(separator: "\n") + "\n"
        }
        let plays = try write(counters("NumPlays"), "plays.jsonl", in: dir)
        let errors = try write(counters("NumErrors"), "errors.jsonl", in: dir)
        let result = try CLI.run(["diff", plays, errors])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stdout.hasSuffix(
                "4002 differences: 0 changed, 2001 missing, 2001 extra (2001 expected, 2001 actual)\n"),
            String(result.stdout.suffix(300)))
    }

    func testTheTimeToleranceLeavesMetricValuesExact() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = try write(
            """
            {"type":"metric","t":1000,"name":"VideoPacketLoss","metricType":"gauge","value":0.0055}
            {"type":"metric","t":2000,"name":"NumRebuffers","metricType":"counter","value":1}
            {"type":"event","t":3000,"action":"Start","attributes":{"timeSinceStreamLoad":3000}}

            """, "e.jsonl", in: dir)
        let actual = try write(
            """
            {"type":"metric","t":1000,"name":"VideoPacketLoss","metricType":"gauge","value":0.9}
            {"type":"metric","t":2000,"name":"NumRebuffers","metricType":"counter","value":3}
            {"type":"event","t":3040,"action":"Start","attributes":{"timeSinceStreamLoad":3040}}

            """, "a.jsonl", in: dir)
        let loose = try CLI.run(["diff", expected, actual, "--tolerance", "50"])
        XCTAssertEqual(loose.status, 1)
        XCTAssertTrue(loose.stdout.contains("    value: 0.0055 → 0.9"), loose.stdout)
        XCTAssertTrue(loose.stdout.contains("    value: 1 → 3"), loose.stdout)
        XCTAssertTrue(
            loose.stdout.hasSuffix("2 differences: 2 changed, 0 missing, 0 extra (3 expected, 3 actual)\n"),
            loose.stdout)
        let named = try CLI.run([
            "diff", expected, actual, "--tolerance", "50", "--value-tolerance", "ratio=0.9,NumRebuffers=2",
        ])
        XCTAssertEqual(named.status, 0, named.stdout)
        let bad = try CLI.run(["diff", expected, actual, "--value-tolerance", "gauge=x"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--value-tolerance 'gauge=x'"), bad.stderr)
    }

    func testIgnoreTakesReportedNamesAndWarnsOnceAboutNamesMatchingNothing() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["happy-path.json", "preroll-ads.json"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name)"), to: dir.appendingPathComponent(name))
        }
        XCTAssertEqual(try CLI.run(["check", dir.path, "--update"]).status, 0)
        let result = try CLI.run(["check", dir.path, "--ignore", "attributes.position,postion"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(
            result.stderr.components(separatedBy: "warning: --ignore postion matches no attribute").count - 1, 1,
            result.stderr)
        XCTAssertFalse(result.stderr.contains("position matches"), result.stderr)
    }

    func testTheTextReportEscapesControlCharacters() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = try write(
            #"{"type":"event","t":0,"action":"Start\u001b[2J","attributes":{"title":"a\rb"}}"# + "\n", "e.jsonl",
            in: dir)
        let actual = try write(
            #"{"type":"event","t":0,"action":"Start\u001b[2J","attributes":{"title":"\u001b]0;owned\u0007"}}"# + "\n",
            "a.jsonl", in: dir)
        let result = try CLI.run(["diff", expected, actual])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, result.stdout)
        XCTAssertTrue(result.stdout.contains(#"~ t=0 event Start\u001B[2J"#), result.stdout)
    }
}
