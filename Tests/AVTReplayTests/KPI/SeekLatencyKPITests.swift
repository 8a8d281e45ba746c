import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// Mux's seek latency (mux set, `meanSeekLatency`), worked by hand: the time from `seeking` until
/// the player is `playing` again (issue 29: "Mux's seek latency (`seeking` to `playing`)"), so the
/// buffering after a seek is part of the viewer's wait, as Bitmovin's seek time also puts it:
/// "the duration a user has to wait after seeking until playback continues"
/// (bitmovin.com/docs/analytics/tutorials/measuring-seek-times). `meanSeekTime` stays
/// PlaybackStats' time in SEEKING only (`getMeanSingleSeekTimeMs`).
final class SeekLatencyKPITests: XCTestCase {
    private typealias K = KPITestSupport

    func testSeekLatencyRunsFromSeekingToPlayingThroughTheBufferingAfterIt() throws {
        // First frame 1000. Seek 1: SeekBegin 5000, SeekFinish 5300 with the buffer open
        // (5100–5800): the buffering is the seek's (ExoPlayer keeps `isSeeking` while the player
        // buffers for it, PlaybackStatsListener.onEvents), so seeking 5000–5800, playing at 5800:
        // a wait of 800. Seek 2: SeekBegin 10000, SeekFinish 10200, playing at once: 200. Seek 3
        // happens while paused (13000–13400; PauseFinish 15000): the viewer chose to wait, not
        // the player, so it has no latency. Mean: (800 + 200) ÷ 2 = 500.
        // Seek time (SEEKING): 800 + 200 + 400 = 1400 over 3 seeks = 466.7, 467 rounded.
        let s = try K.session(
            [
                K.step(0, "MediaRequest"), K.step(1000, "Start"), K.step(5000, "SeekBegin"),
                K.step(5100, "BufferBegin"), K.step(5300, "SeekFinish"), K.step(5800, "BufferFinish"),
                K.step(10000, "SeekBegin"), K.step(10200, "SeekFinish"), K.step(12000, "PauseBegin"),
                K.step(13000, "SeekBegin"), K.step(13400, "SeekFinish"), K.step(15000, "PauseFinish"),
                K.step(20000, "End"),
            ].joined(separator: ","))
        let mux = K.values(s, 0, .mux)
        XCTAssertEqual(mux["meanSeekLatency"], .int(500))
        XCTAssertEqual(mux["seekCount"], .int(3))
        XCTAssertEqual(mux["meanSeekTime"], .int(467))
        for definitions in [KPIDefinitions.openavt, .exoplayer, .cta] {
            XCTAssertNil(K.values(s, 0, definitions)["meanSeekLatency"], "Mux's metric: \(definitions)")
        }
    }

    func testHTML5SeekWithWaitingBeforeSeekedWaitsUntilPlaying() throws {
        // The HTML5 flow issue 29 describes: `seeking` 5000, `waiting` 5010, `seeked` 5400,
        // `playing` 10 ms later (5410). From seeking to playing: 410, whatever the states between
        // them are called.
        let observe = { (t: Int, event: String) in KPITestSupport.observe(t, #""event": "\#(event)""#) }
        let s = try K.session(
            [
                observe(0, "loadstart"), observe(100, "play"), observe(900, "playing"), observe(5000, "seeking"),
                observe(5010, "waiting"), observe(5400, "seeked"), observe(5410, "playing"), observe(8000, "ended"),
            ].joined(separator: ","), trackers: #"[{"name": "p", "kind": "html5"}]"#)
        XCTAssertEqual(K.values(s, 0, .mux)["meanSeekLatency"], .int(410))
    }

    func testScrubbingIsOneWaitAndThePooledMeanDividesTheSums() throws {
        // Two seeks in a row before playing again (5000 and 5400; the buffer opened at 5100 stays
        // open until 6000, so the player buffers between them and plays at 6000) are one wait of
        // 1000: the viewer waited from the first seek. A second session waits 400 (SeekBegin
        // 3000, SeekFinish 3400). Pooled: (1000 + 400) ÷ 2 = 700.
        let scrub = try K.session(
            [
                K.step(0, "MediaRequest"), K.step(1000, "Start"), K.step(5000, "SeekBegin"),
                K.step(5100, "BufferBegin"), K.step(5200, "SeekFinish"), K.step(5400, "SeekBegin"),
                K.step(5600, "SeekFinish"), K.step(6000, "BufferFinish"), K.step(9000, "End"),
            ].joined(separator: ","))
        XCTAssertEqual(K.values(scrub, 0, .mux)["meanSeekLatency"], .int(1000))
        let single = try K.session(
            [
                K.step(0, "MediaRequest"), K.step(1000, "Start"), K.step(3000, "SeekBegin"),
                K.step(3400, "SeekFinish"), K.step(9000, "End"),
            ].joined(separator: ","))
        let pooled = KPIAggregate.pooled([scrub, single], definitions: .mux)
        XCTAssertEqual(pooled[name: "meanSeekLatency"], .int(700))
    }
}
