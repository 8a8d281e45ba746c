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

    func testEventsAndMetricsFollowTheAPIs() throws {
        let server = try MockHTTPServer()
        let records = try CLI.run(["run", "fixtures/happy-path.json"]).stdout.split(separator: "\n")
        let result = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1234567", "--newrelic-endpoint",
                "http://127.0.0.1:\(server.port)",
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
        XCTAssertEqual(start["timestamp"] as? Int, 1_772_366_401_400, "epoch ms")
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
        XCTAssertEqual(startTime["timestamp"] as? Int, 1_772_366_401_400)
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
                "--delivery-retry-delay", "5",
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
                "--delivery-attempts", "2", "--delivery-retry-delay", "5", "--dead-letter", dead,
            ],
            environment: environment)
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertEqual(try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n").count, 33)
        let up = try MockHTTPServer()
        let sent = try CLI.run(
            ["send", dead, "--newrelic-endpoint", "http://127.0.0.1:\(up.port)"], environment: environment)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(up.requests.count, 2, "one events post, one metrics post")
        let rejected = try MockHTTPServer(fallback: 403)
        let forbidden = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", "newrelic://1", "--newrelic-endpoint",
                "http://127.0.0.1:\(rejected.port)",
                "--dead-letter", dead,
            ],
            environment: environment)
        XCTAssertEqual(forbidden.status, 3)
        XCTAssertEqual(rejected.requests.count, 2, "403 is not retried")
    }

    func testMissingKeyIsBadInput() throws {
        let result = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", "newrelic://1"], environment: ["NEW_RELIC_LICENSE_KEY": ""])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("NEW_RELIC_LICENSE_KEY"), result.stderr)
    }
}
