import Foundation
import XCTest

/// What a dashboard adds up over many sessions and runs, against a real Prometheus and
/// VictoriaMetrics (scripts/test starts both and sets AVTREPLAY_PROMETHEUS_URL and
/// AVTREPLAY_VICTORIA_URL), counted back sample by sample.
final class PrometheusCorpusTests: XCTestCase {
    private var prometheus: String {
        get throws { try PrometheusServerTests.server("AVTREPLAY_PROMETHEUS_URL", starts: "start-prometheus.sh") }
    }
    private var victoria: String {
        get throws { try PrometheusServerTests.server("AVTREPLAY_VICTORIA_URL", starts: "start-victoriametrics.sh") }
    }

    /// An instant query's result at `time` (epoch seconds, to the millisecond).
    private func query(_ promql: String, at ms: Int) throws -> [[String: Any]] {
        let data = try PrometheusServerTests.post(
            try prometheus + "/api/v1/query", [("query", promql), ("time", PrometheusCorpusTests.seconds(ms))])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard json?["status"] as? String == "success", let payload = json?["data"] as? [String: Any] else {
            throw PrometheusTools.Failure(description: "\(promql): " + String(decoding: data, as: UTF8.self))
        }
        return payload["result"] as? [[String: Any]] ?? []
    }

    private static func seconds(_ ms: Int) -> String { String(format: "%d.%03d", ms / 1000, ms % 1000) }

    /// The one value of an instant vector (nil when it is empty).
    private func value(_ promql: String, at ms: Int) throws -> Double? {
        let result = try query(promql, at: ms)
        XCTAssertLessThanOrEqual(result.count, 1, promql)
        return ((result.first?["value"] as? [Any])?.last as? String).flatMap(Double.init)
    }

