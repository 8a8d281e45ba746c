import AVTCore
import AVTDelivery
import Foundation
import XCTest

/// New Relic cannot run here: a local server checks the documented wire contract of the Event
/// and Metric APIs and injects 429 and 503 answers.
final class NewRelicContractTests: XCTestCase {
    private let environment = ["NEW_RELIC_LICENSE_KEY": "test-key-123"]

    private func json(_ request: MockHTTPServer.Request) throws -> Any {
        XCTAssertEqual(request.headers["content-encoding"], "gzip")
        let body = try XCTUnwrap(Gzip.decompress(request.body), "body is gzip")
        return try JSONSerialization.jsonObject(with: Data(body))
    }

    /// Epoch ms now, whole seconds: a run placed with `--end-time` this value keeps every point
    /// inside New Relic's window.
    private var now: Int { Int(Date().timeIntervalSince1970) * 1000 }

    func testEventsAndMetricsFollowTheAPIs() throws {
        let server = try MockHTTPServer()
        let records = try CLI.run(["run", "fixtures/happy-path.json"]).stdout.split(separator: "\n")
        // happy-path.json lasts until t=150000, so its Start (t=1400) lands 148.6 s before the end.
        let end = now
        let result = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1234567", "--newrelic-endpoint",
                "http://127.0.0.1:\(server.port)", "--end-time", String(end),
            ],
            environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("newrelic://1234567: \(records.count) points delivered, 0 undelivered"),
            result.stderr)
        let requests = server.requests
        let eventsPost = try XCTUnwrap(requests.first { $0.path == "/v1/accounts/1234567/events" })
        let metricsPost = try XCTUnwrap(requests.first { $0.path == "/metric/v1" })
        for request in [eventsPost, metricsPost] {
            XCTAssertEqual(request.method, "POST")
            XCTAssertEqual(request.headers["api-key"], "test-key-123")
            XCTAssertEqual(request.headers["content-type"], "application/json")
            XCTAssertNotNil(request.headers["content-length"])
        }
        let events = try XCTUnwrap(try json(eventsPost) as? [[String: Any]])
        XCTAssertEqual(events.count, records.filter { $0.contains(#""type":"event""#) }.count)
        let start = try XCTUnwrap(events.first { $0["actionName"] as? String == "Start" })
        XCTAssertEqual(start["eventType"] as? String, "OAVT")
        XCTAssertEqual(start["timestamp"] as? Int, end - 150_000 + 1400, "epoch ms")
        XCTAssertEqual(start["countStarts"] as? Int, 1)
        XCTAssertEqual(start["inPlaybackBlock"] as? String, "true", "the Event API takes strings and numbers only")
        XCTAssertEqual(start["tracker"] as? String, "content")
        for event in events { XCTAssertLessThanOrEqual(event.count, 255) }
        // Strings and numbers only: no JSON booleans, objects or arrays as values.
        let text = String(decoding: try XCTUnwrap(Gzip.decompress(eventsPost.body)), as: UTF8.self)
        XCTAssertFalse(text.contains(":true") || text.contains(":false") || text.contains(":{") || text.contains(":["))
        let payload = try XCTUnwrap(try json(metricsPost) as? [[String: Any]])
        let metrics = try XCTUnwrap(payload.first?["metrics"] as? [[String: Any]])
        XCTAssertEqual(metrics.count, records.filter { $0.contains(#""type":"metric""#) }.count)
        let startTime = try XCTUnwrap(metrics.first { $0["name"] as? String == "OAVT.StartTime" })
        XCTAssertEqual(startTime["type"] as? String, "gauge")
        XCTAssertEqual(startTime["value"] as? Int, 1400)
        XCTAssertEqual(startTime["timestamp"] as? Int, end - 150_000 + 1400)
        let plays = try XCTUnwrap(metrics.first { $0["name"] as? String == "OAVT.NumPlays" })
        XCTAssertEqual(plays["type"] as? String, "count")
        XCTAssertEqual(plays["interval.ms"] as? Int, 1, "count metrics need an interval")
    }

    func testThrottlingIsRetriedAndOutagesKeptForSend() throws {
        let throttled = try MockHTTPServer(script: [(429, ["Retry-After": "0"]), (503, [:])])
        let ok = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1", "--newrelic-endpoint",
                "http://127.0.0.1:\(throttled.port)",
                "--delivery-retry-delay", "5", "--end-time", "now",
            ],
            environment: environment)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(throttled.requests.count, 4, "events: 429 then 503 then 202; metrics: 202")

        let down = try MockHTTPServer(fallback: 503)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let failed = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1", "--newrelic-endpoint",
                "http://127.0.0.1:\(down.port)",
                "--delivery-attempts", "2", "--delivery-retry-delay", "5", "--dead-letter", dead, "--end-time", "now",
            ],
            environment: environment)
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertEqual(try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n").count, 33)
        let up = try MockHTTPServer()
        let sent = try CLI.run(
            ["send", dead, "--trust-destinations", "--newrelic-endpoint", "http://127.0.0.1:\(up.port)"],
            environment: environment)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(up.requests.count, 2, "one events post, one metrics post")
        let rejected = try MockHTTPServer(fallback: 403)
        let forbidden = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1", "--newrelic-endpoint",
                "http://127.0.0.1:\(rejected.port)",
                "--dead-letter", dead, "--end-time", "now",
            ],
            environment: environment)
        XCTAssertEqual(forbidden.status, 3)
        XCTAssertEqual(rejected.requests.count, 2, "403 is not retried")
    }

    func testPointsOutsideTheWindowAreKeptNotSent() throws {
        // The Metric API's limits (and the Event API's timestamp): 48 h back, 24 h ahead. New
        // Relic answers 202 to points outside and drops them, so they must not be sent at all.
        let hour = 3_600_000
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (flag, time) in [("--end-time", now - 49 * hour), ("--start-time", now + 25 * hour)] {
            let server = try MockHTTPServer()
            let dead = dir.appendingPathComponent("dead\(flag).jsonl").path
            let result = try CLI.run(
                [
                    "run", "fixtures/happy-path.json", "--to", "newrelic://1", "--newrelic-endpoint",
                    "http://127.0.0.1:\(server.port)", flag, String(time), "--dead-letter", dead,
                ],
                environment: environment)
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssertEqual(server.requests.count, 0, "nothing is sent that New Relic would drop")
            XCTAssertTrue(
                result.stderr.contains(
                    "newrelic://1: 33 points outside what New Relic keeps (48 h ago to 24 h ahead) went to the "
                        + "dead-letter file, not to the server; replay with --end-time now"),
                result.stderr)
            let kept = try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(kept.count, 33)
            // send checks the window again: still outside, still kept, still not sent.
            let again = dir.appendingPathComponent("again\(flag).jsonl").path
            let send = try CLI.run(
                [
                    "send", dead, "--trust-destinations", "--newrelic-endpoint", "http://127.0.0.1:\(server.port)",
                    "--dead-letter", again,
                ],
                environment: environment)
            XCTAssertEqual(send.status, 3, send.stderr)
            XCTAssertEqual(server.requests.count, 0)
            // Events and metrics are two groups of one destination: one message for both.
            XCTAssertEqual(send.stderr.components(separatedBy: "points outside what").count, 2, send.stderr)
            XCTAssertTrue(send.stderr.contains("newrelic://1: 33 points outside"), send.stderr)
        }
        // Just inside: 47 h ago is sent.
        let server = try MockHTTPServer()
        let inside = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1", "--newrelic-endpoint",
                "http://127.0.0.1:\(server.port)", "--end-time", String(now - 47 * hour),
            ],
            environment: environment)
        XCTAssertEqual(inside.status, 0, inside.stderr)
        XCTAssertEqual(server.requests.count, 2)
    }

    func testAServerThatNeverAnswersIsNamedWithTheWait() throws {
        let server = try MockHTTPServer()
        server.delay = 3
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1", "--newrelic-endpoint",
                "http://127.0.0.1:\(server.port)", "--end-time", "now", "--delivery-timeout", "1",
                "--delivery-attempts", "1", "--dead-letter", dir.appendingPathComponent("dead.jsonl").path,
            ],
            environment: environment)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("no answer from 127.0.0.1:\(server.port) within 1 s (after 1 attempt)"),
            result.stderr)
    }

    func testMissingKeyIsBadInput() throws {
        let result = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", "newrelic://1"], environment: ["NEW_RELIC_LICENSE_KEY": ""])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("NEW_RELIC_LICENSE_KEY"), result.stderr)
    }
}
