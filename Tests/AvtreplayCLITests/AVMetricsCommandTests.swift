import Foundation
import XCTest

/// `run` and `kpi` on the two AVMetrics fixtures: the timeline form and the serialized log.
final class AVMetricsCommandTests: XCTestCase {
    func testRunGivesTheSameRecordsForTheLogAndTheTimeline() throws {
        let timeline = try CLI.run(["run", "fixtures/avmetrics-session.json"])
        XCTAssertEqual(timeline.status, 0, timeline.stderr)
        let log = try CLI.run(["run", "fixtures/avmetrics-log.jsonl"])
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertEqual(log.stdout, timeline.stdout)
        // From standard input, detected by its first line or named with --input-format.
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/avmetrics-log.jsonl"), encoding: .utf8)
        XCTAssertEqual(try CLI.run(["run", "-"], stdin: text).stdout, timeline.stdout)
        XCTAssertEqual(try CLI.run(["run", "-", "--input-format", "avmetrics"], stdin: text).stdout, timeline.stdout)
        let actions = timeline.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == "event"
            else { return nil }
            return "\(object["t"] as? Int ?? -1) \(object["action"] as? String ?? "")"
        }
        XCTAssertEqual(
            actions,
            [
                "0 TrackerInit", "180 ManifestLoad", "390 StreamLoad", "1200 Start", "20000 BufferBegin",
                "21500 BufferFinish",
                "30000 SeekBegin", "30400 SeekFinish", "31200 Ping", "41000 QualityChangeDown", "50000 PauseBegin",
                "55000 PauseFinish",
                "60000 End",
            ])
    }

    func testKPIOnBothFixturesHasTheBreakdownAndTheCrossCheck() throws {
        let json = try CLI.run([
            "kpi", "fixtures/avmetrics-session.json", "fixtures/avmetrics-log.jsonl", "--format", "json",
        ])
        XCTAssertEqual(json.status, 0, json.stderr)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try XCTUnwrap(root["sessions"] as? [[String: Any]])
        XCTAssertEqual(sessions.count, 2)
        for session in sessions {
            let avmetrics = try XCTUnwrap(session["avmetrics"] as? [String: Any], "\(session["session"] ?? "")")
            let breakdown = try XCTUnwrap(avmetrics["startupBreakdown"] as? [String: Any])
            // 400 + 170 + 500 + 130 = 1200 (AVMetricsKPITests works them out).
            XCTAssertEqual(
                ["total", "playlist", "contentKey", "mediaSegment", "other"].map { breakdown[$0] as? Int },
                [1200, 400, 170, 500, 130])
            XCTAssertEqual((breakdown["spans"] as? [Any])?.count, 7)
            let failed = try XCTUnwrap(avmetrics["failedRequests"] as? [[String: Any]])
            XCTAssertEqual(failed.map { $0["httpStatus"] as? Int }, [404])
            XCTAssertEqual((failed[0]["variantSwitches"] as? [[String: Any]])?.first?["toBitrate"] as? Int, 1_200_000)
            XCTAssertEqual((avmetrics["slowestRequests"] as? [[String: Any]])?.first?["duration"] as? Int, 580)
            XCTAssertEqual(avmetrics["disagreements"] as? Int, 1)
            let flagged = (avmetrics["summaryCrossCheck"] as? [[String: Any]] ?? []).filter {
                $0["agrees"] as? Bool == false
            }
            XCTAssertEqual(flagged.map { $0["ours"] as? String }, ["startupTime"])
        }
        // The KPIs themselves are the same for both forms.
        XCTAssertEqual(
            (sessions[0]["totals"] as? NSDictionary), (sessions[1]["totals"] as? NSDictionary))

        let table = try CLI.run(["kpi", "fixtures/avmetrics-log.jsonl"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(
            table.stdout.contains("AVMetrics startup breakdown: 1200 ms to the initial likely-to-keep-up"), table.stdout
        )
        XCTAssertTrue(table.stdout.contains("  playlist          400 ms   33.3 %"), table.stdout)
        XCTAssertTrue(table.stdout.contains("HTTP 404 [HTTP 404: File Not Found]"), table.stdout)
        XCTAssertTrue(table.stdout.contains("→ variant switch 40000–41000 ms: 3000000 → 1200000 bps"), table.stdout)
        XCTAssertTrue(
            table.stdout.contains(
                "  timeSpentInInitialStartup     1200  startupTime                             810  DISAGREES"),
            table.stdout)
        // Sessions without AVMetrics have no such section.
        XCTAssertFalse(try CLI.run(["kpi", "fixtures/happy-path.json"]).stdout.contains("AVMetrics"))
    }

    func testABadLogLineExitsTwoNamingTheLine() throws {
        let log = """
            {"event": "AVMetricPlayerItemRateChangeEvent", "date": "2026-03-01T12:00:00Z", "rate": 1, "previousRate": 0}
            {"event": "AVMetricPlayerItemStallEvent", "date": "2026-03-01T12:00:05Z", "timeTaken": 1}
            """
        for command in ["run", "kpi"] {
            let result = try CLI.run([command, "-", "--input-format", "avmetrics"], stdin: log)
            XCTAssertEqual(result.status, 2, command)
            XCTAssertTrue(
                result.stderr.contains(
                    "<stdin>:2:88: timeTaken: \"timeTaken\" is not a property of AVMetricPlayerItemStallEvent: expected one of: date, mediaTime, sessionID, rate, previousRate, variant"
                ),
                result.stderr)
            XCTAssertFalse(result.stderr.contains("Fatal"), result.stderr)
        }
    }

    func testConvertTurnsALogIntoATimeline() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("session.json").path
        let converted = try CLI.run(["convert", "fixtures/avmetrics-log.jsonl", out])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(try CLI.run(["run", out]).stdout, try CLI.run(["run", "fixtures/avmetrics-log.jsonl"]).stdout)
        XCTAssertEqual(
            try CLI.run(["convert", "fixtures/avmetrics-log.jsonl", "-", "--output-format", "avmetrics"]).status, 2)
    }
}
