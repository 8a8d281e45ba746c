import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// The report's state lanes, format plot and cards agree with the KPIs: a join is drawn as a
/// join (not a rebuffer), a failure has its own span and card and ends the playback's bar, ad
/// time is its own card.
final class ReportStatesTests: XCTestCase {
    func testTheFixtureLaneDrawsEachStateOnce() throws {
        let html = ReportWriter().render([try ReportFixture.session()])
        let spans = HTMLTag.scan(html).filter { $0.name == "rect" && $0.classes.contains("st") }.map {
            "\($0["data-state"]!) \($0["data-t"]!)–\($0["data-e"]!)"
        }
        // Hand-worked from the fixture's events (see ReportFixture): the load and the ad break
        // before Start are the join and the ad, the Error at 30000 fails the playback until the
        // recording's end (40000): nothing is drawn playing after it.
        XCTAssertEqual(
            spans,
            [
                "joining 0–500", "in an ad 500–1500", "joining 1500–2000", "playing 2000–12000", "paused 12000–15000",
                "playing 15000–20000", "buffering 20000–21500", "playing 21500–25000", "seeking 25000–26000",
                "playing 26000–30000", "failed 30000–40000",
            ])
        XCTAssertTrue(html.contains("aria-label=\"fatal error at 00:30.000\""))
        // One legend, listing only what is drawn: the states above, no suppressed or ended.
        let legend = HTMLTag.scan(html).compactMap { $0.name == "li" ? $0["data-item"] : nil }
        XCTAssertEqual(
            legend,
            [
                "state-st-join", "state-st-play", "state-st-pause", "state-st-seek", "state-st-buffer", "state-st-fail",
                "state-st-ad", "mark-start", "mark-rebuffer", "mark-seek", "mark-error", "mark-ad", "tick-ev",
                "tick-ping", "tick-err", "metric",
            ])
        XCTAssertEqual(html.components(separatedBy: "class=\"legend\"").count, 2, "one legend")
        for (kpi, text) in [("playbackFailed", "yes"), ("adTime", "1 s"), ("rebufferCount", "1")] {
            XCTAssertTrue(html.contains("data-kpi=\"\(kpi)\"><dt>"), kpi)
            XCTAssertNotNil(
                html.range(of: "data-kpi=\"\(kpi)\"><dt>[^<]*</dt><dd>\(text)</dd>", options: .regularExpression), kpi)
        }
    }

    func testManyPlaybacksShowMedianAndP90NotASum() {
        // Play times 1…10 s: median (nearest rank) 5 s, p90 9 s; 2 of 10 failed.
        let playbacks: [[KPI]] = (1...10).map {
            [KPI("playTime", .int($0 * 1000)), KPI("playbackFailed", .bool($0 > 8))]
        }
        XCTAssertEqual(KPISection.card("playTime", playbacks).0, "5 s · 9 s")
        XCTAssertEqual(KPISection.card("playbackFailed", playbacks).0, "2 of 10")
        XCTAssertTrue(KPISection.card("playbackFailed", playbacks).1)
    }

    func testUnitsAreReadable() {
        XCTAssertEqual(ReportText.kpi("averageBitrate", .int(2_171_496)), "2.17 Mb/s")
        XCTAssertEqual(ReportText.kpi("rebufferRatio", .double(0.0625)), "6.25 %")
        XCTAssertEqual(ReportText.kpi("averageResolutionHeight", .int(720)), "720 px")
        XCTAssertEqual(ReportText.kpi("startTimeMetric", .int(1500)), "1.5 s")
    }