    /// Every sample VictoriaMetrics holds under series matching `match`.
    private func exported(_ match: String) throws -> Int {
        _ = try PrometheusServerTests.post(try victoria + "/internal/force_flush", [])
        let data = try PrometheusServerTests.post(try victoria + "/api/v1/export", [("match[]", match)])
        var count = 0
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let json = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] ?? [:]
            count += (json["timestamps"] as? [Int] ?? []).count
        }
        return count
    }

    /// Samples `--format openmetrics` prints: what the remote-write runs must store.
    private func printed(_ arguments: [String]) throws -> [PrometheusSample] {
        let run = try CLI.run(arguments + ["--format", "openmetrics"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try PrometheusSample.parseOpenMetrics(run.stdout)
    }

    /// Two replays of one input at one start time: without a label they are the same series and
    /// the server keeps one; `--label run=…` keeps both whole, on both servers.
    func testTwoRunsOfOneInputAtOneTimeUnderTwoLabelsAreBothKeptWhole() throws {
        let promDestination = try prometheus.replacingOccurrences(of: "http://", with: "prometheus://")
        let vmDestination =
            try victoria.replacingOccurrences(of: "http://", with: "prometheus://") + "/api/v1/write"
        let start = (Int(Date().timeIntervalSince1970) - 600) * 1000
        let id = "r" + UUID().uuidString.prefix(8).lowercased()
        var expected: [String: Int] = [:]
        for run in [id + "a", id + "b"] {
            let arguments = ["run", "fixtures/happy-path.json", "--start-time", String(start), "--label", "run=" + run]
            let samples = try printed(arguments)
            XCTAssertTrue(samples.allSatisfy { $0.labels["run"] == run })
            expected[run] = samples.count
            for destination in [promDestination, vmDestination] {
                let sent = try CLI.run(
                    arguments + ["--to", destination, "--prometheus-window", String(31 * 86_400)])
                XCTAssertEqual(sent.status, 0, sent.stderr)
                XCTAssertTrue(sent.stderr.contains("\(samples.count) samples delivered, 0 undelivered"), sent.stderr)
            }
        }
        let end = start + 150_000 + 1
        for (run, count) in expected {
            let stored = try query("{__name__=~\"oavt_.+\",run=\"\(run)\"}[11m]", at: end).map {
                ($0["values"] as? [Any] ?? []).count
            }
            XCTAssertEqual(stored.reduce(0, +), count, "Prometheus keeps every sample of run \(run)")
            XCTAssertEqual(
                try exported("{__name__=~\"oavt_.+\",run=\"\(run)\"}"), count,
                "VictoriaMetrics keeps every sample of run \(run)")
        }
    }

    /// `send --label`: one dead-letter file sent twice under two labels is kept whole twice.
    func testSendUnderTwoLabelsKeepsBothWhole() throws {
        let destination = try prometheus.replacingOccurrences(of: "http://", with: "prometheus://")
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let start = (Int(Date().timeIntervalSince1970) - 600) * 1000
        let down = try CLI.run([
            "run", "fixtures/happy-path.json", "--start-time", String(start), "--to", "prometheus://127.0.0.1:9",
            "--delivery-attempts", "1", "--dead-letter", dead,
        ])
        XCTAssertEqual(down.status, 3, down.stderr)
        let samples = try printed(["run", "fixtures/happy-path.json", "--start-time", String(start)])
        let id = "s" + UUID().uuidString.prefix(8).lowercased()
        for run in [id + "a", id + "b"] {
            let send = try CLI.run([
                "send", dead, "--to", destination, "--label", "run=" + run, "--dead-letter", dir.path + "/again.jsonl",
            ])
            XCTAssertEqual(send.status, 0, send.stderr)
            XCTAssertTrue(send.stderr.contains("\(samples.count) delivered, 0 undelivered"), send.stderr)
        }
        for run in [id + "a", id + "b"] {
            let stored = try query("{__name__=~\"oavt_.+\",run=\"\(run)\"}[11m]", at: start + 150_001).map {
                ($0["values"] as? [Any] ?? []).count
            }
            XCTAssertEqual(stored.reduce(0, +), samples.count, "every sample sent under run=\(run)")
        }
        let bad = try CLI.run(["send", dead, "--to", destination, "--label", "__x=1"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--label __x=1: the name \"__x\" is not a Prometheus label name"), bad.stderr)
    }

    /// Startup as a histogram over 50 sessions: every StartTime metric `run` writes is one
    /// observation, and the 90th percentile Prometheus estimates lies in the bucket that holds
    /// the true one, computed from the same StartTime values.
    func testStartupHistogramOverFiftySessionsCountsEveryStartup() throws {
        let destination = try prometheus.replacingOccurrences(of: "http://", with: "prometheus://")
        // One scripted tracker, 20 steps: mostly first playbacks, whose startups (0.4 to 2.5 s) put
        // the p90 in a bounded bucket.
        let corpus = try GeneratedCorpus.make(count: 50, steps: 20, trackers: 1)
        defer { try? FileManager.default.removeItem(at: corpus) }
        let end = Int(Date().timeIntervalSince1970) * 1000
        let id = "h" + UUID().uuidString.prefix(8).lowercased()
        let arguments = ["run", corpus.path, "--end-time", String(end), "--jobs", "2"]
        let records = try CLI.run(arguments)
        XCTAssertEqual(records.status, 0, records.stderr)
        var startups: [Double] = []
        for line in records.stdout.split(separator: "\n") where line.contains(#""name":"StartTime""#) {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            startups.append((record?["value"] as? Double ?? -1) / 1000)
        }
        XCTAssertGreaterThanOrEqual(startups.count, 50)

        let sent = try CLI.run(arguments + ["--to", destination, "--label", "test=" + id])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stderr.contains(" 0 undelivered"), sent.stderr)
        XCTAssertEqual(
            try value("sum(oavt_startup_duration_seconds_count{test=\"\(id)\"})", at: end), Double(startups.count),
            "one observation per StartTime, equal ones included")
        XCTAssertEqual(
            try value("sum(oavt_startup_duration_seconds_sum{test=\"\(id)\"})", at: end) ?? 0,
            startups.reduce(0, +), accuracy: 1e-6)

        // The true p90 (nearest rank) and the bucket it falls in, from the documented bounds.
        let sorted = startups.sorted()
        let p90 = sorted[Int((0.9 * Double(sorted.count)).rounded(.up)) - 1]
        let bounds = [0, 0.25, 0.5, 1, 2, 4, 8, 16]
        let estimate = try value(
            "histogram_quantile(0.9, sum by (le) (oavt_startup_duration_seconds_bucket{test=\"\(id)\"}))", at: end)
        let q = try XCTUnwrap(estimate)
        let upper = try XCTUnwrap(bounds.first { $0 >= p90 }, "p90 \(p90) past the last bound")
        let lower = bounds.last { $0 < upper } ?? 0
        XCTAssertTrue(lower <= q && q <= upper, "p90 \(p90) is in (\(lower), \(upper)], Prometheus says \(q)")
    }

    /// `increase()` over every counter series of 50 sessions ending now counts exactly the
    /// events and metrics `run` wrote: each series starts at 0 before its session and holds its
    /// last value at the session's end, where the query is evaluated.
    func testIncreaseOverFiftySessionsCountsEveryEvent() throws {
        let destination = try prometheus.replacingOccurrences(of: "http://", with: "prometheus://")
        let corpus = try GeneratedCorpus.make(count: 50, steps: 60)
        defer { try? FileManager.default.removeItem(at: corpus) }
        let end = Int(Date().timeIntervalSince1970) * 1000
        let id = "i" + UUID().uuidString.prefix(8).lowercased()
        let arguments = ["run", corpus.path, "--end-time", String(end), "--jobs", "2"]
        let records = try CLI.run(arguments)
        XCTAssertEqual(records.status, 0, records.stderr)
        let events = records.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"type":"event""#) }.count
        let counted = try GeneratedCorpus.counterTotals(records.stdout)
        XCTAssertGreaterThan(events, 1000)

        let sent = try CLI.run(arguments + ["--to", destination, "--label", "test=" + id])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stderr.contains("undelivered") && sent.stderr.contains(" 0 undelivered"), sent.stderr)
        // The range reaches back past the longest session's start.
        let range = "[1h]"
        XCTAssertEqual(
            try value("sum(increase(oavt_events_total{test=\"\(id)\"}\(range)))", at: end), Double(events),
            "every event counted once")
        for (metric, family) in [
            ("NumRequests", "oavt_requests_total"), ("NumPlays", "oavt_plays_total"), ("NumEnds", "oavt_ends_total"),
        ] {
            XCTAssertEqual(
                try value("sum(increase(\(family){test=\"\(id)\"}\(range)))", at: end), counted[metric], metric)
        }
        // Time played, from the PlayTime metrics `run` wrote, in seconds.
        var played = 0.0
        for line in records.stdout.split(separator: "\n") where line.contains(#""name":"PlayTime""#) {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            played += (record?["value"] as? Double ?? 0) / 1000
        }
        XCTAssertGreaterThan(played, 0)
        XCTAssertEqual(
            try value("sum(increase(oavt_played_seconds_total{test=\"\(id)\"}\(range)))", at: end) ?? 0, played,
            accuracy: 1e-6)
        XCTAssertEqual(
            try value(
                "count(count by (session) (count_over_time(oavt_events_total{test=\"\(id)\"}\(range))))", at: end),
            50,
            "one series per session")
    }
}
