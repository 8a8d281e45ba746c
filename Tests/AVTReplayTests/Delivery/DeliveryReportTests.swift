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

    func testPointsOutsideTheWindowAreNamedOncePerServerWithTheirFix() {
        let window = DeliveryWindow(past: 60_000, ahead: 0, keeper: "carbon", fix: "replay with --end-time now")
        let report = DeliveryReport(
            servers: [server], undelivered: 7, reasons: ["outside"], deadLetterPath: "dead.jsonl",
            outsideWindow: [.init(name: "graphite://h", points: 7, window: window)])
        XCTAssertEqual(
            report.summary.last,
            "graphite://h: 7 points outside what carbon keeps (1 min ago to now) went to the dead-letter file, "
                + "not to the server; replay with --end-time now")
        XCTAssertEqual(report.failure?.status, .notDelivered)
    }

    func testOneRecordIsSingularAndAnAppendedFileSaysWhatItHeld() {
        let report = DeliveryReport(
            servers: [server], undelivered: 1, reasons: ["HTTP 404: database not found"],
            deadLetterPath: "dead.jsonl", heldBefore: 33)
        XCTAssertEqual(
            report.failure?.message,
            "1 record not delivered; added to dead.jsonl, which already held 33 records (re-send with "
                + "`avtreplay send dead.jsonl --to DEST`). Reasons: HTTP 404: database not found")
    }

    /// Carbon's overwritten points were meant to be kept: the run fails (exit 3) and says why;
    /// `--influx-compat`'s are upstream's behaviour, asked for, and the run is ok.
    func testCarbonsOverwrittenPointsFailTheRunAndInfluxCompatsDoNot() {
        let carbon = DeliveryReport(servers: [
            .init(
                name: "graphite://h:2003", unit: "points", delivered: 10, undelivered: 0, overwritten: 3,
                overwritingFails: true)
        ])
        XCTAssertEqual(
            carbon.summary,
            [
                "graphite://h:2003: 10 points delivered, 3 overwritten by a later point of the same path and second, 0 undelivered"
            ])
        XCTAssertEqual(carbon.failure?.status, .notDelivered)
        XCTAssertTrue(
            carbon.failure?.message.hasPrefix("graphite://h:2003: 3 points overwritten: carbon keeps one value") == true
        )
        let compat = DeliveryReport(servers: [
            .init(name: "influxdb://h:8086/db", unit: "points", delivered: 10, undelivered: 0, overwritten: 3)
        ])
        XCTAssertEqual(
            compat.summary,
            [
                "influxdb://h:8086/db: 10 points delivered, 3 overwritten by a later point of the same instant (--influx-compat), 0 undelivered"
            ])
        XCTAssertNil(compat.failure)
    }

    func testOnePointIsSingular() {
        let one = DeliveryReport(servers: [.init(name: "graphite://h", unit: "points", delivered: 1, undelivered: 0)])
        XCTAssertEqual(one.summary, ["graphite://h: 1 point delivered, 0 undelivered"])
    }

    func testWindowsSayWhereTheyEnd() {
        func window(_ past: Int?, _ ahead: Int?) -> String {
            DeliveryWindow(past: past, ahead: ahead, keeper: "k", fix: "f").description
        }
        XCTAssertEqual(window(86_400_000, 0), "24 h ago to now")
        XCTAssertEqual(window(7 * 86_400_000, nil), "7 d ago onwards")
        XCTAssertEqual(window(48 * 3_600_000, 24 * 3_600_000), "48 h ago to 24 h ahead")
        XCTAssertEqual(window(90_000, nil), "90 s ago onwards")
        // Inclusive at now, exclusive at the oldest edge (whisper keeps ages below the retention).
        let carbon = DeliveryWindow(past: 60_000, ahead: 0, keeper: "carbon", fix: "")
        XCTAssertTrue(carbon.contains(1_000_000, now: 1_000_000))
        XCTAssertFalse(carbon.contains(1_000_001, now: 1_000_000))
        XCTAssertTrue(carbon.contains(940_001, now: 1_000_000))
        XCTAssertFalse(carbon.contains(940_000, now: 1_000_000))
    }
}
