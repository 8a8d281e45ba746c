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
}
