import AVTJSON
import XCTest

@testable import AVTAnalysis
@testable import AVTFormats
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay

/// The session model and the HTML of the hand-worked session (ReportFixture): bars, ticks, every
/// event, KPIs, escaping.
final class ReportSessionTests: XCTestCase {
    func testThePlaybackLaneDrawsTheStateHistoryAndItsMarks() throws {
        let session = try ReportFixture.session()
        XCTAssertEqual(session.lanes, ["content", "ads"])
        XCTAssertEqual(session.end, 40000)
        let html = ReportWriter().render([session])
        let tags = HTMLTag.scan(html)
        // The marks a reader looks for, from the state history: the ad before the first frame,
        // the first frame, the rebuffer, the seek and the fatal error (the playback fails there,
        // so its End at 40000 ends nothing).
        let marks = tags.filter { $0.name == "g" && $0.classes.contains("mark") }
        XCTAssertEqual(
            marks.map { "\($0["data-t"]!) \($0["aria-label"]!)" },
            [
                "500 ad from 00:00.500 to 00:01.500, 1 s",
                "2000 start: first frame at 00:02.000, startup 2 s (openavt)",
                "20000 rebuffer at 00:20.000: buffering, 1.5 s",
                "25000 seek at 00:25.000, 1 s seeking",
                "30000 fatal error at 00:30.000",
            ])
        // Each mark's word is drawn above it: x 140 + t · 1000 / 40000.
        let pause = try XCTUnwrap(tags.first { $0.name == "rect" && $0["data-state"] == "paused" })
        XCTAssertEqual(
            [pause["data-t"], pause["data-e"], pause["x"], pause["width"]], ["12000", "15000", "440.0", "75.0"])
        XCTAssertEqual(pause["tabindex"], "0")
        XCTAssertEqual(pause["aria-label"], "paused from 00:12.000 to 00:15.000, 3 s")
        let rebuffer = try XCTUnwrap(marks.first { $0.classes.contains("m-rebuffer") })
        XCTAssertEqual(rebuffer["transform"], "translate(640.0,0)")
        for word in ["ad", "start", "rebuffer", "seek", "error"] {
            XCTAssertTrue(html.contains(">\(word)</text></g>"), word)
        }
        // The same states and marks as text.
        XCTAssertTrue(html.contains(">playback 1: paused from 00:12.000 to 00:15.000 (3 s)</li>"))
        XCTAssertTrue(html.contains(">playback 1: fatal error at 00:30.000</li>"))
        // No span is drawn from the hub's events: every bar is a state of the history.
        XCTAssertTrue(tags.filter { $0.classes.contains("bar") }.allSatisfy { $0.classes.contains("st") })
    }

    func testWordsThatWouldOverlapTakeASecondRowByPriority() {
        // Three words at the same x: the error first (row 0), then the start (row 1); the seek
        // finds both rows taken and is not drawn. A word past the right edge goes leftward.
        let places = PlaybackLanesSVG.wordPlaces([
            (x: 2000, width: 600, priority: 4), (x: 2000, width: 500, priority: 0), (x: 2100, width: 500, priority: 1),
            (x: 11_400, width: 400, priority: 2),
        ])
        XCTAssertEqual(places.map(\.row), [nil, 0, 1, 0])
        XCTAssertEqual(places.map(\.leftward), [false, false, false, true])
    }

    func testEveryRecordIsInTheDataIslandWithItsAttributes() throws {
        let session = try ReportFixture.session()
        let html = ReportWriter().render([session])
        let island = try IslandRecord.decode(try XCTUnwrap(HTMLTag.island(html, id: "s1-data")))
        // 17 events (13 content, 4 ads) and 12 metrics, as `avtreplay run` prints them.
        XCTAssertEqual(island.count, 29)
        XCTAssertEqual(island.filter { $0.lane != nil }.count, 17)
        for (decoded, record) in zip(island, session.records) {
            XCTAssertEqual(decoded.t, record.t)
            XCTAssertEqual(decoded.label, record.label)
            XCTAssertEqual(decoded.lane, record.type == "event" ? record.tracker : nil)
            if record.type == "event" {
                XCTAssertEqual(
                    decoded.attributes, Dictionary(uniqueKeysWithValues: record.attributes.map { ($0.key, $0.value) }))
            } else {
                XCTAssertEqual(decoded.value, record.value)
            }
        }
        XCTAssertEqual(
            island.filter { $0.lane == "content" }.map(\.label),
            [
                "StreamLoad", "BufferBegin", "BufferFinish", "Start", "PauseBegin", "PauseFinish", "BufferBegin",
                "BufferFinish",
                "SeekBegin", "SeekFinish", "Error", "Ping", "End",
            ])
        XCTAssertEqual(
            island.first { $0.label == "Error" }?.attributes["errorDescription"], .string("HTTP 404 </script><b>"))
    }

