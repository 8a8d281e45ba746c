import Foundation
import XCTest

/// `avtreplay kpi` end to end: the JSON contract, event logs, formats, bad input.
final class KPICommandTests: XCTestCase {
    func testJSONContractWithAggregate() throws {
        let result = try CLI.run([
            "kpi", "fixtures/happy-path.json", "fixtures/preroll-ads.json", "--format", "json", "--aggregate",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["definitions"] as? String, "openavt")
        let sessions = try XCTUnwrap(json["sessions"] as? [[String: Any]])
        XCTAssertEqual(
            sessions.map { $0["session"] as? String }, ["fixtures/happy-path.json", "fixtures/preroll-ads.json"])
        let playback = try XCTUnwrap((sessions[0]["playbacks"] as? [[String: Any]])?.first)
        XCTAssertEqual(playback["startupTime"] as? Int, 1400)
        XCTAssertEqual(playback["rebufferTime"] as? Int, 2500)
        XCTAssertNotNil(playback["playbackId"] as? String)
        let aggregate = try XCTUnwrap(json["aggregate"] as? [String: [String: Any]])
        XCTAssertEqual(aggregate["startupTime"]?["count"] as? Int, 2)
        XCTAssertEqual(aggregate["startupTime"]?["max"] as? Int, 16200)
        XCTAssertEqual(
            Set(aggregate["playTime"]?.keys.map { $0 } ?? []),
            ["count", "mean", "min", "p50", "p90", "p95", "p99", "max"])
    }

    func testEventLogsAndDefinitions() throws {
        let log = try CLI.run(["run", "fixtures/happy-path.json", "fixtures/preroll-ads.json"]).stdout
        let fromLog = try CLI.run(["kpi", "--from-events", "-", "--format", "csv"], stdin: log)
        XCTAssertEqual(fromLog.status, 0, fromLog.stderr)
        let direct = try CLI.run(["kpi", "fixtures/happy-path.json", "fixtures/preroll-ads.json", "--format", "csv"])
        XCTAssertEqual(
            fromLog.stdout.split(separator: "\n").map { $0.split(separator: ",").dropFirst(2).joined(separator: ",") },
            direct.stdout.split(separator: "\n").map { $0.split(separator: ",").dropFirst(2).joined(separator: ",") },
            "the same KPIs from the log as from the replay")
        let mux = try CLI.run(["kpi", "fixtures/preroll-ads.json", "--definitions", "mux", "--format", "json"])
        XCTAssertTrue(
            mux.stdout.contains(#""startupTime":450"#), "Mux stops at the pre-roll's first frame: \(mux.stdout)")
    }

    func testUnitsAggregatesAndIdsInEveryFormat() throws {
        let inputs = ["fixtures/happy-path.json", "fixtures/preroll-ads.json"]
        let csv = try CLI.run(["kpi"] + inputs + ["--format", "csv", "--aggregate"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let lines = csv.stdout.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix("session,playbackId,startupTime (ms),startTimeMetric (ms),started (flag)"))
        XCTAssertTrue(lines[0].contains(",rebufferRatio (ratio),rebufferFrequency (1/min),"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("(all),(pooled),") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("(all),(p90),") })
        // Two sessions, one playback each: different ids, the same on every run.
        let ids = lines.dropFirst().map { $0.split(separator: ",")[1] }.filter { !$0.hasPrefix("(") }
        XCTAssertEqual(ids.count, 2)
        XCTAssertNotEqual(ids[0], ids[1])
        XCTAssertEqual(try CLI.run(["kpi"] + inputs + ["--format", "csv", "--aggregate"]).stdout, csv.stdout)
        let table = try CLI.run(["kpi"] + inputs + ["--aggregate"])
        XCTAssertTrue(table.stdout.contains("all sessions: 2 playbacks (definitions: openavt)"), table.stdout)
        XCTAssertTrue(table.stdout.contains("startupTime (ms)"))
        let json = try CLI.run(["kpi"] + inputs + ["--format", "json", "--aggregate"]).stdout
        XCTAssertTrue(json.contains(#""units":{"startupTime":"ms""#))
        XCTAssertTrue(json.contains(#""pooled":{"startupTime":"#))
    }

    /// Mux's Rebuffer Percentage pooled over views is Σ rebuffer duration ÷ Σ watch time
    /// (field-reference.md, "Mux Rebuffer Percentage"; docs/kpi.md `--aggregate`): both terms are
    /// printed beside the ratio, in every format, so it can be checked by hand.
    func testPooledWatchTimeShowsTheTermsOfThePooledRatio() throws {
        let result = try CLI.run([
            "kpi", "fixtures", "--format", "json", "--aggregate", "--definitions", "mux",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let playbacks = try XCTUnwrap(json["sessions"] as? [[String: Any]]).flatMap {
            ($0["playbacks"] as? [[String: Any]]) ?? []
        }
        let watch = playbacks.compactMap { $0["watchTime"] as? Int }
        XCTAssertEqual(watch.count, playbacks.count, "every playback has a watch time in the mux set")
        let pooled = try XCTUnwrap(json["pooled"] as? [String: Any])
        XCTAssertEqual(pooled["watchTime"] as? Int, watch.reduce(0, +))
        let rebuffer = playbacks.compactMap { $0["rebufferTime"] as? Int }.reduce(0, +)
        XCTAssertEqual(pooled["rebufferTime"] as? Int, rebuffer)
        // Foundation's JSON reader may round the last digit of a double.
        let ratio = try XCTUnwrap(pooled["rebufferRatio"] as? Double)
        XCTAssertEqual(ratio, Double(rebuffer) / Double(watch.reduce(0, +)), accuracy: 1e-15)
        let csv = try CLI.run(["kpi", "fixtures", "--format", "csv", "--aggregate", "--definitions", "mux"])
        XCTAssertTrue(csv.stdout.split(separator: "\n")[0].contains(",watchTime (ms),"))
    }

    func testBadInputExitsTwo() throws {
        let result = try CLI.run(["kpi", "--from-events", "-"], stdin: "not json\n")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("<stdin>:1:1"), result.stderr)
        XCTAssertEqual(try CLI.run(["kpi", "fixtures/happy-path.json", "--definitions", "nielsen"]).status, 2)
    }
}
