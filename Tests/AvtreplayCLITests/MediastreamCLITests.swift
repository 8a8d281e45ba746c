import Foundation
import XCTest

/// `--format mediastream` and `--to mediastream+http://…` end to end, against a local HTTP
/// server that records requests and injects 503 and 400 answers.
final class MediastreamCLITests: XCTestCase {
    private let fixture = "fixtures/mediastream-session.json"

    private func objects(_ jsonl: String) throws -> [[String: Any]] {
        try jsonl.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func body(_ request: MockHTTPServer.Request) throws -> [[String: Any]] {
        try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(request.body)) as? [[String: Any]], "the body is a JSON array")
    }

    func testFormatMediastreamWritesOneEventPerLine() throws {
        let result = try CLI.run(["run", fixture, "--format", "mediastream", "--mediastream-unique-id", "u-1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try objects(result.stdout)
        // player_loaded, 4 buffering, 2 play, pause, seek, 5 playing, content_end (README table).
        XCTAssertEqual(lines.count, 15)
        XCTAssertEqual(lines.compactMap { $0["event"] as? String }.filter { $0 == "playing" }.count, 5)
        XCTAssertTrue(
            result.stdout.hasPrefix(
                #"{"event":"player_loaded","timestamp":"2026-03-01T12:00:00.800Z","content_id":"529a628d2808dd092a00001a","#
            ))
        XCTAssertEqual(Set(lines.compactMap { $0["unique_id"] as? String }), ["u-1"])
        let again = try CLI.run(["run", fixture, "--format", "mediastream", "--mediastream-unique-id", "u-1"])
        XCTAssertEqual(again.stdout, result.stdout, "byte-identical")
        let flagged = try CLI.run(["run", fixture, "--format", "mediastream", "--mediastream-content-id", "c-9"])
        XCTAssertEqual(
            Set(try objects(flagged.stdout).compactMap { $0["content_id"] as? String }), ["c-9"],
            "the flag wins over the timeline")
    }

    func testEventsArePostedAsAJSONArray() throws {
        let server = try MockHTTPServer(fallback: 200)
        let expected = try objects(try CLI.run(["run", fixture, "--format", "mediastream"]).stdout)
        let result = try CLI.run([
            "run", fixture, "--to", "mediastream+http://127.0.0.1:\(server.port)/collector/events?account=a1",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "", "no stdout destination")
        // Mediastream takes events, not points: the count says what was sent.
        XCTAssertTrue(
            result.stderr.contains("/collector/events?account=a1: 15 events delivered, 0 undelivered"), result.stderr)
        XCTAssertFalse(result.stderr.contains("points"), result.stderr)
        let requests = server.requests
        XCTAssertEqual(requests.count, 1)
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/collector/events?account=a1")
        XCTAssertEqual(request.headers["content-type"], "application/json")
        XCTAssertNil(request.headers["content-encoding"], "not compressed")
        let posted = try body(request)
        XCTAssertEqual(posted.count, 15)
        XCTAssertEqual(posted.map { $0["event"] as? String }, expected.map { $0["event"] as? String })
        XCTAssertEqual(
            posted.map { $0["relative_streamed_time"] as? Int }, expected.map { $0["relative_streamed_time"] as? Int })
    }

    func testBatchesFollowDeliveryBatch() throws {
        let server = try MockHTTPServer(fallback: 200)
        let result = try CLI.run([
            "run", fixture, "--to", "mediastream+http://127.0.0.1:\(server.port)/e", "--delivery-batch", "4",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        // 15 events in batches of 4: 4 + 4 + 4 + 3.
        XCTAssertEqual(try server.requests.map { try body($0).count }, [4, 4, 4, 3])
    }

    func testA503IsRetried() throws {
        let server = try MockHTTPServer(script: [(503, [:])], fallback: 200)
        let result = try CLI.run(
            ["run", fixture, "--to", "mediastream+http://127.0.0.1:\(server.port)/e", "--delivery-retry-delay", "5"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.requests.count, 2, "503, then 200")
        XCTAssertEqual(server.requests[0].body, server.requests[1].body, "the same batch again")
    }

    func testA400IsDeadLetteredWithExit3AndSendDeliversItLater() throws {
        let rejecting = try MockHTTPServer(fallback: 400)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let destination = "mediastream+http://127.0.0.1:\(rejecting.port)/e"
        let failed = try CLI.run(["run", fixture, "--to", destination, "--dead-letter", dead])
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertEqual(rejecting.requests.count, 1, "400 is not retried")
        XCTAssertTrue(failed.stderr.contains("HTTP 400"), failed.stderr)
        let entries = try objects(try String(contentsOfFile: dead, encoding: .utf8))
        XCTAssertEqual(entries.count, 15)
        XCTAssertEqual(Set(entries.compactMap { $0["format"] as? String }), ["mediastream"])
        XCTAssertEqual(Set(entries.compactMap { $0["to"] as? String }), [destination])

        let accepting = try MockHTTPServer(fallback: 200)
        let sent = try CLI.run(
            [
                "send", dead, "--to", "mediastream+http://127.0.0.1:\(accepting.port)/e", "--dead-letter",
                dir.appendingPathComponent("again.jsonl").path,
            ])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(accepting.requests.count, 1)
        let redelivered = try body(try XCTUnwrap(accepting.requests.first))
        XCTAssertEqual(
            redelivered.map { $0["event"] as? String },
            entries.map { entry in
                (try? JSONSerialization.jsonObject(with: Data((entry["line"] as? String ?? "").utf8)) as? [String: Any])?[
                    "event"] as? String
            })
    }

    func testMediastreamFlagsWithoutMediastreamOutputWarn() throws {
        let plain = try CLI.run(["run", fixture])
        let ignored = try CLI.run(["run", fixture, "--mediastream-content-id", "c-9", "--mediastream-unique-id", "u-1"])
        XCTAssertEqual(ignored.status, 0, ignored.stderr)
        XCTAssertEqual(ignored.stdout, plain.stdout, "the flags change nothing in JSON Lines")
        XCTAssertTrue(
            ignored.stderr.contains(
                "warning: --mediastream-content-id and --mediastream-unique-id ignored: nothing is written as Mediastream events"
            ),
            ignored.stderr)
        // With Mediastream output, by format or by destination, the flags apply and nothing is said.
        let formatted = try CLI.run(["run", fixture, "--format", "mediastream", "--mediastream-unique-id", "u-1"])
        XCTAssertEqual(formatted.status, 0, formatted.stderr)
        XCTAssertFalse(formatted.stderr.contains("warning"), formatted.stderr)
        let server = try MockHTTPServer(fallback: 200)
        let posted = try CLI.run(
            [
                "run", fixture, "--to", "mediastream+http://127.0.0.1:\(server.port)/e", "--mediastream-content-id",
                "c-9",
            ])
        XCTAssertEqual(posted.status, 0, posted.stderr)
        XCTAssertFalse(posted.stderr.contains("warning"), posted.stderr)
        XCTAssertEqual(
            Set(try body(try XCTUnwrap(server.requests.first)).compactMap { $0["content_id"] as? String }), ["c-9"])
        // --format mediastream only to a server that is not Mediastream: no Mediastream output either.
        let influx = try MockHTTPServer(fallback: 204)
        let elsewhere = try CLI.run(
            [
                "run", fixture, "--format", "mediastream", "--to", "influxdb://127.0.0.1:\(influx.port)/db",
                "--mediastream-unique-id", "u-1",
            ])
        XCTAssertEqual(elsewhere.status, 0, elsewhere.stderr)
        XCTAssertTrue(elsewhere.stderr.contains("warning: --mediastream-unique-id ignored"), elsewhere.stderr)
        XCTAssertTrue(
            elsewhere.stderr.contains("points delivered, 0 undelivered"),
            "Influx still counts points: \(elsewhere.stderr)")
    }

    func testABadDestinationIsBadInput() throws {
        let result = try CLI.run(["run", fixture, "--to", "mediastream+http:///nohost"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("missing host"), result.stderr)
    }
}