    func testOverlappingTicksAreAggregatedAndErrorsStandOut() throws {
        let html = ReportWriter().render([try ReportFixture.session()])
        let ticks = HTMLTag.scan(html).filter { $0.name == "rect" && $0.classes.contains("tk") }
        // Buckets are 4 px = 40000 / 1000 · 4 = 160 ms. content: {StreamLoad, BufferBegin}@0,
        // {BufferFinish, Start}@2000 aggregate; 8 other events alone, the Error in its own class,
        // the Ping faint. ads: {AdBreakBegin, AdBegin}@500 and {AdFinish, AdBreakFinish}@1500.
        let aggregated = ticks.filter { $0.classes.contains("agg") }
        XCTAssertEqual(aggregated.map { "\($0["data-t"]!)×\($0["data-n"]!)" }, ["0×2", "2000×2", "500×2", "1500×2"])
        XCTAssertEqual(ticks.count - aggregated.count, 9)
        let error = try XCTUnwrap(ticks.first { $0.classes.contains("err") })
        XCTAssertEqual(error["data-t"], "30000")
        XCTAssertEqual(error["aria-label"], "Error at 00:30.000")
        XCTAssertEqual(ticks.filter { $0.classes.contains("ping") }.map { $0["data-t"] }, ["32000"])
        XCTAssertTrue(ticks.allSatisfy { $0["tabindex"] == "0" && !($0["aria-label"] ?? "").isEmpty })
        // Metrics are labelled markers with their units: StartTime's marker and label at 2000 ms.
        let markers = HTMLTag.scan(html).filter { $0.name == "circle" && $0.classes.contains("mk") }
        XCTAssertTrue(
            markers.contains {
                $0["data-t"] == "2000" && $0["aria-label"] == "2 metrics: StartTime ×1, NumPlays ×1 at 00:02.000"
            })
        // Labels do not overlap: NumLoads' label at x 140 ends at 140 + 10 · 6 + 8 = 208, so the
        // one at 2000 ms (x 190) is left out; PlayTime at 12000 ms (x 440) is labelled.
        XCTAssertFalse(html.contains(">StartTime 2000 ms and 1 more</text>"))
        XCTAssertTrue(html.contains(">PlayTime 10000 ms</text>"))
        XCTAssertTrue(html.contains(">NumLoads 1</text>"))
    }

    func testKPIsAreShownAboveTheTimeline() throws {
        let html = ReportWriter().render([try ReportFixture.session()])
        // Startup: StreamLoad 0 → Start 2000. Play 2000–12000, 15000–20000, 21500–25000 and
        // 26000–30000 = 22500: the Error at 30000 is FAILED until End (no play after it);
        // rebuffer ratio 1500 / (22500 + 1500) = 6.25 %.
        for (kpi, text) in [
            ("startupTime", "2 s"), ("rebufferRatio", "6.25 %"), ("rebufferCount", "1"), ("playTime", "22.5 s"),
            ("errorCount", "1"), ("adCount", "1"),
        ] {
            XCTAssertTrue(html.contains("data-kpi=\"\(kpi)\"><dt>"), kpi)
            XCTAssertTrue(
                html.range(
                    of: "data-kpi=\"\(kpi)\"><dt>[^<]*</dt><dd>\(NSRegularExpression.escapedPattern(for: text))</dd>",
                    options: .regularExpression) != nil, kpi)
        }
        // The table: a row per playback (here one) and the total, a column per KPI with its unit.
        XCTAssertTrue(html.contains("<th scope=\"col\" data-kpi=\"rebufferTime\">rebufferTime (ms)</th>"))
        let column = KPIName.all.firstIndex(of: "rebufferTime")!
        let body = try XCTUnwrap(html.range(of: "<tbody><tr><th scope=\"row\""))
        let rows = html[body.lowerBound...].components(separatedBy: "</tbody>")[0].components(separatedBy: "<tr>")
            .dropFirst()
        XCTAssertEqual(rows.count, 2)
        for row in rows { XCTAssertEqual(row.components(separatedBy: "<td>")[column + 1].prefix(4), "1500") }
        XCTAssertLessThan(
            try XCTUnwrap(html.range(of: "class=\"kpis\"")).lowerBound,
            try XCTUnwrap(html.range(of: "<svg class=\"tl\"")).lowerBound)
        // The absolute start time and an mm:ss axis.
        XCTAssertTrue(html.contains("t = 0 is <time datetime=\"2026-03-01T12:00:00.000Z\">"))
        XCTAssertTrue(html.contains(">00:05</text>") && html.contains(">00:40</text>"))
    }

