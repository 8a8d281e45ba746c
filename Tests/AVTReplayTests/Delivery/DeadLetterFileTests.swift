import Foundation
import XCTest

@testable import AVTDelivery

/// The dead-letter file is only added to: earlier records stay, and writers that share it
/// (threads of one run, or runs at once) never interleave partial lines.
final class DeadLetterFileTests: XCTestCase {
    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func testARunAddsToWhatTheFileHeldAndSaysHowMuch() throws {
        let scratch = try ScratchDirectory()
        let entry = #"{"to":"influxdb://h/db","format":"influx/ms","reason":"down","line":"w"}"#
        let path = try scratch.write("dead.jsonl", entry + "\n\n" + entry + "\n")
        let first = DeliveryLedger(deadLetterPath: path)
        first.deadLetter(["x"], to: "influxdb://h/db", format: "influx/ms", reason: "down")
        try first.close()
        XCTAssertEqual(first.heldBefore, 2, "blank lines are not records")
        let second = DeliveryLedger(deadLetterPath: path)
        second.deadLetter(["y", "z"], to: "influxdb://h/db", format: "influx/ms", reason: "down")
        try second.close()
        XCTAssertEqual(second.heldBefore, 3)
        XCTAssertEqual(try lines(path).count, 5)
        XCTAssertEqual(try DeadLetterEntry.read(path: path).map(\.line), ["w", "w", "x", "y", "z"])
    }

    func testALineCutShortIsEndedBeforeNewRecords() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(
            "dead.jsonl", "{\"to\":\"x\",\"format\":\"graphite\",\"line\":\"a 1 1\"}\n{\"to\":")
        let ledger = DeliveryLedger(deadLetterPath: path)
        ledger.deadLetter(["b 1 1"], to: "graphite://h", format: "graphite", reason: "down")
        try ledger.close()
        XCTAssertEqual(ledger.heldBefore, 2)
        XCTAssertEqual(
            try lines(path).last, #"{"to":"graphite://h","format":"graphite","reason":"down","line":"b 1 1"}"#)
    }

    func testNothingUndeliveredCreatesNoFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("dead.jsonl").path
        try DeliveryLedger(deadLetterPath: path).close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testWritersAtOnceNeverInterleave() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.url.appendingPathComponent("dead.jsonl").path
        // Separate ledgers stand for separate runs: each has its own descriptor, as processes do.
        let ledgers = (0..<4).map { _ in DeliveryLedger(deadLetterPath: path) }
        let long = String(repeating: "v", count: 5000)
        DispatchQueue.concurrentPerform(iterations: 4) { n in
            for round in 0..<25 {
                ledgers[n].deadLetter(
                    (0..<20).map { "\(n) \(round) \($0) " + long }, to: "influxdb://h/db", format: "influx/ms",
                    reason: "down")
            }
        }
        for ledger in ledgers { try ledger.close() }
        let entries = try DeadLetterEntry.read(path: path)
        XCTAssertEqual(entries.count, 4 * 25 * 20, "every line is a whole entry")
        XCTAssertEqual(Set(entries.map(\.line)).count, entries.count)
    }

    func testSendIntoItsOwnFileKeepsOnlyWhatIsStillUndelivered() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("dead.jsonl", #"{"to":"graphite://h","format":"graphite","line":"sent"}"# + "\n")
        let ledger = DeliveryLedger(deadLetterPath: path, replacing: true)
        ledger.deadLetter(["kept"], to: "graphite://h", format: "graphite", reason: "down")
        try ledger.close()
        XCTAssertEqual(try DeadLetterEntry.read(path: path).map(\.line), ["kept"])
        let emptied = DeliveryLedger(deadLetterPath: path, replacing: true)
        try emptied.close()
        XCTAssertEqual(try lines(path), [])
    }
}
