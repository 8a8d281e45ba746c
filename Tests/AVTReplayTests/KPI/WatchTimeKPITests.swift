import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// `watchTime` in the mux and cta sets, worked by hand from the published definitions
/// (/work/shared/spec/field-reference.md): Mux Watch Time is "time watching or attempting to
/// watch (playing, rebuffering, seeking…)" and the denominator of the Rebuffer Percentage
/// (`view_rebuffer_duration / view_watch_time`, "Time / engagement" and "Rebuffering" tables);
/// it includes startup, seek and rebuffer (§1.7 item 3) and ad playing time (Mux Playing Time:
/// "content or ads playing"), not pauses (§1.7 item 9). CTA-2066's watched time is the time
/// from playbackRequest to the next pause, finish or fail (WG#9, field-reference.md "watchedTime").
final class WatchTimeKPITests: XCTestCase {
    private typealias K = KPITestSupport
    private static let adsTrackers = #"[{"name": "c"}, {"name": "ads", "isAdsTracker": true}]"#

    /// Request 0, first frame 1000, a rebuffer 5000–6000, a seek while playing 8000–8500, a pause
    /// 10000–14000, End 20000.
    private func playbackWithPause() throws -> SessionKPIs {
        try K.session(
            [
                K.step(0, "MediaRequest"), K.step(100, "StreamLoad"), K.step(1000, "Start"),
                K.step(5000, "BufferBegin"), K.step(6000, "BufferFinish"), K.step(8000, "SeekBegin"),
                K.step(8500, "SeekFinish"), K.step(10000, "PauseBegin"), K.step(14000, "PauseFinish"),
                K.step(20000, "End"),
            ].joined(separator: ","))
    }

    /// Request 0, an ad break 50–5200 whose one ad plays 100–5100, first content frame 5500,
    /// End 8000.
    private func prerollPlayback() throws -> SessionKPIs {
        try K.session(
            [
                K.step(0, "MediaRequest"), K.step(0, "StreamLoad"), K.step(50, "AdBreakBegin", "ads"),
                K.step(100, "AdBegin", "ads"), K.step(5100, "AdFinish", "ads"), K.step(5200, "AdBreakFinish", "ads"),
                K.step(5500, "Start"), K.step(8000, "End"),
            ].joined(separator: ","), trackers: Self.adsTrackers)
    }

    func testWatchTimeIsStartupPlayRebufferAndSeekWithoutPauses() throws {
        // Mux: startup 0–1000 (1000) + playing 1000–5000, 6000–8000, 8500–10000, 14000–20000
        // (4000 + 2000 + 1500 + 6000 = 13500) + rebuffering 1000 + seeking 500 = 16000; the
        // pause 10000–14000 is not watched.
        // CTA: request 0 → pause 10000 (10000) + resume 14000 → finish 20000 (6000) = 16000.
        let s = try playbackWithPause()
        for definitions in [KPIDefinitions.mux, .cta] {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["watchTime"], .int(16000), "\(definitions)")
            // Rebuffer Percentage = rebuffer duration ÷ watch time: 1000 ÷ 16000.
            XCTAssertEqual(v["rebufferRatio"], .double(1000.0 / 16000.0), "\(definitions)")
            // Rebuffer frequency per minute of watch time: 1 × 60000 ÷ 16000.
            XCTAssertEqual(v["rebufferFrequency"], .double(60000.0 / 16000.0), "\(definitions)")
        }
    }

    func testWatchTimeHoldsTheWholeAdBreakWithItsGaps() throws {
        // Mux counts ads as playing time, and the break's gaps (50–100 before the ad, 5100–5200
        // after it) are time the viewer is attempting to watch: joining 0–50 + ad break 50–5200
        // (5150) + joining 5200–5500 (300) + playing 5500–8000 (2500) = 8000, more than the
        // 5000 ms of ad (adTime). CTA: request 0 → finish 8000, no pause: 8000.
        let s = try prerollPlayback()
        for definitions in [KPIDefinitions.mux, .cta] {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["watchTime"], .int(8000), "\(definitions)")
            XCTAssertEqual(v["adTime"], .int(5000), "\(definitions)")
        }
    }

    func testOnlyTheMuxAndCTASetsHaveAWatchTime() throws {
        // OpenAVT and PlaybackStats define no watch time: their ratios are over play + rebuffer
        // and play + wait (getRebufferTimeRatio).
        let s = try playbackWithPause()
        XCTAssertNil(K.values(s, 0, .openavt)["watchTime"])
        XCTAssertNil(K.values(s, 0, .exoplayer)["watchTime"])
    }

    func testPooledWatchTimeIsTheSumAndThePooledRatioDividesTheSums() throws {
        // Mux aggregates a ratio over views as Σ rebuffer ÷ Σ watch time (docs/kpi.md
        // --aggregate; Rebuffer Percentage over view_watch_time): watch 16000 + 8000 = 24000,
        // rebuffer 1000 + 0 = 1000, so 1000 ÷ 24000, not the mean of 1/16 and 0.
        let sessions = [try playbackWithPause(), try prerollPlayback()]
        for definitions in [KPIDefinitions.mux, .cta] {
            let pooled = KPIAggregate.pooled(sessions, definitions: definitions)
            XCTAssertEqual(pooled[name: "watchTime"], .int(24000), "\(definitions)")
            XCTAssertEqual(pooled[name: "rebufferTime"], .int(1000), "\(definitions)")
            XCTAssertEqual(pooled[name: "rebufferRatio"], .double(1000.0 / 24000.0), "\(definitions)")
        }
    }
}