    func testTheReportIsSelfContainedAccessibleAndDeterministic() throws {
        let dir = try ReportFixture.directory()
        let a = ReportWriter().render([try ReportFixture.session(in: dir)])
        let b = ReportWriter().render([try ReportFixture.session(in: dir)])
        XCTAssertEqual(a, b)
        let tags = HTMLTag.scan(a)
        XCTAssertFalse(tags.contains { $0["src"] != nil || $0.name == "link" || $0.name == "iframe" })
        XCTAssertFalse(a.contains("@import") || a.contains("url(http"))
        XCTAssertTrue(a.contains("@media (prefers-color-scheme:dark)"))
        XCTAssertEqual(tags.first { $0.name == "html" }?["lang"], "en")
        XCTAssertTrue(tags.contains { $0.name == "svg" && $0["aria-labelledby"] != nil })
        // The error's text is escaped everywhere: no stray end tag from the data.
        XCTAssertFalse(a.contains("</script><b>"))
        XCTAssertEqual(a.components(separatedBy: "</script>").count - 1, tags.filter { $0.name == "script" }.count)
    }

    func testAnEventLogGivesTheSameReportAsItsTimeline() throws {
        let dir = try ReportFixture.directory()
        let path = dir.appendingPathComponent("walkthrough.json").path
        try ReportFixture.timeline.write(toFile: path, atomically: true, encoding: .utf8)
        let log = try GoldenFiles.produce(path, options: RunOptions(), csvTrackers: [])
        let logPath = dir.appendingPathComponent("events.jsonl").path
        try Data(log).write(to: URL(fileURLWithPath: logPath))
        // Detected by content: the first line is a record, not timeline settings.
        let fromLog = try ReportInput.load([logPath], fromEvents: false, csvTrackers: [])
        let fromTimeline = try ReportInput.load([path], fromEvents: false, csvTrackers: [])
        XCTAssertEqual(fromLog.map(\.records), fromTimeline.map(\.records))
        XCTAssertEqual(fromLog.first?.startEpochMilliseconds, ISO8601.parse("2026-03-01T12:00:00Z"))
        // The trackers' lanes are the same; the KPIs and states differ in what a log cannot know,
        // so only the tracker and metrics lanes and the data are compared.
        let html = { (s: SessionRecords) -> String in
            var renamed = s
            renamed.name = "x"
            return ReportFixture.trackerLanes(ReportWriter().render([ReportSession(renamed)]))
        }
        XCTAssertEqual(html(fromLog[0]), html(fromTimeline[0]))
        // A timeline's KPIs are `kpi`'s.
        let kpi = try KPISessions.replay(path)
        XCTAssertEqual(
            fromTimeline[0].kpis?.totals(definitions: .openavt).map(\.value),
            kpi.totals(definitions: .openavt).map(\.value))
        XCTAssertEqual(fromTimeline[0].kpis?.playbackIds, kpi.playbackIds)
    }

    func testTextIsFormattedExactly() {
        XCTAssertEqual(ReportText.clock(0), "00:00.000")
        XCTAssertEqual(ReportText.clock(61_200), "01:01.200")
        XCTAssertEqual(ReportText.clock(3_723_004), "1:02:03.004")
        XCTAssertEqual(ReportText.clock(90_000, milliseconds: false), "01:30")
        XCTAssertEqual(ReportText.duration(850), "850 ms")
        XCTAssertEqual(ReportText.duration(1800), "1.8 s")
        XCTAssertEqual(ReportText.duration(3000), "3 s")
        XCTAssertEqual(ReportText.fixed(4.4117, 2), "4.41")
        XCTAssertEqual(ReportText.fixed(0.005, 2), "0.01")
        XCTAssertEqual(ReportText.percent(1500.0 / 34000.0), "4.41 %")
        XCTAssertEqual(ReportText.html("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;")
    }
}
