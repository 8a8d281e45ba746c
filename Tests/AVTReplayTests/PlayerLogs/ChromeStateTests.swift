import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// What a Chrome media log says about the player's state, beyond its first entries, worked by
/// hand from Chrome's own meanings (media_log_events.h; the pipeline's states: kSeeking while a
/// seek runs, kPlaying once the pipeline runs again, paused or not) and the html5 state history
/// of docs/kpi.md (OpenAVT definitions): playTime is the time in `playing`, seekTime the time
/// from `seeking` to `seeked`, pauseCount the pauses after playback began.
final class ChromeStateTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    private func kpis(_ text: String, _ ext: String = "json") throws -> [KPI] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chrome-\(UUID().uuidString).\(ext)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try XCTUnwrap(try Support.kpis(path).first)
    }

    /// A table copied from minute 5 of a live stream: a duration (Chrome logs one with every
    /// live segment), the size, a HAVE_ENOUGH, then the user's pause at 5:10. None of the first
    /// entries says whether the player was playing; the pause does (a pause can only follow
    /// playback), so it was playing from the log's first entry: 300000 → 310000 ms played, one
    /// pause, no startup (it is before the log).
    func testNeutralFirstEntriesDoNotHideThatThePlayerWasPlaying() throws {
        let text = """
            00:05:00.000 | duration | 1800
            00:05:00.000 | width | 1280
            00:05:00.000 | height | 720
            00:05:02.000 | pipeline_buffering_state | BUFFERING_HAVE_ENOUGH
            00:05:10.000 | event | kPause
            """
        let (settings, steps, warnings) = try Support.read(bytes: text, format: .chromeMediaLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "300000 content midSession=true event=\"loadstart\"",
                "300000 content event=\"play\"",
                "300000 content event=\"playing\"",
                "300000 content duration=1800.0",
                "300000 content videoWidth=1280 videoHeight=720",
                "310000 content event=\"pause\"",
            ])
        XCTAssertEqual(
            warnings,
            [
                "<stdin>: line 1: the log starts 300000 ms into player 1, which was playing; its startup is not in the log"
            ])
        let k = try kpis(text, "txt")
        XCTAssertNil(k.int("startupTime"))
        XCTAssertEqual(k.int("playTime"), 10_000)
        XCTAssertEqual(k.int("pauseCount"), 1)
    }

    /// Four seeks 16 ms apart, each ended by the pipeline (kSeeking → kPlaying after 10 ms): four
    /// seeks of 10 ms, not one of 58 ms. The element plays after each (play was requested and not
    /// paused): playing 500 → 1000, then 10 ms after each seek until the next, then to the end of
    /// the log at 2000.
    func testThePipelineEndsEachSeek() throws {
        var entries = [
            #"{"time": 0, "key": "event", "value": "kLoad"}"#,
            #"{"time": 10, "key": "event", "value": "kPlay"}"#,
            #"{"time": 500, "key": "pipeline_buffering_state", "value": "BUFFERING_HAVE_ENOUGH"}"#,
        ]
        for n in 0..<4 {
            let t = 1000 + 16 * n
            entries += [
                #"{"time": \#(t), "key": "event", "value": "kSeek"}"#,
                #"{"time": \#(t), "key": "seek_target", "value": \#(30 + 10 * n)}"#,
                #"{"time": \#(t), "key": "pipeline_state", "value": "kSeeking"}"#,
                #"{"time": \#(t + 10), "key": "pipeline_state", "value": "kPlaying"}"#,
            ]
        }
        entries.append(#"{"time": 2000, "key": "info", "value": "still playing"}"#)
        let text = "[{\"properties\": {}, \"events\": [" + entries.joined(separator: ", ") + "]}]"
        let (settings, steps, _) = try Support.read(bytes: text, format: .chromeMediaLog)
        let lines = Support.lines(steps, settings)
        XCTAssertEqual(lines.filter { $0.hasSuffix("event=\"seeking\"") }.count, 4, "\(lines)")
        XCTAssertEqual(
            lines.filter { $0.hasSuffix("event=\"seeked\"") }.map { $0.prefix { $0 != " " } },
            ["1010", "1026", "1042", "1058"])
        let k = try kpis(text)
        XCTAssertEqual(k.int("seekCount"), 4)
        XCTAssertEqual(k.int("seekTime"), 40)
        // 500 → 1000, 1010 → 1016, 1026 → 1032, 1042 → 1048, 1058 → 2000.
        XCTAssertEqual(k.int("playTime"), 500 + 6 + 6 + 6 + 942)
    }

    /// A paste's last whole entry is where the log's knowledge ends: a debug entry 2775 ms after
    /// the first frame keeps those 2775 ms of play (the last state's time runs to it).
    func testTheLastWholeEntryEndsTheTimeline() throws {
        let text = """
            [{"properties": {}, "events": [
              {"time": 0, "key": "event", "value": "kLoad"},
              {"time": 10, "key": "event", "value": "kPlay"},
              {"time": 500, "key": "pipeline_buffering_state", "value": "BUFFERING_HAVE_ENOUGH"},
              {"time": 3275, "key": "debug", "value": "Video rendering in low delay mode."},
              {"time": 3300, "key": "debug", "value": "cut he
            """
        let k = try kpis(text)
        XCTAssertEqual(k.int("startupTime"), 500)
        XCTAssertEqual(k.int("playTime"), 2775)
    }

    /// A live stream left in a background tab, copied as an old Chrome's table (`HH:MM:SS mmm`,
    /// the milliseconds unpadded): the renderer runs dry (`pipeline_buffering_state`
    /// HAVE_NOTHING) and stays so until HAVE_ENOUGH, whatever the `duration` and renderer-level
    /// (`audio_buffering_state`) entries in between say. Three stalls, each to the next
    /// HAVE_ENOUGH: 13:11.285 → 13:14.232 (2947), 13:20.264 → 13:58.315 (38051), 14:04.310 →
    /// 14:42.295 (37985), 78983 ms in all, and no pause (nothing paused the element). The same
    /// table with Chrome 2020+'s JSON cells (`{"state": …, "reason": …}`) reads the same.
    func testBackgroundBufferingFollowsThePipelineStateInPlainAndJSONCells() throws {
        func table(_ nothing: String, _ enough: String) -> String {
            """
            00:12:27 42 | duration | 4809.041366
            00:13:11 283 | audio_buffering_state | \(nothing)
            00:13:11 285 | pipeline_buffering_state | \(nothing)
            00:13:11 289 | duration | 4851.083366
            00:13:14 232 | audio_buffering_state | \(enough)
            00:13:14 232 | pipeline_buffering_state | \(enough)
            00:13:20 264 | pipeline_buffering_state | \(nothing)
            00:13:56 219 | duration | 4894.693366
            00:13:58 315 | pipeline_buffering_state | \(enough)
            00:14:04 310 | audio_buffering_state | \(nothing)
            00:14:04 310 | pipeline_buffering_state | \(nothing)
            00:14:40 293 | duration | 4942.741366
            00:14:42 295 | pipeline_buffering_state | \(enough)
            00:14:50 100 | duration | 4950.741366
            """
        }
        let plain = table("BUFFERING_HAVE_NOTHING", "BUFFERING_HAVE_ENOUGH")
        let json = table(
            #"{"for_suspended_start":false,"reason":"DEMUXER_UNDERFLOW","state":"BUFFERING_HAVE_NOTHING"}"#,
            #"{"for_suspended_start":false,"state":"BUFFERING_HAVE_ENOUGH"}"#)
        for text in [plain, json] {
            let k = try kpis(text, "txt")
            XCTAssertEqual(k.int("rebufferCount"), 3)
            XCTAssertEqual(k.int("rebufferTime"), 78_983)
            XCTAssertEqual(k.int("maxRebufferTime"), 38_051)
            XCTAssertEqual(k.int("pauseCount"), 0)
            XCTAssertNil(k.int("startupTime"), "the log starts mid-session")
        }
    }
}
