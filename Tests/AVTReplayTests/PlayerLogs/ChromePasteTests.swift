import Foundation
import XCTest

@testable import AVTReplay
@testable import AVTTimeline

/// Saved media-internals logs as bug reports paste them: cut anywhere, with prose around them,
/// and with players the page created that never loaded media. The entries (`{"time", "key",
/// "value"}`) are read whatever encloses them; what was cut is said once.
final class ChromePasteTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    /// A paste that begins inside the first player's `properties` and stops inside an entry.
    /// Its first entry is a play request 5000.5 ms into the player (rounded to 5001): the log
    /// lost the creation and the load, so the load is placed at the play request (as for a
    /// table cut before its load); HAVE_ENOUGH after the request is the first frame.
    static let middle = """
              "pipeline_state": "kPlaying",
              "duration": 60
            },
            "events": [
              {"time": 5000.5, "key": "event", "value": "kPlay"},
              {"time": 5400, "key": "pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH", "reason": ""}},
              {"time": 9000, "key": "event", "value": "kPause"},
              {"time": 9500, "key": "event", "va
        """

    func testAPasteFromTheMiddleOfASavedLogIsDetectedAndRead() throws {
        XCTAssertEqual(TimelineFormat.sniff(Array(Self.middle.utf8)), .chromeMediaLog)
        let (settings, steps, warnings) = try Support.read(bytes: Self.middle, format: nil)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "5001 content event=\"loadstart\"",
                "5001 content event=\"play\"",
                "5400 content event=\"playing\"",
                "9000 content event=\"pause\"",
            ])
        XCTAssertEqual(
            warnings,
            [
                "<stdin>: the log begins mid-JSON (a paste from its middle): read from its first whole entry",
                "<stdin>: the log is cut mid-JSON: read up to its last whole entry",
            ])
    }

    /// Entries alone, one per line with their commas, inside a markdown fence under a sentence
    /// that holds a stray quote: the prose is skipped (a JSON string never spans a line break,
    /// so the quote cannot swallow the entries), and entries before any player's event list
    /// mean the paste began inside the log.
    func testEntriesWithProseAroundThemAreRead() throws {
        let text = """
            Data from edge://media-internals, the player's "Save Log (it stalls here):
            ```
                  {"time": 0, "key": "event", "value": "kLoad"},
                  {"time": 300, "key": "event", "value": "kPlay"},
                  {"time": 700, "key": "pipeline_buffering_state", "value": "BUFFERING_HAVE_ENOUGH"},
                  {"time": 4700, "key": "pipeline_buffering_state", "value": "BUFFERING_HAVE_NOTHING"},
            ```
            Thanks!
            """
        XCTAssertEqual(TimelineFormat.sniff(Array(text.utf8)), .chromeMediaLog)
        let (settings, steps, warnings) = try Support.read(bytes: text, format: nil)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "0 content event=\"loadstart\"",
                "300 content event=\"play\"",
                "700 content event=\"playing\"",
                "4700 content event=\"waiting\"",
            ])
        XCTAssertEqual(
            warnings, ["<stdin>: the log begins mid-JSON (a paste from its middle): read from its first whole entry"])
    }

    /// A page's players that only were created and destroyed (an ad slot, a muted preview) have
    /// nothing to replay: said in one warning, and they take no session, so a player without
    /// media after the last one with media does not make the others share a tracker.
    func testPlayersWithoutMediaAreReportedAndTakeNoSession() throws {
        let empty =
            #"{"properties": {}, "events": [{"time": 0, "key": "event", "value": "kWebMediaPlayerCreated"}, "#
            + #"{"time": 4, "key": "event", "value": "kWebMediaPlayerDestroyed"}]}"#
        let media =
            #"{"properties": {}, "events": [{"time": 0, "key": "event", "value": "kLoad"}, "#
            + #"{"time": 10, "key": "event", "value": "kPlay"}]}"#
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("players-\(UUID().uuidString).json")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "[\(empty), \(media), \(media), \(empty)]".write(toFile: path, atomically: true, encoding: .utf8)
        let (settings, steps, warnings) = try Support.read(path)
        XCTAssertEqual(settings.trackers.map(\.name), ["content", "content-2"])
        XCTAssertEqual(Set(steps.map(\.tracker)), [0, 1])
        XCTAssertEqual(
            warnings, ["\(path): 2 players without media (no load, play, state or size entry), not replayed"])

        try "[\(empty), \(empty)]".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Support.read(path)) {
            XCTAssertEqual(
                "\($0)", "\(path): 2 players without media (no load, play, state or size entry): nothing to replay")
        }
    }

    /// A saved log's `properties` hold each key's last value. An `error` there that no entry says
    /// (the decode error shown only in the panel, or an error entry cut from the paste) fails the
    /// player at its last entry, as the entry would: one fatal error; without it, none. The
    /// second player has the error both as an entry and in its properties: one error, not two.
    func testAnErrorOnlyInThePlayersPropertiesFailsIt() throws {
        let log = try String(
            contentsOf: Support.fixtures.appendingPathComponent("chrome-save-log.json"), encoding: .utf8)
        let failing = log.replacingOccurrences(
            of: #""pipeline_state": "kPlaying","#,
            with: #""pipeline_state": "kStopped", "error": "PIPELINE_ERROR_DECODE: video decode failed","#)
        XCTAssertNotEqual(failing, log)
        for (text, errors) in [(log, 0), (failing, 1)] {
            let path = try CSVTestSupport.file(text, name: "save-log.json")
            let kpis = try Support.kpis(path)
            XCTAssertEqual(kpis.first?.int("fatalErrorCount"), errors)
            let (_, steps, _) = try Support.read(path)
            XCTAssertEqual(Support.count(steps, "event", .string("error")), errors + 1)
        }
    }

    /// The Player Properties panel pasted in place of a log (markdown or tab-separated rows of
    /// final values, no times): bad input that says what it is and its final error, not "not a
    /// CSV timeline"; a CSV timeline whose rows happen to have two cells is still read as one.
    func testAPlayerPropertiesPasteIsNamedWithItsFinalState() throws {
        let markdown = """
            Property | Value
            -- | --
            render_id | 12
            player_id | 3
            pipeline_state | kStopped
            error | PIPELINE_ERROR_DECODE: video decode failed

            """
        for text in [markdown, "render_id\t12\npipeline_state\tkPlaying\nurl\thttps://example.com/a.mp4\n"] {
            XCTAssertThrowsError(try Support.read(bytes: text, format: nil)) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("Chrome media-internals Player Properties"), message)
                XCTAssertTrue(message.contains("Save Log"), message)
            }
        }
        XCTAssertThrowsError(try Support.read(bytes: markdown, format: nil)) { error in
            XCTAssertTrue("\(error)".contains("error PIPELINE_ERROR_DECODE: video decode failed"), "\(error)")
        }
        XCTAssertNil(ChromePropertiesPaste.read(Array("t,tracker\n0,c\n1,c\n".utf8)[...]))
    }

    /// What decides: a JSON timeline has `steps`, a JSONL timeline's lines have `t`; a Chrome
    /// entry has a numeric `time` and then a string `key` in the same object.
    func testOnlyEntriesMakeAChromeLog() {
        XCTAssertTrue(PlayerLogSniffer.hasEntry(Array(#"{"time": 1.5, "key": "event"}"#.utf8)[...]))
        XCTAssertTrue(PlayerLogSniffer.hasEntry(Array(#"x {"time" : -0, "key" : "a"}"#.utf8)[...]))
        XCTAssertFalse(PlayerLogSniffer.hasEntry(Array(#"{"time": "12:00", "key": "event"}"#.utf8)[...]))
        XCTAssertFalse(PlayerLogSniffer.hasEntry(Array(#"{"time": 1, "v": {"key": "event"}}"#.utf8)[...]))
        XCTAssertFalse(PlayerLogSniffer.hasEntry(Array(#"{"time": 1, "key": 2}"#.utf8)[...]))
        XCTAssertNotEqual(
            TimelineFormat.sniff(Array(#"{"t": 0, "tracker": "c", "set": {"time": 1, "key": "k"}}"#.utf8)),
            .chromeMediaLog)
    }
}
