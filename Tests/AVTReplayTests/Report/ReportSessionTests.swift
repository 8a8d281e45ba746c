import AVTJSON
import XCTest

@testable import AVTAnalysis
@testable import AVTFormats
@testable import AVTReplay

/// The session model and the HTML of the hand-worked session (ReportFixture): bars, ticks, every
/// event, KPIs, escaping.
final class ReportSessionTests: XCTestCase {
    func testBlocksOfTheHandWorkedSession() throws {
        let session = try ReportFixture.session()
        XCTAssertEqual(session.lanes, ["content", "ads"])
        XCTAssertEqual(session.end, 40000)
        let blocks = session.blocks.map {
            "\(session.lanes[$0.lane]) \($0.kind.rawValue) \($0.start)-\($0.end)\($0.unfinished ? " open" : "")"
        }
        XCTAssertEqual(
            blocks,
            [
                // The BufferBegin at 0 came before Start: the initial load, not a stall.
                "content initial-buffer 0-2000",
                "content playback 2000-40000",
                "content pause 12000-15000",
                "content rebuffer 20000-21500",
                "content seek 25000-26000",
                "ads ad-break 500-1500",
                "ads ad 500-1500",
            ])
    }

    func testUnclosedBlocksRunToTheEndAndBufferingInASeekIsNotAStall() {
        var builder = BlockBuilder(lane: 0)
        for (t, action) in [
            (0, "Start"), (1000, "SeekBegin"), (1100, "BufferBegin"), (1400, "BufferFinish"), (1500, "SeekFinish"),
            (5000, "PauseBegin"),
        ] {
            builder.add(action: action, t: t)
        }
        builder.close(at: 9000)
        XCTAssertEqual(
            builder.blocks.map { "\($0.kind.rawValue) \($0.start)-\($0.end) \($0.unfinished)" },
            [
                "seek-buffer 1100-1400 false", "seek 1000-1500 false", "playback 0-9000 true", "pause 5000-9000 true",
            ])
    }

    func testBarsHaveTheirStartEndAndPosition() throws {
        let html = ReportWriter().render([try ReportFixture.session()])
        let bars = HTMLTag.scan(html).filter { $0.name == "rect" && $0.classes.contains("bar") }
        XCTAssertEqual(bars.count, 7)
        let pause = try XCTUnwrap(bars.first { $0["data-kind"] == "pause" })
        XCTAssertEqual(pause["data-t"], "12000")
        XCTAssertEqual(pause["data-e"], "15000")
        // x = gutter 140 + 12000 · 1000 / 40000 = 440; width = 3000 · 1000 / 40000 = 75.
        XCTAssertEqual(pause["x"], "440.0")
        XCTAssertEqual(pause["width"], "75.0")
        XCTAssertEqual(pause["tabindex"], "0")
        XCTAssertEqual(pause["aria-label"], "pause from 00:12.000 to 00:15.000, 3 s")
        let rebuffer = try XCTUnwrap(bars.first { $0["data-kind"] == "rebuffer" })
        // 20000 → 140 + 500 = 640; 1500 ms → 37.5 px.
        XCTAssertEqual(
            [rebuffer["data-t"], rebuffer["data-e"], rebuffer["x"], rebuffer["width"]],
            ["20000", "21500", "640.0", "37.5"])
        let initial = try XCTUnwrap(bars.first { $0["data-kind"] == "initial-buffer" })
        XCTAssertEqual([initial["data-t"], initial["data-e"]], ["0", "2000"])
        XCTAssertNotEqual(initial["class"], rebuffer["class"], "initial load and rebuffer are coloured apart")
        // The same bars as text.
        let items = HTMLTag.scan(html).filter { $0.name == "li" && $0["data-kind"] != nil }
        XCTAssertEqual(
            items.map { "\($0["data-lane"]!) \($0["data-kind"]!) \($0["data-t"]!)-\($0["data-e"]!)" }.first {
                $0.contains("pause")
            },
            "content pause 12000-15000")
        XCTAssertTrue(html.contains("content: pause from 00:12.000 to 00:15.000 (3 s)</li>"))
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
        // Metrics are labelled markers: StartTime's marker and label at 2000 ms.
        let markers = HTMLTag.scan(html).filter { $0.name == "circle" && $0.classes.contains("mk") }
        XCTAssertTrue(
            markers.contains {
                $0["data-t"] == "2000" && $0["aria-label"] == "2 metrics: StartTime ×1, NumPlays ×1 at 00:02.000"
            })
        // Labels do not overlap: NumLoads' label at x 140 ends at 140 + 10 · 6 + 8 = 208, so the
        // one at 2000 ms (x 190) is left out; PlayTime at 12000 ms (x 440) is labelled.
        XCTAssertFalse(html.contains(">StartTime 2000 +1</text>"))
        XCTAssertTrue(html.contains(">PlayTime 10000</text>"))
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
        // The timeline is the same; the KPIs and states differ in what a log cannot know, so
        // the part from the KPIs to the timeline is left out of the comparison.
        let html = { (s: SessionRecords) -> String in
            var renamed = s
            renamed.name = "x"
            let page = ReportWriter().render([ReportSession(renamed)])
            guard let from = page.range(of: "<section class=\"kpis\""), let to = page.range(of: "<h3>Timeline</h3>")
            else { return page }
            return String(page[..<from.lowerBound] + page[to.lowerBound...])
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
