import Foundation
import XCTest

/// Against a real single-node VictoriaMetrics (scripts/test starts one with
/// scripts/start-victoriametrics.sh): remote write at /api/v1/write, InfluxDB 2.x line protocol
/// at /api/v2/write, both counted back through /api/v1/export.
final class VictoriaMetricsServerTests: XCTestCase {
    private var base: String {
        get throws { try PrometheusServerTests.server("AVTREPLAY_VICTORIA_URL", starts: "start-victoriametrics.sh") }
    }

    /// Every sample stored under series matching `match`, after making written data searchable.
    private func export(_ match: String) throws -> [PrometheusSample] {
        _ = try PrometheusServerTests.post(try base + "/internal/force_flush", [])
        let data = try PrometheusServerTests.post(try base + "/api/v1/export", [("match[]", match)])
        var samples: [PrometheusSample] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let json = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] ?? [:]
            let labels = json["metric"] as? [String: String] ?? [:]
            let values = json["values"] as? [Any] ?? []
            let times = json["timestamps"] as? [Int] ?? []
            XCTAssertEqual(values.count, times.count)
            for (value, ms) in zip(values, times) {
                let number = (value as? Double) ?? (value as? Int).map(Double.init) ?? .nan
                samples.append(PrometheusSample(labels: labels, value: number, milliseconds: ms))
            }
        }
        return samples
    }

    private func inputs(_ names: [String]) throws -> URL { try CLI.fixtureDirectory(names) }

    /// An hour ago, inside VictoriaMetrics' month.
    private let start = (Int(Date().timeIntervalSince1970) - 3600) * 1000

    func testRemoteWriteStoresEverySampleOpenMetricsPrints() throws {
        let dir = try inputs(["happy-path", "preroll-ads", "exoplayer-session"])
        defer { try? FileManager.default.removeItem(at: dir) }
        // A label of the directory's name keeps this test's series apart on the shared server.
        let label = ["--label", "test=" + dir.lastPathComponent]
        let flags = ["--start-time", String(start), "--prometheus-window", String(31 * 86_400)] + label
        let printed = try PrometheusSample.parseOpenMetrics(
            try CLI.run(["run", dir.path, "--format", "openmetrics", "--start-time", String(start)] + label).stdout)
        let destination = try base.replacingOccurrences(of: "http://", with: "prometheus://") + "/api/v1/write"
        let run = try CLI.run(["run", dir.path, "--to", destination, "--delivery-batch", "100"] + flags)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(printed.count) samples delivered, 0 undelivered"), run.stderr)
        let stored = try export("{__name__=~\"oavt_.+\",test=\"\(dir.lastPathComponent)\"}")
        XCTAssertEqual(stored.count, printed.count)
        XCTAssertEqual(Set(stored), Set(printed))
    }

    /// The `influxdb2://` path, tested elsewhere against a stand-in, here against a real server:
    /// VictoriaMetrics stores each field of a line as the series `<measurement>_<field>`
    /// (a string field as the value 0), so every attribute of every record is one sample.
    func testInfluxDB2LineProtocolStoresEveryFieldOfEveryRecord() throws {
        let dir = try inputs(["happy-path", "avplayer-session"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let flags = [
            "--start-time", String(start), "--influx-measurements", "OAVT_\(dir.lastPathComponent.suffix(8))_E,M",
            "--label", "test=" + dir.lastPathComponent,
        ]
        var fields = 0
        let records = try CLI.run(["run", dir.path] + flags).stdout.split(separator: "\n")
        for record in records {
            let json = try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any] ?? [:]
            // An event's attributes are its fields (a `t` field when it has none); a metric has one.
            fields +=
                json["type"] as? String == "metric" ? 1 : max(1, (json["attributes"] as? [String: Any])?.count ?? 0)
        }
        let host = try base.replacingOccurrences(of: "http://", with: "")
        let run = try CLI.run(
            ["run", dir.path, "--to", "influxdb2://\(host)?org=replays&bucket=b"] + flags,
            environment: ["INFLUX_TOKEN": "any"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(records.count) points delivered, 0 undelivered"), run.stderr)
        let events = try export("{__name__=~\"OAVT_\(dir.lastPathComponent.suffix(8))_E_.+\"}")
        let metrics = try export("{__name__=~\"M_.+\",test=\"\(dir.lastPathComponent)\"}")
        XCTAssertEqual(events.count + metrics.count, fields, "one sample per field of every line")
        XCTAssertEqual(
            Set(metrics.map(\.labels["__name__"])),
            [
                "M_StartTime", "M_NumPlays", "M_NumRequests", "M_NumLoads", "M_PlayTime", "M_NumEnds", "M_NumRebuffers",
                "M_RebufferTime",
            ]
        )
    }
}
