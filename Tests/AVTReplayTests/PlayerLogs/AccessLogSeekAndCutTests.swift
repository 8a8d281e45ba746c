import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Two things an access log says that a reader must not lose, worked by hand from Apple's field
/// definitions (AVPlayerItemAccessLogEvent: `playbackStartOffset` is c-start-time, the media
/// position where the event's uninterrupted playback began; `durationWatched` is
/// c-duration-watched; a new event begins at every seek and variant switch):
/// - a seek is an event whose c-start-time is away from where the previous one left off (its
///   c-start-time + c-duration-watched), also when the seek landed on another variant;
/// - the watched time is Σ c-duration-watched of every event, the last one included when the
///   paste cuts its line after that field.
final class AccessLogSeekAndCutTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    private static let header =
        "#Fields: date time uri cs-guid c-start-time c-duration-watched c-stalls c-startup-time sc-indicated-bitrate bytes"

    /// The log's first session, and what the reader warned.
    private func read(_ rows: [String]) throws -> (session: AccessLogSession, warnings: [String]) {
        let text = ([Self.header] + rows).joined(separator: "\n")
        var warnings: [String] = []
        let reader = try AccessLogReader(ByteInput(bytes: Array(text.utf8), name: "log"), warn: { warnings.append($0) })
        return (try XCTUnwrap(reader.sessions.first), warnings)
    }

    private func session(_ rows: [String]) throws -> AccessLogSession { try read(rows).session }

    /// Event 2 starts where event 1 left off (10 + 5 = 15 s) on another variant: a switch.
    /// Event 3 starts at 300 s on a third variant, one second of wall clock after event 2
    /// began: no playback covers 300 − 15 s in a second, so it is a seek. Event 4 goes back
    /// to 100 s (before where event 3 left off, 302 s): a seek too.
    func testAJumpOntoAnotherVariantIsASeek() throws {
        let rows = [
            "2026/01/02 10:00:00.000 v1.m3u8 G 10.000 5.000 0 1.000 800000 100",
            "2026/01/02 10:00:05.005 v2.m3u8 G 15.000 1.000 0 1.000 1600000 100",
            "2026/01/02 10:00:06.006 v3.m3u8 G 300.000 2.000 0 0.200 3200000 100",
            "2026/01/02 10:00:08.008 v2.m3u8 G 100.000 4.000 0 0.200 1600000 100",
        ]
        XCTAssertEqual(try session(rows).seekRows, [2, 3])
    }

    /// A frozen event's watched time can be reported short (FB22519249): the next variant's
    /// event then starts ahead of where the last one "left off", but no further than the wall
    /// clock between the two events' dates allows. Not a seek: event 2 says 0 s watched, yet
    /// event 3 begins 2 s of wall clock later at 1.9 s of media.
    func testASwitchAfterAnUnderReportedEventIsNoSeek() throws {
        let rows = [
            "2026/01/02 10:00:00.000 v1.m3u8 G 0.000 0.200 0 1.000 800000 100",
            "2026/01/02 10:00:01.001 v2.m3u8 G 0.100 0.000 0 1.000 1600000 100",
            "2026/01/02 10:00:03.003 v3.m3u8 G 1.900 8.000 0 1.000 3200000 100",
        ]
        XCTAssertEqual(try session(rows).seekRows, [])
    }

    /// The paste ends inside event 2's line, after its c-duration-watched (3.5 s) and in the
    /// middle of its c-startup-time: watched = 6 + 3.5 s; what was cut (startup, bitrate,
    /// bytes) is missing, and said with the line.
    func testALastLineCutAfterItsWatchedTimeCounts() throws {
        let rows = [
            "2026/01/02 10:00:00.000 v1.m3u8 G 0.000 6.000 1 1.000 800000 100",
            "2026/01/02 10:00:06.006 v1.m3u8 G 6.000 3.500 0 0.0",
        ]
        let (session, warnings) = try read(rows)
        XCTAssertEqual(session.rows.count, 2)
        XCTAssertEqual(session.watched, 9_500)
        XCTAssertEqual(session.rows[1].startup, nil)
        XCTAssertEqual(session.rows[1].indicatedBitrate, nil)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(
            warnings[0].hasPrefix("log:3: cut after c-duration-watched (7 whole values of 10): read up to the cut"),
            warnings[0])

        // The replay plays both events: 1 s startup, then 6 s and 3.5 s of play, one stall.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ([Self.header] + rows).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let k = try XCTUnwrap(try Support.kpis(path).first)
        XCTAssertEqual(k.int("playTime"), 9_500)
    }

    /// A cut before c-duration-watched leaves no event: the line is skipped, as before.
    func testALineCutBeforeItsWatchedTimeIsSkipped() throws {
        let (session, warnings) = try read([
            "2026/01/02 10:00:00.000 v1.m3u8 G 0.000 6.000 1 1.000 800000 100",
            "2026/01/02 10:00:06.006 v1.m3u8 G 6.000 3.5",
        ])
        XCTAssertEqual(session.rows.count, 1)
        XCTAssertTrue(warnings.first?.contains("6 values for 10 #Fields (a cut line?), skipped") == true, "\(warnings)")
    }
}
