import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Remote write against a real Prometheus (scripts/test starts one with
/// scripts/start-prometheus.sh: remote-write receiver on, a one-day out-of-order window, scraping
/// itself so its newest sample is about now) and counted back through its query API.
final class PrometheusServerTests: XCTestCase {
    static func server(_ variable: String, starts script: String) throws -> String {
        if let url = ProcessInfo.processInfo.environment[variable] { return url }
        if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
            XCTFail("\(variable) is not set: scripts/test starts the server with scripts/\(script)")
        }
        throw XCTSkip("no server: set \(variable) (scripts/test starts one with scripts/\(script))")
    }

    private var base: String {
        get throws { try Self.server("AVTREPLAY_PROMETHEUS_URL", starts: "start-prometheus.sh") }
    }
    private var destination: String {
        get throws { try base.replacingOccurrences(of: "http://", with: "prometheus://") }
    }

    /// A form POST; the answer's body.
    static func post(_ url: String, _ form: [(String, String)]) throws -> Data {
        var components = URLComponents()
        components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data((components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, _, _ in
            box.data = data ?? Data()
            done.signal()
        }.resume()
        done.wait()
        return box.data
    }

    /// The result of an instant query at `time` (epoch seconds).
    private func query(_ promql: String, at time: Double) throws -> [[String: Any]] {
        let data = try Self.post(try base + "/api/v1/query", [("query", promql), ("time", String(time))])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard json?["status"] as? String == "success", let payload = json?["data"] as? [String: Any] else {
            throw PrometheusTools.Failure(description: "\(promql): " + String(decoding: data, as: UTF8.self))
        }
        return payload["result"] as? [[String: Any]] ?? []
    }

    /// Several inputs from a directory of their own.
    private func sessions(_ names: [String]) throws -> URL { try CLI.fixtureDirectory(names) }

    /// A `--label` of the directory's own name keeps this test's series apart from every other
    /// test's on the shared server (the `session` label names the files, the same in every test).
    private func label(_ dir: URL) -> [String] { ["--label", "test=" + dir.lastPathComponent] }
    private func selector(_ dir: URL) -> String { "test=\"\(dir.lastPathComponent)\"" }

    /// Ten minutes ago, inside Prometheus' hour, on a whole second.
    private let start = (Int(Date().timeIntervalSince1970) - 600) * 1000

    func testEverySampleIsStoredAndCountedBackWithCountOverTime() throws {
        let dir = try sessions(["happy-path", "preroll-ads", "ima-preroll"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let flags = ["--start-time", String(start)] + label(dir)
        let printed = try PrometheusSample.parseOpenMetrics(
            try CLI.run(["run", dir.path, "--format", "openmetrics"] + flags).stdout)
        let run = try CLI.run(["run", dir.path, "--to", try destination] + flags)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(printed.count) samples delivered, 0 undelivered"), run.stderr)

        // Evaluated just after the last sample, over a range reaching back before the first.
        let last = try XCTUnwrap(printed.map(\.milliseconds).max())
        let time = Double(last) / 1000 + 1
        let range = "\((last - start) / 1000 + 10)s"
        let session = selector(dir)
        var counted = 0
        for name in Set(printed.map { $0.labels["__name__"]! }).sorted() {
            for result in try query("sum(count_over_time(\(name){\(session)}[\(range)]))", at: time) {
                counted += Int((result["value"] as? [Any])?.last as? String ?? "") ?? 0
            }
        }
        XCTAssertEqual(counted, printed.count, "count_over_time finds every sample")

        // And the samples themselves, values and timestamps, are those --format openmetrics prints.
        var stored: [PrometheusSample] = []
        for result in try query("{__name__=~\"oavt_.+\",\(session)}[\(range)]", at: time) {
            let labels = result["metric"] as? [String: String] ?? [:]
            for pair in result["values"] as? [[Any]] ?? [] {
                let ms = Int(((pair[0] as? Double) ?? 0) * 1000 + 0.5)
                stored.append(
                    PrometheusSample(labels: labels, value: Double(pair[1] as? String ?? "") ?? .nan, milliseconds: ms))
            }
        }
        XCTAssertEqual(Set(stored), Set(printed))
    }

    func testSamplesOutsideTheWindowStayOutOfTheRequestAndTheServerRefusesWhatIsTooOld() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        // The fixture's own start time, months ago: outside the hour Prometheus keeps.
        // 170 samples of records, 8 running sums of its 7 PlayTime and 1 RebufferTime, each of
        // the 24 counter series' 0 before the session and last value at its end, and the startup
        // histogram's 3 points of 10 samples (all 0 before, the Start, the end): 256.
        let run = try CLI.run(["run", "fixtures/happy-path.json", "--to", try destination, "--dead-letter", dead])
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("0 samples delivered, 256 undelivered"), run.stderr)
        XCTAssertEqual(
            run.stderr.components(separatedBy: "256 samples outside what the remote-write server keeps").count, 2,
            "said once: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("--end-time now"), run.stderr)
        let kept = try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(kept.count, 256)
        XCTAssertTrue(kept.allSatisfy { $0.contains(#""format":"openmetrics""#) })

        // Without the window they reach the server, which refuses them (older than its one-day
        // out-of-order window): every one comes back with the server's reason, none stored.
        let again = dir.appendingPathComponent("again.jsonl").path
        let send = try CLI.run([
            "send", dead, "--trust-destinations", "--prometheus-window", "0", "--dead-letter", again,
        ])
        XCTAssertEqual(send.status, 3, send.stderr)
        let refused = try String(contentsOfFile: again, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(refused.count, 256)
        // 2.42 says so with a 500 ("too old sample") when it has an out-of-order window, a 400
        // ("out of bounds") without one; either way nothing is retried in vain.
        XCTAssertTrue(
            refused.allSatisfy { $0.contains("too old sample") || $0.contains("out of bounds") }, String(refused[0]))
        XCTAssertFalse(refused.contains { $0.contains("attempts") }, String(refused[0]))
    }

    func testAnUndeliveredReplayIsSentLaterWithSend() throws {
        let dir = try sessions(["avplayer-session", "html5-session"])
        let letters = try CLI.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: letters)
        }
        let dead = letters.appendingPathComponent("dead.jsonl").path
        let flags = ["--start-time", String(start)] + label(dir)
        let down = try CLI.run(
            ["run", dir.path, "--to", "prometheus://127.0.0.1:9", "--dead-letter", dead, "--delivery-attempts", "1"]
                + flags)
        XCTAssertEqual(down.status, 3, down.stderr)
        let printed = try PrometheusSample.parseOpenMetrics(
            try CLI.run(["run", dir.path, "--format", "openmetrics"] + flags).stdout)
        let send = try CLI.run(["send", dead, "--to", try destination, "--dead-letter", letters.path + "/again.jsonl"])
        XCTAssertEqual(send.status, 0, send.stderr)
        XCTAssertTrue(send.stderr.contains("\(printed.count) delivered, 0 undelivered"), send.stderr)
        let last = try XCTUnwrap(printed.map(\.milliseconds).max())
        let session = selector(dir)
        let result = try query(
            "count(count_over_time(oavt_events_total{\(session)}[\((last - start) / 1000 + 10)s]))",
            at: Double(last) / 1000 + 1)
        let series = Set(printed.filter { $0.labels["__name__"] == "oavt_events_total" }.map(\.labels)).count
        XCTAssertEqual(Int((result.first?["value"] as? [Any])?.last as? String ?? ""), series)
    }
}
