import Foundation
import XCTest

/// `check` compares the whole record, as a backend receives it: every member, and whether a
/// number is an integer or a fraction. Each test changes one thing a backend would see.
final class CheckWholeRecordTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
            to: dir.appendingPathComponent("happy-path.json"))
        XCTAssertEqual(try run(["check", ".", "--update"]).status, 0)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func run(_ arguments: [String]) throws -> CLIResult { try CLI.run(arguments, in: dir) }

    /// Replaces the first occurrence of `old` in a file of the folder.
    private func edit(_ name: String, _ old: String, _ new: String) throws {
        let url = dir.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        let range = try XCTUnwrap(text.range(of: old), "\(old) not in \(name)")
        try text.replacingCharacters(in: range, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// InfluxDB types `2500000` as an integer field and `2500000.0` as a float one.
    func testAnIntegerThatBecomesAFractionInATimelineDiffers() throws {
        try edit("happy-path.json", #""bitrate": 2500000,"#, #""bitrate": 2500000.0,"#)
        let result = try run(["check", "."])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.contains("attributes.bitrate: 2500000 → 2500000.0"), result.stdout)
        // A tolerance loosens amounts, never the kind of number.
        XCTAssertEqual(try run(["check", ".", "--tolerance", "1000"]).status, 1)
    }

    func testAnIntegerThatBecomesAFractionInAGoldenDiffers() throws {
        try edit("happy-path.expected.jsonl", #""value":1400"#, #""value":1400.0"#)
        let result = try run(["check", "."])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stdout.contains("value: 1400.0 → 1400"), result.stdout)
    }

    /// Each member of an event and of a metric record, changed in the golden file, fails.
    func testEveryMemberOfAGoldenRecordIsCompared() throws {
        let golden = "happy-path.expected.jsonl"
        let original = try String(contentsOf: dir.appendingPathComponent(golden), encoding: .utf8)
        let mutations: [(String, String, String)] = [
            (
                "event time", #""time":"2026-03-01T12:00:00.000Z","action""#,
                #""time":"2027-06-01T12:00:00.000Z","action""#
            ),
            ("metric time", #""time":"2026-03-01T12:00:00.000Z","name""#, #""time":"2026-03-01T12:00:00.001Z","name""#),
            ("metricType", #""metricType":"counter""#, #""metricType":"gauge""#),
            ("an added member", #"{"type":"metric","#, #"{"type":"metric","unit":"ms","#),
            ("an added event member", #"{"type":"event","#, #"{"type":"event","source":"x","#),
            ("t", #""t":1350,"#, #""t":1351,"#),
            ("action", #""action":"TrackerInit""#, #""action":"TrackerInits""#),
            ("tracker", #""tracker":"content""#, #""tracker":"ads""#),
            ("metric name", #""name":"NumRequests""#, #""name":"NumRequest""#),
            ("metric value", #""value":1400"#, #""value":1401"#),
            ("an attribute", #""trackerTarget":"AVPlayer""#, #""trackerTarget":"ExoPlayer""#),
            ("a boolean attribute", #""inBufferBlock":false"#, #""inBufferBlock":0"#),
        ]
        for (what, old, new) in mutations {
            try original.write(to: dir.appendingPathComponent(golden), atomically: true, encoding: .utf8)
            try edit(golden, old, new)
            let result = try run(["check", "."])
            XCTAssertEqual(result.status, 1, "\(what): \(result.stdout)")
        }
    }

    /// Moving the timeline's startTime moves every record's `time`; `--ignore time` is the way
    /// to say that does not matter.
    func testAMovedStartTimeDiffersUnlessTimeIsIgnored() throws {
        try edit("happy-path.json", #""startTime": "2026-03-01T12:00:00Z""#, #""startTime": "2027-06-01T12:00:00Z""#)
        let result = try run(["check", "."])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(
            result.stdout.contains(#"time: "2026-03-01T12:00:00.000Z" → "2027-06-01T12:00:00.000Z""#), result.stdout)
        let ignored = try run(["check", ".", "--ignore", "time"])
        XCTAssertEqual(ignored.status, 0, ignored.stdout + ignored.stderr)
    }

    /// `--tolerance` covers `time` as it covers `t`.
    func testTheTimeToleranceCoversTime() throws {
        try edit(
            "happy-path.expected.jsonl", #""t":1350,"time":"2026-03-01T12:00:01.350Z""#,
            #""t":1340,"time":"2026-03-01T12:00:01.340Z""#)
        XCTAssertEqual(try run(["check", "."]).status, 1)
        let loose = try run(["check", ".", "--tolerance", "10"])
        XCTAssertEqual(loose.status, 0, loose.stdout)
    }

    /// JUnit valid against Jenkins' junit-4.xsd: no `testcase@file`, no `skipped@message`; the
    /// failure's message is the first difference, and its text starts with it (no context).
    func testJUnitNamesTheFirstDifferenceAndValidates() throws {
        try edit("happy-path.expected.jsonl", #""value":1400"#, #""value":1399"#)
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("fixtures/preroll-ads.json"),
            to: dir.appendingPathComponent("new.json"))
        let result = try run(["check", ".", "--format", "junit", "-o", "report.xml", "--allow-missing"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let xml = try String(contentsOf: dir.appendingPathComponent("report.xml"), encoding: .utf8)
        XCTAssertFalse(xml.contains(" file="), xml)
        XCTAssertFalse(xml.contains("<skipped message="), xml)
        XCTAssertTrue(
            xml.contains(#"<failure message="t=1400 metric StartTime value 1399 → 1400; 1 difference"#), xml)
        XCTAssertTrue(xml.contains(#"type="RecordsDiffer">~ t=1400 metric StartTime = 1399"#), xml)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") else { return }
        let schema = CLI.packageRoot.appendingPathComponent("Tests/AVTReplayTests/Check/junit.xsd").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = ["--noout", "--schema", schema, dir.appendingPathComponent("report.xml").path]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
