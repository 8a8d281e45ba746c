import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Chrome media-internals logs (saved JSON, players map, copied table) and the KPIs `kpi`
/// computes from them (OpenAVT definitions, docs/kpi.md), worked by hand from the html5 state
/// history: `loadstart` begins the join (the tracker's StreamLoad), `play` is the play intent,
/// `playing` the first frame and then playing, `waiting` a stall, `seeking` … `seeked` a seek,
/// `pause` a pause, `ended` the end, `error` a fatal error. startupTime = loadstart → the first
/// `playing`; bufferTime = join + stalls; rebufferCount counts stalls only (not the join).
/// Times are ms since each player's first entry, rounded; each player follows the previous.
final class ChromeMediaLogTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    func testSavedLogWithTwoPlayersOfBothNamingEras() throws {
        let path = Support.fixture("chrome-save-log.json")
        let (settings, steps, warnings) = try Support.read(path)
        XCTAssertEqual(settings.trackers.map(\.name), ["content", "content-2"])
        XCTAssertEqual(settings.trackers.map(\.kind), [.html5, .html5])
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "3 content currentSrc=\"blob:https://example.com/3f2a\"",
                "3 content event=\"loadstart\"",
                "150 content event=\"play\"",
                "411 content duration=60.0",
                "411 content videoWidth=1280 videoHeight=720",
                // {"state": "BUFFERING_HAVE_ENOUGH"} after the play request.
                "980 content event=\"playing\"",
                // Stored after 12480.3 but earlier: sorted by time.
                "10980 content event=\"waiting\"",
                "12480 content event=\"playing\"",
                "20000 content currentTime=45.0 event=\"seeking\"",
                "20650 content event=\"seeked\"",
                "20650 content event=\"playing\"",
                "30000 content event=\"pause\"",
                "34000 content event=\"play\"",
                "34000 content event=\"playing\"",
                // The HAVE_ENOUGH repeated at 35650 changes nothing; the kPause right after
                // kEnded is Chrome's own.
                "45000 content event=\"ended\"",
                "50000 content action=Stop",
                // Player 2 (UPPER_SNAKE names, string buffering states) from 50000.
                "50002 content-2 currentSrc=\"https://example.com/clip.mp4\"",
                "50005 content-2 event=\"loadstart\"",
                "50005 content-2 event=\"play\"",
                "50300 content-2 event=\"playing\"",
                // `error` and `pipeline_error` of one failure: one Error.
                "55300 content-2 error={\"code\":3,\"message\":\"PIPELINE_ERROR_DECODE\"} event=\"error\"",
                // The last player's last entry (its destruction, after the error) ends the log.
                "55400 content-2",
            ])
        XCTAssertEqual(
            warnings,
            [
                "\(path): not replayed (the html5 tracker has no observation for them): renderer buffering states 1, "
                    + "automatic PAUSE after ENDED 1, repeated error entries 1"
            ])
        XCTAssertEqual(Support.count(steps, "event", .string("seeking")), 1)
        XCTAssertEqual(Support.count(steps, "event", .string("pause")), 1)
        XCTAssertEqual(Support.count(steps, "event", .string("error")), 1)

        let kpis = try Support.kpis(path)
        XCTAssertEqual(kpis.count, 2)
        // Player 1: loadstart 3 (kLoad), the first playing 980.
        XCTAssertEqual(kpis[0].int("startupTime"), 977)
        // Playing 980–10980 (10000) + 12480–20000 (7520) + 20650–30000 (9350) + 34000–45000 (11000).
        XCTAssertEqual(kpis[0].int("playTime"), 37_870)
        // The join 3–980 (977) and the stall 10980–12480 (1500); only the stall is a rebuffer.
        XCTAssertEqual(kpis[0].int("bufferTime"), 2477)
        XCTAssertEqual(kpis[0].int("rebufferCount"), 1)
        // seek_target 20000 … HAVE_ENOUGH 20650.
        XCTAssertEqual(kpis[0].int("seekCount"), 1)
        XCTAssertEqual(kpis[0].int("seekTime"), 650)
        // kPause 30000 … kPlay 34000; the PAUSE after ENDED is Chrome's own, not counted.
        XCTAssertEqual(kpis[0].int("pauseCount"), 1)
        XCTAssertEqual(kpis[0].int("pauseTime"), 4000)
        XCTAssertEqual(kpis[0].int("errorCount"), 0)
        // Player 2: loadstart 50005, playing 50300, the decode error at 55300.
        XCTAssertEqual(kpis[1].int("startupTime"), 295)
        XCTAssertEqual(kpis[1].int("bufferTime"), 295)
        XCTAssertEqual(kpis[1].int("playTime"), 5000)
        XCTAssertEqual(kpis[1].int("pauseCount"), 0)
        XCTAssertEqual(kpis[1].int("seekCount"), 0)
        XCTAssertEqual(kpis[1].int("errorCount"), 1)
        XCTAssertEqual(kpis[1][name: "playbackFailed"], .bool(true))
    }

    func testRawPlayersMapCutMidJSON() throws {
        let path = Support.fixture("chrome-players-map-cut.json")
        let (settings, steps, warnings) = try Support.read(path)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                // 1.5 ms rounds to 2.
                "2 content event=\"loadstart\"",
                "40 content event=\"play\"",
                "740 content event=\"playing\"",
                "8740 content event=\"waiting\"",
                "9990 content event=\"playing\"",
                "15990 content event=\"pause\"",
            ])
        XCTAssertEqual(warnings, ["\(path): the log is cut mid-JSON: read up to its last whole entry"])
        let k = try XCTUnwrap(try Support.kpis(path).first)
        // loadstart 2 → playing 740.
        XCTAssertEqual(k.int("startupTime"), 738)
        // 740–8740 (8000) + 9990–15990 (6000).
        XCTAssertEqual(k.int("playTime"), 14_000)
        // The join 2–740 (738) + the stall 8740–9990 (1250).
        XCTAssertEqual(k.int("bufferTime"), 1988)
        XCTAssertEqual(k.int("rebufferCount"), 1)
        // The pause at 15990, the last step.
        XCTAssertEqual(k.int("pauseCount"), 1)
        XCTAssertEqual(k.int("seekCount"), 0)
        XCTAssertEqual(k.int("errorCount"), 0)
    }

    func testTableCopiedFromOldChromeWithUnpaddedMilliseconds() throws {
        let path = Support.fixture("chrome-table-old.txt")
        let (settings, steps, _) = try Support.read(path)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                // `00:00:00 4`: 4 ms, not 400.
                "4 content currentSrc=\"https://example.com/movie.webm\"",
                "52 content event=\"loadstart\"",
                "52 content event=\"play\"",
                "652 content event=\"playing\"",
                "10652 content event=\"waiting\"",
                "11052 content event=\"playing\"",
                "20052 content currentTime=120.0 event=\"seeking\"",
                "21252 content event=\"seeked\"",
                "21252 content event=\"playing\"",
                "31252 content event=\"ended\"",
                // The log's last entry (Chrome's own PAUSE after ENDED) ends the timeline.
                "31260 content",
            ])
        let k = try XCTUnwrap(try Support.kpis(path).first)
        // loadstart 52 → playing 652.
        XCTAssertEqual(k.int("startupTime"), 600)
        // 652–10652 (10000) + 11052–20052 (9000) + 21252–31252 (10000).
        XCTAssertEqual(k.int("playTime"), 29_000)
        // The join 52–652 (600) + the stall 10652–11052 (400).
        XCTAssertEqual(k.int("bufferTime"), 1000)
        XCTAssertEqual(k.int("rebufferCount"), 1)
        // seeking 20052 → seeked 21252.
        XCTAssertEqual(k.int("seekCount"), 1)
        XCTAssertEqual(k.int("seekTime"), 1200)
        XCTAssertEqual(k.int("pauseCount"), 0)
        XCTAssertEqual(k.int("errorCount"), 0)
    }

    func testTabSeparatedTableWithJSONValues() throws {
        let path = Support.fixture("chrome-table-tabs.txt")
        let (settings, steps, _) = try Support.read(path)
        XCTAssertEqual(
            Support.lines(steps, settings).last,
            "12370 content error={\"code\":3,\"message\":\"PIPELINE_ERROR_DECODE: video decoder reinitialization failed\"} event=\"error\""
        )
        let k = try XCTUnwrap(try Support.kpis(path).first)
        // StreamLoad 3, Start 870; playing 870–5870 (5000), 7870–9870 (2000), 10370–12370 (2000).
        XCTAssertEqual(k.int("startupTime"), 867)
        XCTAssertEqual(k.int("playTime"), 9000)
        // The join 3–870 (867) + HAVE_NOTHING 9870 → HAVE_ENOUGH 10370 (500).
        XCTAssertEqual(k.int("bufferTime"), 1367)
        // kPause 5870 → kPlay 7870 (HAVE_ENOUGH already: playing at once).
        XCTAssertEqual(k.int("pauseCount"), 1)
        XCTAssertEqual(k.int("pauseTime"), 2000)
        XCTAssertEqual(k.int("seekCount"), 0)
        XCTAssertEqual(k.int("errorCount"), 1)
    }

    func testEntriesOutOfOrderBeyondTheWindowAreReadAtTheTimeReached() throws {
        var text = "[{\"events\": [{\"time\": 0, \"key\": \"event\", \"value\": \"kLoad\"}"
        for i in 1...(ChromeMediaLogReader.reorderWindow + 1) {
            text += ", {\"time\": \(i * 10), \"key\": \"info\", \"value\": \"x\"}"
        }
        text += ", {\"time\": 5, \"key\": \"event\", \"value\": \"kPlay\"}]}]"
        let (_, steps, warnings) = try Support.read(bytes: text, format: .chromeMediaLog)
        // The load, the play read at 10 ms, and the end of the log at its last entry (40970 ms).
        XCTAssertEqual(steps.map(\.t), [0, 10, 40_970])
        XCTAssertEqual(
            warnings.first, "<stdin>: line 1: event at 5 ms is more than 4096 entries out of time order, read at 10 ms")
    }

    /// The first pass (`countPlayers`) parses a player's entries only until its first step and
    /// applies them unsorted: it must still find the players a full read finds, with players that
    /// make no step, a step that needs two entries out of order, and entries cut by the scanner's
    /// 256 KiB chunks (before, and inside, the entry that makes the step).
    func testCountingPassFindsThePlayersAFullReadFinds() throws {
        let long = String(repeating: "a", count: 300_000)
        let players = [
            // A size is a step once width and height are both known: height first, width earlier.
            #"{"events": [{"time": 9, "key": "height", "value": 720}, {"time": 1, "key": "width", "value": 1280}]}"#,
            // Nothing the html5 tracker observes (a PAUSE while paused changes nothing): no player.
            #"{"events": [{"time": 0, "key": "audio_buffering_state", "value": "x"}, {"time": 2, "key": "event", "value": "kPause"}]}"#,
            "{\"events\": [{\"time\": 0, \"key\": \"info\", \"value\": \"\(long)\"}, {\"time\": 5, \"key\": \"url\", \"value\": \"u\"}]}",
            "{\"events\": [{\"time\": 0, \"key\": \"error\", \"value\": \"\(long)\"}]}",
            #"{"events": [{"time": 0, "key": "info", "value": "x"}, {"time": 4, "key": "event", "value": "kPlay"}]}"#,
        ]
        let text = "[" + players.joined(separator: ", ") + "]"
        XCTAssertEqual(try ChromeMediaLogReader.countPlayers(ByteInput(bytes: Array(text.utf8), name: "x")), 4)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("count-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (settings, steps, _) = try Support.read(path)
        XCTAssertEqual(settings.trackers.map(\.name), ["content", "content-2", "content-3", "content-4"])
        XCTAssertEqual(Set(steps.map(\.tracker)), [0, 1, 2, 3])
        XCTAssertEqual(Support.count(steps, "videoWidth", .int(1280)), 1)
        XCTAssertEqual(Support.count(steps, "currentSrc", .string("u")), 1)
        XCTAssertEqual(Support.count(steps, "event", .string("error")), 1)
        XCTAssertEqual(Support.count(steps, "event", .string("play")), 1)
        for fixture in ["chrome-save-log.json", "chrome-players-map-cut.json"] {
            let counted = try ChromeMediaLogReader.countPlayers(ByteInput(path: Support.fixture(fixture)))
            XCTAssertEqual(try Support.read(Support.fixture(fixture)).settings.trackers.count, counted, fixture)
        }
    }

    /// Chrome counts a player's times from its first entry, so a table whose first row is past
    /// 0 ms was copied from the middle. A stall first means the player was playing: it is
    /// loaded, asked to play and playing at that row, and its first step carries `midSession`,
    /// so `kpi` has no startup (the 0 ms join it would otherwise measure) but keeps the window's
    /// play time: 716052 → 750000 playing, 750000 → 751500 stalled, 751500 → 760000 playing.
    func testATableCutAtItsTopStartsMidSession() throws {
        let text = """
            00:11:56 52 | pipeline_buffering_state | BUFFERING_HAVE_NOTHING
            00:11:57 0 | pipeline_buffering_state | BUFFERING_HAVE_ENOUGH
            00:12:30 0 | pipeline_buffering_state | BUFFERING_HAVE_NOTHING
            00:12:31 500 | pipeline_buffering_state | BUFFERING_HAVE_ENOUGH
            00:12:40 0 | event | PAUSE
            """
        let (settings, steps, warnings) = try Support.read(bytes: text, format: .chromeMediaLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "716052 content midSession=true event=\"loadstart\"",
                "716052 content event=\"play\"",
                "716052 content event=\"playing\"",
                "716052 content event=\"waiting\"",
                "717000 content event=\"playing\"",
                "750000 content event=\"waiting\"",
                "751500 content event=\"playing\"",
                "760000 content event=\"pause\"",
            ])
        XCTAssertEqual(
            warnings.first,
            "<stdin>: line 1: the log starts 716052 ms into player 1, which was playing; its startup is not in the log")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).txt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let k = try XCTUnwrap(try Support.kpis(path).first)
        XCTAssertNil(k.int("startupTime"))
        XCTAssertEqual(k[name: "started"], .bool(true))
        // Playing 716052 → 760000 less the two stalls (716052 → 717000, 750000 → 751500).
        XCTAssertEqual(k.int("playTime"), 43_948 - 948 - 1500)
    }

    /// A table that lost only its first rows (the creation) still shows the start when its
    /// first step is the load or the play request: the startup is measured, nothing is marked.
    func testATableCutBeforeItsLoadKeepsItsStartup() throws {
        let text = """
            00:00:00 52 | event | PLAY
            00:00:00 652 | pipeline_buffering_state | BUFFERING_HAVE_ENOUGH
            """
        let (settings, steps, warnings) = try Support.read(bytes: text, format: .chromeMediaLog)
        XCTAssertEqual(Support.count(steps, "midSession"), 0)
        XCTAssertEqual(Support.lines(steps, settings).first, "52 content event=\"loadstart\"")
        XCTAssertEqual(warnings, [])
    }

    func testNothingInTheFormatIsAnErrorNamingTheFile() {
        XCTAssertThrowsError(try Support.read(bytes: "[{\"steps\": []}]", format: .chromeMediaLog, name: "x.json")) {
            XCTAssertTrue("\($0)".hasPrefix("x.json: no Chrome media-internals entries"), "\($0)")
        }
    }

    func testEventNamesOfBothEras() {
        XCTAssertEqual(ChromeMediaLogReader.eventName("kWebMediaPlayerCreated"), "WEBMEDIAPLAYERCREATED")
        XCTAssertEqual(ChromeMediaLogReader.eventName("WEBMEDIAPLAYER_CREATED"), "WEBMEDIAPLAYERCREATED")
        XCTAssertEqual(ChromeMediaLogReader.eventName("kPlay"), "PLAY")
        XCTAssertEqual(ChromeMediaLogReader.eventName("PAUSE"), "PAUSE")
        XCTAssertEqual(ChromeTableRow.parse(Array("00:11:56 52 | event | PLAY".utf8))?.time, 716_052)
        XCTAssertEqual(ChromeTableRow.parse(Array("| 00:00:01.5 | event | PLAY |".utf8))?.time, 1500)
        XCTAssertNil(ChromeTableRow.parse(Array("-- | -- | --".utf8)))
    }
}
