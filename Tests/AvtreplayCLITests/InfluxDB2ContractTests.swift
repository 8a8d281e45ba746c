import AVTDelivery
import Foundation
import XCTest

/// InfluxDB 2.x cannot run here (no Debian package): a local server checks the `/api/v2/write`
/// contract (method, path, query, token header, gzip body) and injects 429, 503, 401 and 400.
final class InfluxDB2ContractTests: XCTestCase {
    private let environment = ["INFLUX_TOKEN": "t0k-3n"]

    private func address(_ server: MockHTTPServer) -> String {
        "influxdb2://127.0.0.1:\(server.port)?org=acme&bucket=replays"
    }

    /// The body's lines, gzipped or not as its Content-Encoding says.
    private func lines(_ request: MockHTTPServer.Request) throws -> [String] {
        let body =
            request.headers["content-encoding"] == "gzip"
            ? try XCTUnwrap(Gzip.decompress(request.body), "body is gzip") : request.body
        return String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testWritesFollowTheV2API() throws {
        let server = try MockHTTPServer(fallback: 204)
        let expected = try CLI.run(["run", "fixtures/happy-path.json", "--format", "influx"]).stdout.split(
            separator: "\n"
        ).map(String.init)
        XCTAssertEqual(expected.count, 33)
        let result = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", address(server), "--influx-gzip", "always"],
            environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(address(server)): 33 points delivered, 0 undelivered"), result.stderr)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(server.requests.count, 1, "33 lines fit one batch")
        XCTAssertEqual(request.headers["content-encoding"], "gzip")
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/api/v2/write?org=acme&bucket=replays&precision=ms")
        XCTAssertEqual(request.headers["authorization"], "Token t0k-3n")
        XCTAssertEqual(request.headers["content-type"], "text/plain; charset=utf-8")
        XCTAssertEqual(try lines(request), expected, "exactly what --format influx prints")
    }

    /// gzip only costs CPU on both ends for bytes that stay on the machine: by default a loopback
    /// server gets plain line protocol, and `never`/`always` override the choice.
    func testLoopbackBodiesAreNotGzippedUnlessAsked() throws {
        let expected = try CLI.run(["run", "fixtures/happy-path.json", "--format", "influx"]).stdout.split(
            separator: "\n"
        ).map(String.init)
        for (flags, gzipped) in [
            ([String](), false), (["--influx-gzip", "never"], false), (["--influx-gzip", "auto"], false),
        ] {
            let server = try MockHTTPServer(fallback: 204)
            let result = try CLI.run(
                ["run", "fixtures/happy-path.json", "--to", address(server)] + flags, environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            let request = try XCTUnwrap(server.requests.first)
            XCTAssertEqual(request.headers["content-encoding"] == "gzip", gzipped, "\(flags)")
            XCTAssertEqual(
                String(decoding: request.body, as: UTF8.self).split(separator: "\n").map(String.init), expected,
                "\(flags)")
        }
        let bad = try CLI.run(["run", "fixtures/happy-path.json", "--influx-gzip", "sometimes"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
    }

    func testThrottlingAndOutagesAreRetriedThenKeptForSend() throws {
        let flaky = try MockHTTPServer(script: [(429, ["Retry-After": "0"]), (503, [:])], fallback: 204)
        let ok = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", address(flaky), "--delivery-retry-delay", "5"],
            environment: environment)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(flaky.requests.count, 3, "429, 503, then 204")
        XCTAssertEqual(Set(try flaky.requests.map { try lines($0) }).count, 1, "the same batch each time")

        let down = try MockHTTPServer(fallback: 503)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let failed = try CLI.run(
            [
                "run", "fixtures/happy-path.json", "--to", address(down), "--delivery-attempts", "2",
                "--delivery-retry-delay", "5",
                "--dead-letter", dead,
            ],
            environment: environment)
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertEqual(down.requests.count, 2)
        let kept = try DeadLetterEntry.read(path: dead)
        XCTAssertEqual(kept.count, 33)
        XCTAssertEqual(kept.first?.format, "influx/ms")
        let up = try MockHTTPServer(fallback: 204)
        let sent = try CLI.run(["send", dead, "--to", address(up)], environment: environment)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(try up.requests.flatMap { try lines($0) }, kept.map(\.line))

        let unauthorized = try MockHTTPServer(fallback: 401)
        let refused = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", address(unauthorized), "--dead-letter", dead],
            environment: environment)
        XCTAssertEqual(refused.status, 3)
        XCTAssertEqual(unauthorized.requests.count, 1, "401 is not retried")
    }

    func testARejectedLineIsKeptAndTheRestReposted() throws {
        let expected = try CLI.run(["run", "fixtures/happy-path.json", "--format", "influx"]).stdout.split(
            separator: "\n"
        ).map(String.init)
        let bad = expected[4]
        let server = try MockHTTPServer(fallback: 204)
        // Like 2.x: 400 with {"code","message"} naming the first line it could not take.
        let escaped = bad.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let first = NSLock()
        nonisolated(unsafe) var answered = false
        server.respond = { _ in
            first.withLock {
                if answered { return nil }
                answered = true
                return (
                    400, [:],
                    #"{"code":"invalid","message":"unable to parse '"# + escaped + #"': invalid field format"}"#
                )
            }
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let result = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", address(server), "--dead-letter", dead],
            environment: environment)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("32 points delivered, 1 undelivered"), result.stderr)
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertEqual(
            try lines(server.requests[1]), expected.filter { $0 != bad }, "everything but the named line, once more")
        let kept = try DeadLetterEntry.read(path: dead)
        XCTAssertEqual(kept.map(\.line), [bad])
        XCTAssertEqual(kept.first?.reason.hasPrefix("HTTP 400: unable to parse '"), true, kept.first?.reason ?? "")
    }

    func testMissingTokenOrBucketIsBadInput() throws {
        let noToken = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", "influxdb2://127.0.0.1:1?org=o&bucket=b"],
            environment: ["INFLUX_TOKEN": ""])
        XCTAssertEqual(noToken.status, 2)
        XCTAssertTrue(noToken.stderr.contains("set INFLUX_TOKEN"), noToken.stderr)
        let noBucket = try CLI.run(
            ["run", "fixtures/happy-path.json", "--to", "influxdb2://127.0.0.1:1?org=o"], environment: environment)
        XCTAssertEqual(noBucket.status, 2)
        XCTAssertTrue(noBucket.stderr.contains("bucket"), noBucket.stderr)
    }
}
