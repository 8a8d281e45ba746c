import Foundation
import XCTest

@testable import AVTDelivery

/// Delivery rules with a scripted server: retries, Retry-After, partial writes, bisection, no
/// retry on other 4xx, and the dead-letter file.
final class InfluxDeliveryTests: XCTestCase {
    private final class Server: @unchecked Sendable {
        var answers: [(Data) -> Result<HTTPClient.Response, HTTPClient.Failure>] = []
        var fallback: (Data) -> Result<HTTPClient.Response, HTTPClient.Failure> = { _ in
            .success(.init(status: 204, headers: [:], body: ""))
        }
        var bodies: [String] = []
        var encodings: [String?] = []
        var sleeps: [Int] = []

        func post(_ url: URL, _ body: Data, _ headers: [String: String], _ timeout: TimeInterval) -> Result<
            HTTPClient.Response, HTTPClient.Failure
        > {
            encodings.append(headers["Content-Encoding"])
            let plain = Data(headers["Content-Encoding"] == "gzip" ? Gzip.decompress(Array(body)) ?? [] : Array(body))
            bodies.append(String(decoding: plain, as: UTF8.self))
            return answers.isEmpty ? fallback(plain) : answers.removeFirst()(plain)
        }
    }

    private func delivery(
        _ server: Server, _ ledger: DeliveryLedger, batch: Int = 100, to address: String = "influxdb://127.0.0.1:1/db"
    ) throws -> InfluxDelivery {
        var policy = DeliveryPolicy()
        policy.attempts = 3
        policy.batchLines = batch
        let destination = try InfluxDestination(address, precision: .ms, environment: ["INFLUX_TOKEN": "tok"])
        return InfluxDelivery(destination: destination, policy: policy, ledger: ledger, post: server.post) {
            server.sleeps.append($0)
        }
    }

    private func ledger() throws -> (DeliveryLedger, ScratchDirectory) {
        let scratch = try ScratchDirectory()
        return (DeliveryLedger(deadLetterPath: scratch.url.appendingPathComponent("dead.jsonl").path), scratch)
    }

    private let lines = (1...6).map { "m v=\($0)i \($0)" }

    func testDestinationAlwaysCarriesThePrecision() throws {
        let d = try InfluxDestination(
            "influxdb://h:8087/tele?rp=week", precision: .us,
            environment: ["INFLUX_USERNAME": "u", "INFLUX_PASSWORD": "p"])
        XCTAssertEqual(d.writeURL.absoluteString, "http://h:8087/write?db=tele&precision=u&rp=week")
        XCTAssertEqual(d.headers["Authorization"], "Basic dTpw")
        XCTAssertEqual(
            try InfluxDestination("influxdb+https://h/x", precision: .ms, environment: [:]).writeURL.absoluteString,
            "https://h:8086/write?db=x&precision=ms")
        XCTAssertThrowsError(try InfluxDestination("influxdb://h:1/", precision: .ms, environment: [:]))
        XCTAssertThrowsError(try InfluxDestination("http://h/db", precision: .ms, environment: [:]))
    }

    func testServerErrorsAreRetriedHonouringRetryAfter() throws {
        let server = Server()
        server.answers = [
            { _ in .failure(.transport("connection refused")) },
            { _ in .success(.init(status: 429, headers: ["retry-after": "2"], body: "{\"error\":\"slow down\"}")) },
        ]
        let (ledger, _scratch) = try ledger()
        // A server on another host: its bodies are gzipped (see the next test for loopback).
        try delivery(server, ledger, to: "influxdb://influx.example:8086/db").deliver(lines)
        XCTAssertEqual(ledger.delivered["influxdb://influx.example:8086/db"], 6)
        XCTAssertEqual(ledger.undeliveredCount, 0)
        XCTAssertEqual(server.bodies.count, 3)
        XCTAssertEqual(server.encodings, ["gzip", "gzip", "gzip"])
        XCTAssertEqual(server.bodies.last, lines.joined(separator: "\n") + "\n", "the gzip body holds the lines")
        XCTAssertEqual(server.sleeps.count, 2)
        XCTAssertEqual(server.sleeps.last, 2000, "Retry-After in seconds")
        _ = _scratch
    }

