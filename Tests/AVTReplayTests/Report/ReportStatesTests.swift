import XCTest

@testable import AVTAnalysis

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

    func testAFailingLaneWithHundredsOfErrorsStaysOneTickPerPixel() {
        // 500 errors 1 ms apart on a 100 s axis (100 ms a pixel) fall on 5 pixels: 5 ticks of
        // 100 errors each.
        var history = PlaybackHistory(id: "p", begin: 0, keepSpans: true)
        for t in 0..<500 { history.fatalError(at: 10_000 + t) }
        let svg = StateLanesSVG.render([history], end: 100_000, id: "x")
        let ticks = HTMLTag.scan(svg).filter { $0.name == "rect" && $0.classes.contains("st-err") }
        XCTAssertEqual(ticks.count, 5)
        XCTAssertEqual(ticks[0]["aria-label"], "100 fatal errors from 00:10.000 to 00:10.099")
        XCTAssertEqual(ticks[4]["aria-label"], "100 fatal errors from 00:10.400 to 00:10.499")
    }

    func testTheFormatPlotStepsThroughTheBitrates() throws {
        var history = PlaybackHistory(id: "p", begin: 0, keepSpans: true)
        history.setFormat(height: 360, bitrate: 1_000_000, at: 0)
        history.setFormat(height: 720, bitrate: 3_000_000, at: 50_000)
        let svg = try XCTUnwrap(FormatPlotSVG.render([history], end: 100_000, id: "x"))
        // Bitrate: 1 of 3 Mb/s (y 100 − 90/3 = 70) from x 140 to 640, then 3 Mb/s (y 10) to 1140.
        XCTAssertTrue(svg.contains("d=\"M140.0 70 L640.0 70 L640.0 10 L1140.0 10\" data-series=\"bitrate\""), svg)
        XCTAssertTrue(svg.contains("bitrate ≤ 3.00 Mb/s"))
        XCTAssertTrue(svg.contains("height ≤ 720 px"))
    }
}
