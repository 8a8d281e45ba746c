import XCTest

@testable import AVTDelivery
@testable import AVTReplay

/// How a run ends because of what its servers took, and a signal.
final class DeliveryReportTests: XCTestCase {
    private let server = DeliveryReport.Server(name: "influxdb://h/db", unit: "points", delivered: 10, undelivered: 0)

    func testEverythingDeliveredIsOk() {
        XCTAssertNil(DeliveryReport(servers: []).failure)
        XCTAssertNil(DeliveryReport(servers: [server]).failure)
        XCTAssertEqual(
            DeliveryReport(servers: [server]).summary, ["influxdb://h/db: 10 points delivered, 0 undelivered"])
    }

    func testASignalWithoutServersEndsTheRunWithIt() {
        XCTAssertEqual(
            DeliveryReport(servers: [], signal: SIGINT).failure,
            CommandFailure(
                message: "interrupted by SIGINT (Ctrl-C) before the end of the replay",
                status: .interrupted(signal: SIGINT)))
        XCTAssertEqual(DeliveryReport(servers: [], signal: SIGTERM).failure?.status.code, 143)
    }

    func testASignalAfterEverythingWasDeliveredSaysSo() {
        XCTAssertEqual(
            DeliveryReport(servers: [server], signal: SIGTERM).failure,
            CommandFailure(
                message:
                    "interrupted by SIGTERM before the end of the replay; everything replayed until then was delivered",
                status: .interrupted(signal: SIGTERM)))
    }

    func testUndeliveredRecordsWinOverTheSignal() {
        var lost = server
        lost.undelivered = 2
        let report = DeliveryReport(
            servers: [lost], undelivered: 2, reasons: ["HTTP 500", "timeout"], deadLetterPath: "dead.jsonl")
        let message =
            "2 records not delivered; kept in dead.jsonl (re-send with `avtreplay send dead.jsonl --to DEST`). Reasons: HTTP 500; timeout"
        XCTAssertEqual(report.failure, CommandFailure(message: message, status: .notDelivered))
        XCTAssertEqual(report.failure?.status.code, 3)
        var interrupted = report
        interrupted.signal = SIGINT
        XCTAssertEqual(
            interrupted.failure,
            CommandFailure(
                message: "interrupted by SIGINT (Ctrl-C) before the end of the replay. " + message,
                status: .notDelivered))
    }

    func testPointsOutsideTheRetentionAreWarnedAbout() {
        let report = DeliveryReport(
            servers: [server], outsideRetention: [.init(name: "graphite://h", points: 7, retention: 60)])
        XCTAssertEqual(
            report.warnings,
            [
                "graphite://h: 7 points lie outside the 60 s retention; carbon drops them without a word (replay with --start-time now, or set --graphite-retention)"
            ])
    }
}
