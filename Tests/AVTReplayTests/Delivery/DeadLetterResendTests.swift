import Foundation
import XCTest

@testable import AVTDelivery
@testable import AVTReplay

/// `send`: grouping, the order destinations are tried in, and bad entries.
final class DeadLetterResendTests: XCTestCase {
    private func entry(_ to: String, _ format: String, _ line: String) -> DeadLetterEntry {
        DeadLetterEntry(destination: to, format: format, reason: "r", line: line)
    }

    private func resend(_ deadLetter: String = "/nonexistent/again.jsonl") -> DeadLetterResend {
        var policy = DeliveryPolicy()
        policy.attempts = 1
        policy.baseDelay = 0
        return DeadLetterResend(
            settings: DestinationSettings(), policy: policy, ledger: DeliveryLedger(deadLetterPath: deadLetter))
    }

    func testLinesGroupPerDestinationAndFormatInFileOrder() {
        let entries = [
            entry("influxdb://a/db", "influx/ms", "1"), entry("graphite://b", "graphite", "2"),
            entry("influxdb://a/db", "influx/ms", "3"),
            entry("influxdb://a/db", "influx/s", "4"),
        ]
        XCTAssertEqual(
            DeadLetterResend.groups(entries),
            [
                .init(destination: "influxdb://a/db", format: "influx/ms", lines: ["1", "3"]),
                .init(destination: "graphite://b", format: "graphite", lines: ["2"]),
                .init(destination: "influxdb://a/db", format: "influx/s", lines: ["4"]),
            ])
        XCTAssertEqual(
            DeadLetterResend.groups(entries, to: "influxdb://c/db").map(\.destination),
            Array(repeating: "influxdb://c/db", count: 3))
    }

    func testFormatsNameTheirKind() {
        XCTAssertEqual(DeadLetterResend.kind(ofFormat: "graphite"), .graphite)
        XCTAssertEqual(DeadLetterResend.kind(ofFormat: "newrelic-events"), .newRelic)
        XCTAssertEqual(DeadLetterResend.kind(ofFormat: "mediastream"), .mediastream)
        XCTAssertNil(DeadLetterResend.kind(ofFormat: "influx/us"))
        XCTAssertEqual(DeadLetterResend.influxPrecision(ofFormat: "influx/us"), .us)
        XCTAssertEqual(DeadLetterResend.influxPrecision(ofFormat: "influx"), .ms)
        XCTAssertNil(DeadLetterResend.influxPrecision(ofFormat: "influx/h"))
        XCTAssertNil(DeadLetterResend.influxPrecision(ofFormat: "csv"))
    }

    func testUnknownFormatsAndBadDestinationsAreBadInput() {
        for (group, message) in [
            (
                DeadLetterResend.Group(destination: "influxdb://a/db", format: "csv", lines: ["x"]),
                "dead.jsonl: unknown format \"csv\""
            ),
            (
                .init(destination: "newrelic://1", format: "newrelic-logs", lines: ["x"]),
                "dead.jsonl: unknown format \"newrelic-logs\""
            ),
            (
                .init(destination: "graphite://a", format: "influx/ms", lines: ["x"]),
                "cannot write graphite://a: expected influxdb://HOST:PORT/DB, influxdb2://HOST:PORT?org=ORG&bucket=BUCKET (or their +https variants)"
            ),
        ] {
            XCTAssertThrowsError(try resend().deliver([group], file: "dead.jsonl") { _ in }) {
                XCTAssertEqual($0 as? CommandFailure, .badInput(message))
            }
        }
    }

    func testGraphiteGoesFirstAndWhatStillFailsIsKept() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("again.jsonl").path
        let resend = resend(path)
        var lines: [String] = []
        // Port 1 on this machine refuses connections.
        let groups = [
            DeadLetterResend.Group(
                destination: "mediastream+http://127.0.0.1:1/e", format: "mediastream", lines: ["{}"]),
            // A minute ago: inside carbon's window, so it is sent (and refused).
            .init(
                destination: "graphite://127.0.0.1:1", format: "graphite",
                lines: ["a.b 1 \(Int(Date().timeIntervalSince1970) - 60)"]),
        ]
        try resend.deliver(groups, file: "dead.jsonl") { lines.append($0) }
        XCTAssertEqual(
            lines,
            [
                "graphite://127.0.0.1:1: 0 delivered, 1 undelivered",
                "mediastream+http://127.0.0.1:1/e: 0 delivered, 1 undelivered",
            ])
        let failure = try resend.finish()
        XCTAssertEqual(failure?.status, .notDelivered)
        XCTAssertTrue(
            failure?.message.hasPrefix("2 records still not delivered; kept in \(path). Reasons: ") == true,
            failure?.message ?? "")
        XCTAssertEqual(try DeadLetterEntry.read(path: path).count, 2)
    }
}