    func testAFailingLaneWithHundredsOfErrorsStaysOneMarkPerBucket() {
        // 500 errors 1 ms apart on a 100 s axis: buckets of 4 px are 400 ms, so 10000–10399 is
        // one mark of 400 errors and 10400–10499 one of 100.
        var history = PlaybackHistory(id: "p", begin: 0, keepSpans: true)
        for t in 0..<500 { history.fatalError(at: 10_000 + t) }
        let layout = TimelineLayout(end: 100_000, playbackCount: 1, laneCount: 0, hasMetrics: false)
        let marks = StateMark.marks(of: history, values: [], definitions: .openavt, end: 100_000)
        XCTAssertEqual(marks.count, 500)
        let svg = PlaybackLanesSVG([history], marks: [marks], layout: layout).render(clipId: "c")
        let drawn = HTMLTag.scan(svg).filter { $0.name == "g" && $0.classes.contains("mark") }
        XCTAssertEqual(drawn.map { $0["data-n"] }, ["400", "100"])
        XCTAssertTrue(drawn[1]["aria-label"]!.hasPrefix("100 × error from 00:10.400 to 00:10.499: fatal error at"))
        XCTAssertTrue(svg.contains(">error ×400</text>"))
    }

    func testTheFormatPlotHasAxesWithValuesAndUnits() throws {
        var history = PlaybackHistory(id: "p", begin: 0, keepSpans: true)
        history.setFormat(height: 360, bitrate: 1_000_000, at: 0)
        history.setFormat(height: 720, bitrate: 3_000_000, at: 50_000)
        let svg = try XCTUnwrap(FormatPlotSVG.render([history], end: 100_000, id: "x"))
        // Bitrate on 0…3 Mb/s (1 Mb/s steps) over 80 px from y 96 up: 1 Mb/s at y 69, 3 at 16,
        // from x 140 to 640, then to 1140.
        XCTAssertTrue(svg.contains("d=\"M140.0 69 L640.0 69 L640.0 16 L1140.0 16\" data-series=\"bitrate\""), svg)
        XCTAssertTrue(svg.contains(">bitrate (Mb/s)</text>") && svg.contains(">resolution (px)</text>"))
        let values = HTMLTag.scan(svg).filter { $0.classes.contains("fl-value") }.count
        XCTAssertEqual(values, 4 + 3, "0, 1, 2, 3 Mb/s; 0, 360, 720 px")
        for label in [
            ">3</text>", ">360</text>", ">720</text>", ">00:00</text>", ">01:40</text>", ">time (mm:ss)</text>",
        ] {
            XCTAssertTrue(svg.contains(label), label)
        }
        XCTAssertTrue(
            svg.contains("<title>bitrate (Mb/s): 1 from 00:00.000 to 00:50.000; 3 from 00:50.000 to 01:40.000"))
    }

    func testThousandsOfFormatChangesStayASmallPath() throws {
        // 10,000 changes between 1 and 2 Mb/s within the first second of 100 s: 10 px, so at
        // most 4 points per x (arrive, lowest, highest, leave) in tenths of a pixel.
        var history = PlaybackHistory(id: "p", begin: 0, keepSpans: true)
        for n in 0..<10_000 { history.setFormat(height: nil, bitrate: 1_000_000 * (1 + n % 2), at: n / 10) }
        let svg = try XCTUnwrap(FormatPlotSVG.render([history], end: 100_000, id: "x"))
        let path = try XCTUnwrap(HTMLTag.scan(svg).first { $0.name == "path" }?["d"])
        XCTAssertLessThanOrEqual(path.split(separator: " ").count / 2, 4 * 100 + 1, path)
        // The last value, 2 Mb/s (the axis' top, y 16), is held to the end.
        XCTAssertTrue(path.hasSuffix("L1140.0 16"), String(path.suffix(40)))
        XCTAssertTrue(svg.contains("; and "), "the title spells out the first changes only")
    }

    func testAnUnknownBitrateIsLeftOut() throws {
        var history = PlaybackHistory(id: "p", begin: 0, keepSpans: true)
        history.setFormat(height: 360, bitrate: nil, at: 0)
        let svg = try XCTUnwrap(FormatPlotSVG.render([history], end: 100_000, id: "x"))
        XCTAssertFalse(svg.contains("bitrate"), svg)
        XCTAssertTrue(svg.contains(">resolution (px)</text>"))
        XCTAssertNil(FormatPlotSVG.render([PlaybackHistory(id: "q", begin: 0, keepSpans: true)], end: 1, id: "y"))
    }
}
