import Foundation
import XCTest

/// The queries of docs/dashboards.md, read from the page and run against a real Prometheus and
/// InfluxDB 1.x (scripts/test starts both) after a replay of 50 generated sessions; each answer is
/// compared with the value computed from the JSON Lines records `run` writes.
final class DashboardQueriesTests: XCTestCase {
    private var prometheus: String {
        get throws { try PrometheusServerTests.server("AVTREPLAY_PROMETHEUS_URL", starts: "start-prometheus.sh") }
    }
    private var influx: String {
        get throws { try PrometheusServerTests.server("AVTREPLAY_INFLUX_URL", starts: "start-influxdb.sh") }
    }

    /// The page's blocks of one language, in order: startup p90, rebuffer ratio, plays per
    /// minute, errors per minute by tracker.
    private func queries(_ language: String) throws -> [String] {
        let page = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/dashboards.md"), encoding: .utf8)
        var found: [String] = []
        var inside = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```" + language {
                inside = true
                found.append("")
            } else if inside, line == "```" {
                inside = false
            } else if inside {
                found[found.count - 1] += (found[found.count - 1].isEmpty ? "" : "\n") + line
            }
        }
        XCTAssertEqual(found.count, 4, "four \(language) queries on the page")
        return found
    }

    /// Every `oavt_…` selector of a PromQL query restricted to this test's `--label`.
    private static func scoped(_ promql: String, _ matcher: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"(oavt_[a-z_]+)(\{([^}]*)\})?"#)
        var out = ""
        var last = promql.startIndex
        for match in pattern.matches(in: promql, range: NSRange(promql.startIndex..., in: promql)) {
            let whole = Range(match.range, in: promql)!
            let name = promql[Range(match.range(at: 1), in: promql)!]
            let inner = Range(match.range(at: 3), in: promql).map { String(promql[$0]) } ?? ""
            out += promql[last..<whole.lowerBound] + name + "{" + (inner.isEmpty ? "" : inner + ",") + matcher + "}"
            last = whole.upperBound
        }
        return out + promql[last...]
    }

    /// An instant PromQL query at `ms`: each result's labels and value.
    private func promQL(_ query: String, at ms: Int) throws -> [(labels: [String: String], value: Double)] {
        let data = try PrometheusServerTests.post(
            try prometheus + "/api/v1/query",
            [("query", query), ("time", String(format: "%d.%03d", ms / 1000, ms % 1000))])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard json?["status"] as? String == "success",
            let result = (json?["data"] as? [String: Any])?["result"] as? [[String: Any]]
        else { throw PrometheusTools.Failure(description: query + ": " + String(decoding: data, as: UTF8.self)) }
        return result.map {
            (
                ($0["metric"] as? [String: String]) ?? [:],
                Double((($0["value"] as? [Any])?.last as? String) ?? "") ?? .nan
            )
        }
    }

    /// An InfluxQL query: each series' tags and its first row's last column.
    private func influxQL(_ query: String, db: String) throws -> [(tags: [String: String], value: Double)] {
        let data = try PrometheusServerTests.post(try influx + "/query", [("db", db), ("q", query)])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let result = (json?["results"] as? [[String: Any]])?.first, result["error"] == nil else {
            throw PrometheusTools.Failure(description: query + ": " + String(decoding: data, as: UTF8.self))
        }
        return (result["series"] as? [[String: Any]] ?? []).map {
            let row = ($0["values"] as? [[Any]])?.first ?? []
            return (($0["tags"] as? [String: String]) ?? [:], (row.last as? NSNumber)?.doubleValue ?? .nan)
        }
    }

    func testEveryDashboardQueryAnswersWhatTheRecordsSay() throws {
        let promDestination = try prometheus.replacingOccurrences(of: "http://", with: "prometheus://")
        let db = "d" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        _ = try PrometheusServerTests.post(try influx + "/query", [("q", "CREATE DATABASE \(db)")])
        let influxDestination = try influx.replacingOccurrences(of: "http://", with: "influxdb://") + "/" + db
        let (promqls, influxqls) = (try queries("promql"), try queries("influxql"))
        // One scripted tracker, 20 steps: mostly first playbacks, whose startups (0.4 to 2.5 s) put
        // the p90 inside the histogram's buckets.
        let corpus = try GeneratedCorpus.make(count: 50, steps: 20, trackers: 1)
        defer { try? FileManager.default.removeItem(at: corpus) }
        let end = Int(Date().timeIntervalSince1970) * 1000
        let id = "q" + UUID().uuidString.prefix(8).lowercased()
        let arguments = ["run", corpus.path, "--end-time", String(end), "--jobs", "2", "--label", "test=" + id]

        // The expected values, from the records.
        let records = try CLI.run(arguments)
        XCTAssertEqual(records.status, 0, records.stderr)
        var startups: [Double] = []
        var sums: [String: Double] = [:]
        var errors: [String: Double] = [:]
        for line in records.stdout.split(separator: "\n") {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            if record["type"] as? String == "metric", let name = record["name"] as? String,
                let value = record["value"] as? Double
            {
                sums[name, default: 0] += value
                if name == "StartTime" { startups.append(value / 1000) }
            } else if record["action"] as? String == "Error", let tracker = record["tracker"] as? String {
                errors[tracker, default: 0] += 1
            }
        }
        XCTAssertGreaterThanOrEqual(startups.count, 50)
        XCTAssertGreaterThan(sums["RebufferTime"] ?? 0, 0)
        XCTAssertFalse(errors.isEmpty)
        let sorted = startups.sorted()
        // InfluxQL's PERCENTILE: the value at rank round(0.9 n), as docs/dashboards.md says.
        let nearestRank = sorted[Int((0.9 * Double(sorted.count) + 0.5).rounded(.down)) - 1]
        let rebufferRatio = sums["RebufferTime"]! / (sums["PlayTime"]! + sums["RebufferTime"]!)
        let playsPerMinute = sums["NumPlays"]! / 60

        let sent = try CLI.run(arguments + ["--to", promDestination, "--to", influxDestination])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(sent.stderr.components(separatedBy: " 0 undelivered").count, 3, sent.stderr)

        // Startup p90: InfluxDB exact, Prometheus inside the bucket that holds it.
        let p90 = try XCTUnwrap(try influxQL(influxqls[0], db: db).first?.value)
        XCTAssertEqual(p90, nearestRank, accuracy: 1e-9)
        let trueP90 = sorted[Int((0.9 * Double(sorted.count)).rounded(.up)) - 1]
        let bounds = [0, 0.25, 0.5, 1, 2, 4, 8, 16]
        let upper = try XCTUnwrap(bounds.first { $0 >= trueP90 }, "p90 \(trueP90) past the last bound")
        let lower = bounds.last { $0 < upper } ?? 0
        let estimate = try XCTUnwrap(try promQL(Self.scoped(promqls[0], "test=\"\(id)\""), at: end).first?.value)
        XCTAssertTrue(lower <= estimate && estimate <= upper, "p90 \(trueP90) in [\(lower), \(upper)]: \(estimate)")

        for (i, expected) in [(1, rebufferRatio), (2, playsPerMinute)] {
            let fromInflux = try XCTUnwrap(try influxQL(influxqls[i], db: db).first?.value, influxqls[i])
            XCTAssertEqual(fromInflux, expected, accuracy: 1e-9 * max(1, expected), influxqls[i])
            let fromPrometheus = try XCTUnwrap(
                try promQL(Self.scoped(promqls[i], "test=\"\(id)\""), at: end).first?.value, promqls[i])
            XCTAssertEqual(fromPrometheus, expected, accuracy: 1e-9 * max(1, expected), promqls[i])
        }

        // Errors per minute, by tracker.
        let expectedErrors = errors.mapValues { $0 / 60 }
        var fromInflux: [String: Double] = [:]
        for row in try influxQL(influxqls[3], db: db) { fromInflux[row.tags["tracker"] ?? "?"] = row.value }
        var fromPrometheus: [String: Double] = [:]
        for row in try promQL(Self.scoped(promqls[3], "test=\"\(id)\""), at: end) {
            fromPrometheus[row.labels["tracker"] ?? "?"] = row.value
        }
        for (name, answer) in [("InfluxDB", fromInflux), ("Prometheus", fromPrometheus)] {
            XCTAssertEqual(Set(answer.keys), Set(expectedErrors.keys), name)
            for (tracker, value) in expectedErrors {
                XCTAssertEqual(answer[tracker] ?? .nan, value, accuracy: 1e-9, "\(name) \(tracker)")
            }
        }
    }
}
