import Foundation
import XCTest

@testable import AVTReplay
@testable import AVTTimeline

/// An access log file is read twice: first for its index, then for the replay, which lets each
/// session go once its last dump is read. What it replays must be what reading the log whole
/// replays, and what it holds at any time only the sessions still being dumped.
final class AccessLogStreamingTests: XCTestCase {
    private static let fields =
        "#Fields: date time uri cs-guid c-start-time c-duration-watched c-stalls c-startup-time sc-indicated-bitrate bytes"

    /// `sessions` sessions of 6 events, at most 3 being dumped at once (interleaved), each dumped
    /// after every second event with the whole log so far; an error log entry for session 5 and
    /// one for a session without events; an app's line and a cut row between dumps.
    private static func log(sessions: Int) -> String {
        var text = ""
        var live: [(guid: String, rows: [String])] = []
        var started = 0
        var turn = 0
        while started < sessions || !live.isEmpty {
            while live.count < 3, started < sessions {
                started += 1
                live.append(("G\(started)", []))
            }
            let slot = turn % live.count
            turn += 1
            let i = live[slot].rows.count
            live[slot].rows.append(
                "2026/01/02 10:\(String(format: "%02d", i)):00.000 v\(i % 2).m3u8 \(live[slot].guid) \(i * 30).000 "
                    + "30.000 \(i % 2) 1.500 \(800_000 * (1 + i % 2)) \(1000 * (i + 1))")
            if i % 2 == 1 {
                text += "App[42:7] dumping \(live[slot].guid)\n#Version: 1.0\n\(fields)\n"
                text += live[slot].rows.joined(separator: "\n") + "\n"
                if live[slot].guid == "G5" {
                    text += "#Fields: date time uri cs-guid s-ip status domain comment\n"
                    text += "2026/01/02 10:01:10.000 v1.m3u8 G5 1.2.3.4 -12938 \"CoreMediaErrorDomain\" \"HTTP 503\"\n"
                    text +=
                        "2026/01/02 10:01:10.000 v1.m3u8 NOBODY 1.2.3.4 -12938 \"CoreMediaErrorDomain\" \"HTTP 503\"\n"
                }
            }
            if live[slot].rows.count == 6 { live.remove(at: slot) }
        }
        return text + "2026/01/02 10:09:00.000 v1.m3u8 G1 9"
    }

    func testAFileReplaysAsTheWholeLogAndHoldsOnlyTheSessionsBeingDumped() throws {
        let text = Self.log(sessions: 40)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString).log")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        var wholeWarnings: [String] = []
        var whole = try AccessLogReader(
            ByteInput(bytes: Array(text.utf8), name: path), warn: { wholeWarnings.append($0) })
        XCTAssertEqual(whole.sessions.count, 40, "read whole: every session is held before the first step")
        var wholeSteps: [Step] = []
        while let step = try whole.nextStep() { wholeSteps.append(step) }

        var streamedWarnings: [String] = []
        var streamed = try AccessLogReader(
            try ByteInput(path: path), indexing: try ByteInput(path: path), warn: { streamedWarnings.append($0) })
        XCTAssertEqual(streamed.settings, whole.settings)
        var streamedSteps: [Step] = []
        var mostHeld = 0
        while let step = try streamed.nextStep() {
            streamedSteps.append(step)
            mostHeld = max(mostHeld, streamed.sessions.count)
        }
        XCTAssertEqual(streamedSteps, wholeSteps)
        XCTAssertGreaterThan(wholeSteps.count, 40 * 6)
        // Three sessions are dumped at once; the next one waits only for the one laid out.
        XCTAssertLessThanOrEqual(mostHeld, 3)
        XCTAssertEqual(streamed.errorEntries, 2)
        XCTAssertEqual(Set(streamedWarnings), Set(wholeWarnings))
        XCTAssertTrue(
            streamedWarnings.contains { $0.contains("1 error log entries of sessions without access log events") },
            "\(streamedWarnings)")
    }

    /// `TimelineReader` opens a file in two readings, standard input whole.
    func testAFileIsOpenedForTwoReadings() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString).log")
            .path
        try Self.log(sessions: 5).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try TimelineReader.open(path, format: nil, csvTrackers: [], warn: { _ in })
        let reader = try XCTUnwrap(source as? AccessLogReader)
        XCTAssertLessThan(reader.sessions.count, 5, "not read whole before the first step")
    }
}