    func testGzipByDefaultOnlyToHostsOffThisMachine() throws {
        for (host, loopback) in [
            ("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("LOCALHOST", true), ("::1", true),
            ("[::1]", true),
            ("128.0.0.1", false), ("127.0.0", false), ("127.0.0.256", false), ("influx.example", false),
            ("10.0.0.1", false),
            ("localhost.example", false), ("::2", false),
        ] {
            XCTAssertEqual(InfluxDestination.isLoopback(host), loopback, host)
            XCTAssertEqual(DeliveryPolicy.GzipPolicy.auto.compresses(host: host), !loopback, host)
            XCTAssertTrue(DeliveryPolicy.GzipPolicy.always.compresses(host: host), host)
            XCTAssertFalse(DeliveryPolicy.GzipPolicy.never.compresses(host: host), host)
        }
        let server = Server()
        let (ledger, _scratch) = try ledger()
        try delivery(server, ledger, to: "influxdb://[::1]:1/db").deliver(lines)
        XCTAssertEqual(server.encodings, [nil], "plain line protocol to a loopback server")
        XCTAssertEqual(server.bodies, [lines.joined(separator: "\n") + "\n"])
        _ = _scratch
    }

    func testGivingUpKeepsEveryLineWithTheReason() throws {
        let server = Server()
        server.fallback = { _ in .success(.init(status: 503, headers: [:], body: "{\"error\":\"down\"}")) }
        let (ledger, scratch) = try ledger()
        try delivery(server, ledger).deliver(lines)
        try ledger.close()
        XCTAssertEqual(server.bodies.count, 3, "three attempts")
        let entries = try DeadLetterEntry.read(path: scratch.url.appendingPathComponent("dead.jsonl").path)
        XCTAssertEqual(entries.map(\.line), lines)
        XCTAssertEqual(entries.first?.format, "influx/ms")
        XCTAssertEqual(entries.first?.reason, "HTTP 503: down (after 3 attempts)")
    }

    func testOnceABatchUsedUpItsAttemptsLaterBatchesGetOneUntilTheServerAnswers() throws {
        // Six lines in batches of two: the first batch tries 3 times and gives up, the next
        // two get one attempt each (no waiting) while the server stays unreachable.
        let server = Server()
        server.fallback = { _ in .failure(.transport("connection refused")) }
        let (ledger, scratch) = try ledger()
        let influx = try delivery(server, ledger, batch: 2)
        influx.deliver(lines)
        XCTAssertEqual(server.bodies.count, 3 + 1 + 1)
        XCTAssertEqual(server.sleeps.count, 2, "only the first batch waited between attempts")
        // The server is back: the first answer lifts the outage, and a later failure is again
        // retried in full.
        server.answers = [
            { _ in .success(.init(status: 204, headers: [:], body: "")) },
            { _ in .success(.init(status: 503, headers: [:], body: "{\"error\":\"busy\"}")) },
        ]
        server.fallback = { _ in .success(.init(status: 204, headers: [:], body: "")) }
        influx.deliver(Array(lines[0..<4]))
        XCTAssertEqual(server.bodies.count, 5 + 1 + 2)
        try ledger.close()
        let reasons = try DeadLetterEntry.read(path: scratch.url.appendingPathComponent("dead.jsonl").path).map(
            \.reason)
        XCTAssertEqual(
            reasons,
            [
                "connection refused (after 3 attempts)", "connection refused (after 3 attempts)",
                "connection refused (1 attempt: the destination was already down)",
                "connection refused (1 attempt: the destination was already down)",
                "connection refused (1 attempt: the destination was already down)",
                "connection refused (1 attempt: the destination was already down)",
            ])
    }

    /// Any answer lifts the outage, a refusal as much as a success (docs/destinations.md): a
    /// server starting again answers 503 before it takes writes, and the batch then gets its full
    /// attempts instead of one.
    func testA503WhileDownIsAnAnswerAndTheBatchGetsItsFullAttempts() throws {
        let server = Server()
        server.fallback = { _ in .failure(.transport("connection refused")) }
        let (ledger, _scratch) = try ledger()
        let influx = try delivery(server, ledger, batch: 2)
        influx.deliver(Array(lines[0..<2]))
        XCTAssertEqual(server.bodies.count, 3, "the outage found")
        server.answers = [
            { _ in .success(.init(status: 503, headers: [:], body: "{\"error\":\"starting\"}")) },
            { _ in .success(.init(status: 503, headers: [:], body: "{\"error\":\"starting\"}")) },
        ]
        server.fallback = { _ in .success(.init(status: 204, headers: [:], body: "")) }
        influx.deliver(Array(lines[2..<4]))
        XCTAssertEqual(server.bodies.count, 3 + 3, "503, 503, then 204")
        try ledger.close()
        XCTAssertEqual(ledger.delivered.values.reduce(0, +), 2)
        XCTAssertEqual(ledger.undeliveredCount, 2, "only the batch that found the outage")
        _ = _scratch
    }

    func testAPartialWriteIsNeverResentWhole() throws {
        let server = Server()
        server.answers = [
            { _ in
                .success(
                    .init(
                        status: 400, headers: [:],
                        body: #"{"error":"partial write: unable to parse 'm v=3i 3': bad dropped=1"}"#))
            }
        ]
        let (ledger, _scratch) = try ledger()
        try delivery(server, ledger).deliver(lines)
        XCTAssertEqual(server.bodies.count, 1, "the good lines were written by the server: no resend")
        XCTAssertEqual(ledger.delivered["influxdb://127.0.0.1:1/db"], 5)
        XCTAssertEqual(ledger.undeliveredCount, 1)
        _ = _scratch
    }

    func testEachRejectedLineKeepsTheServersWordsAboutItAlone() throws {
        let server = Server()
        // 1.x names every bad line, one per line of its message.
        let answer =
            #"{"error":"partial write: unable to parse 'm v=2i 2': invalid field format\n"#
            + #"unable to parse 'm v=5i 5': bad timestamp dropped=2"}"#
        server.answers = [{ _ in .success(.init(status: 400, headers: [:], body: answer)) }]
        let (ledger, scratch) = try ledger()
        try delivery(server, ledger).deliver(lines)
        try ledger.close()
        let entries = try DeadLetterEntry.read(path: scratch.url.appendingPathComponent("dead.jsonl").path)
        XCTAssertEqual(entries.map(\.line), ["m v=2i 2", "m v=5i 5"])
        XCTAssertEqual(
            entries.map(\.reason),
            [
                "HTTP 400: unable to parse 'm v=2i 2': invalid field format",
                "HTTP 400: unable to parse 'm v=5i 5': bad timestamp",
            ])
    }

    func testPointsOlderThanTheNamedRetentionAreKeptNotSent() throws {
        let server = Server()
        let (ledger, scratch) = try ledger()
        var policy = DeliveryPolicy()
        policy.influxRetention = 3600
        let destination = try InfluxDestination("influxdb://127.0.0.1:1/db", precision: .s, environment: [:])
        let influx = InfluxDelivery(destination: destination, policy: policy, ledger: ledger, post: server.post) {
            _ in
        }
        let now = Int(Date().timeIntervalSince1970)
        // Seconds precision: two hours ago is outside, a minute ago and a day ahead are inside.
        influx.deliver(["m v=1i \(now - 7200)", "m v=2i \(now - 60)", "m v=3i \(now + 86400)"])
        try ledger.close()
        XCTAssertEqual(server.bodies, ["m v=2i \(now - 60)\nm v=3i \(now + 86400)\n"])
        XCTAssertEqual(influx.windowFilter.outside, 1)
        let entries = try DeadLetterEntry.read(path: scratch.url.appendingPathComponent("dead.jsonl").path)
        XCTAssertEqual(entries.map(\.line), ["m v=1i \(now - 7200)"])
        XCTAssertEqual(entries.first?.reason, "outside what the retention policy keeps (1 h ago onwards) when sent")
    }

    func testAnUnnamedRejectionIsFoundByBisection() throws {
        let server = Server()
        // The server rejects any batch containing line 4 without saying which line.
        server.fallback = { body in
            String(decoding: body, as: UTF8.self).contains("m v=4i 4")
                ? .success(
                    .init(status: 400, headers: [:], body: #"{"error":"partial write: field type conflict dropped=1"}"#)
                )
                : .success(.init(status: 204, headers: [:], body: ""))
        }
        let (ledger, scratch) = try ledger()
        try delivery(server, ledger).deliver(lines)
        try ledger.close()
        XCTAssertEqual(
            try DeadLetterEntry.read(path: scratch.url.appendingPathComponent("dead.jsonl").path).map(\.line),
            ["m v=4i 4"])
        XCTAssertEqual(ledger.delivered["influxdb://127.0.0.1:1/db"], 5)
    }

    func testOtherClientErrorsAreNotRetried() throws {
        let server = Server()
        server.fallback = { _ in
            .success(.init(status: 404, headers: [:], body: #"{"error":"database not found: \"db\""}"#))
        }
        let (ledger, _scratch) = try ledger()
        try delivery(server, ledger, batch: 4).deliver(lines)
        XCTAssertEqual(server.bodies.count, 2, "one request per batch of 4, no retries")
        XCTAssertEqual(ledger.undeliveredCount, 6)
        XCTAssertEqual(ledger.reasons, [#"HTTP 404: database not found: "db""#])
        _ = _scratch
    }

    // MARK: InfluxDB 2.x

    func testV2DestinationCarriesOrgBucketPrecisionAndToken() throws {
        let d = try InfluxDestination(
            "influxdb2://h:8087?org=acme&bucket=replays", precision: .us, environment: ["INFLUX_TOKEN": "s3cret"])
        XCTAssertEqual(
            d.writeURL.absoluteString, "http://h:8087/api/v2/write?org=acme&bucket=replays&precision=us",
            "2.x spells µs \"us\"")
        XCTAssertEqual(d.headers["Authorization"], "Token s3cret")
        XCTAssertEqual(
            try InfluxDestination(
                "influxdb2+https://h?org=o&bucket=b", precision: .ms, environment: ["INFLUX_TOKEN": "t"]
            ).writeURL.absoluteString,
            "https://h:8086/api/v2/write?org=o&bucket=b&precision=ms")
        XCTAssertThrowsError(try InfluxDestination("influxdb2://h?org=o&bucket=b", precision: .ms, environment: [:])) {
            XCTAssertTrue("\($0)".contains("INFLUX_TOKEN"), "\($0)")
        }
        XCTAssertThrowsError(
            try InfluxDestination("influxdb2://h?org=o", precision: .ms, environment: ["INFLUX_TOKEN": "t"]))
        XCTAssertThrowsError(
            try InfluxDestination("influxdb2://h?bucket=b", precision: .ms, environment: ["INFLUX_TOKEN": "t"]))
    }

    func testV2RejectionDeadLettersTheNamedLineAndRepostsTheRest() throws {
        let server = Server()
        // 2.x names the first bad line only (and, per its OSS docs, may have written nothing).
        server.answers = [
            { _ in
                .success(
                    .init(
                        status: 400, headers: [:],
                        body: #"{"code":"invalid","message":"unable to parse 'm v=3i 3': bad"}"#))
            }
        ]
        let (ledger, scratch) = try ledger()
        let address = "influxdb2://127.0.0.1:1?org=o&bucket=b"
        try delivery(server, ledger, to: address).deliver(lines)
        try ledger.close()
        XCTAssertEqual(server.bodies.count, 2)
        XCTAssertEqual(
            server.bodies[1], lines.filter { $0 != "m v=3i 3" }.joined(separator: "\n") + "\n", "the rest, once more")
        XCTAssertEqual(ledger.delivered[address], 5)
        let entries = try DeadLetterEntry.read(path: scratch.url.appendingPathComponent("dead.jsonl").path)
        XCTAssertEqual(entries.map(\.line), ["m v=3i 3"])
        XCTAssertEqual(
            entries.first?.reason, "HTTP 400: unable to parse 'm v=3i 3': bad", "the message of 2.x's {code, message}")
    }

    func testV2UnprocessableIsTreatedAsARejection() throws {
        let server = Server()
        server.answers = [
            { _ in
                .success(
                    .init(
                        status: 422, headers: [:],
                        body: #"{"code":"unprocessable entity","message":"unable to parse 'm v=6i 6': x"}"#))
            }
        ]
        let (ledger, _scratch) = try ledger()
        try delivery(server, ledger, to: "influxdb2://127.0.0.1:1?org=o&bucket=b").deliver(lines)
        XCTAssertEqual(ledger.undeliveredCount, 1)
        XCTAssertEqual(ledger.delivered["influxdb2://127.0.0.1:1?org=o&bucket=b"], 5)
        _ = _scratch
    }
}
