import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// Everyday flows on the AVPlayer and HTML5 trackers, worked by hand from the published
/// definitions (Mux startup: play instruction → first frame with the playhead moving;
/// PlaybackStats for the state accounting).
final class PlayerFlowKPITests: XCTestCase {
    private func observe(_ t: Int, _ o: String) -> String { KPITestSupport.observe(t, o) }

    /// AVPlayer's usual play(): the item is ready at 0, play() at 50 sets rate 1 while
    /// timeControlStatus waits to play, `playing` comes 1.2 s later. A stall at 30000 ends in
    /// `itemStatus: failed` at 32000; the recording goes on to 66000 (pings every 30 s).
    func testAVPlayerPlayThenAStallThatFails() throws {
        let s = try KPITestSupport.session(
            [
                observe(0, #""status": "readyToPlay""#),
                observe(50, #""rate": 1, "timeControlStatus": "waitingToPlayAtSpecifiedRate""#),
                observe(1250, #""timeControlStatus": "playing""#),
                observe(30000, #""timeControlStatus": "waitingToPlayAtSpecifiedRate""#),
                observe(32000, #""itemStatus": "failed""#), observe(66000, #""volume": 1"#),
            ].joined(separator: ","), trackers: #"[{"name": "p", "kind": "avplayer"}]"#)
        // OpenAVT measures from the tracker's StreamLoad (readyToPlay at 0): 1250.
        XCTAssertEqual(KPITestSupport.values(s, 0, .openavt)["startupTime"], .int(1250))
        for definitions in [KPIDefinitions.mux, .cta, .openavt] {
            let v = KPITestSupport.values(s, 0, definitions)
            if definitions != .openavt {
                XCTAssertEqual(v["startupTime"], .int(1200), "play() at 50 → playing at 1250 (\(definitions))")
            }
            XCTAssertEqual(v["rebufferCount"], .int(1), "the join is not a rebuffer; the stall is")
            XCTAssertEqual(v["rebufferTime"], .int(2000))
            XCTAssertEqual(v["playTime"], .int(28750), "1250–30000, nothing after the failure")
            XCTAssertEqual(v["playbackFailed"], .bool(true))
        }
        // PlaybackStats' join: from loading (ready-to-play item, BUFFERING) to READY.
        XCTAssertEqual(KPITestSupport.values(s, 0, .exoplayer)["startupTime"], .int(1250))
        // The tracker's Start went out at play() (rate 1): the dashboard's StartTime is 50.
        XCTAssertEqual(KPITestSupport.values(s)["startTimeMetric"], .int(50))
    }

    /// HTML5: loadstart 0, play 100, playing 900, waiting 5000–6000, pause 8000, seeking
    /// 8500–9000 while paused, play/playing 10000, ended 12000. Dropped frames 2 then 5 in total.
    func testHTML5PlaybackWithAPausedSeek() throws {
        let s = try KPITestSupport.session(
            [
                observe(0, #""event": "loadstart""#), observe(100, #""event": "play""#),
                observe(900, #""event": "playing", "droppedVideoFrames": 2"#), observe(5000, #""event": "waiting""#),
                observe(6000, #""event": "playing""#), observe(8000, #""event": "pause""#),
                observe(8500, #""event": "seeking""#), observe(9000, #""event": "seeked""#),
                observe(10000, #""event": "playing", "droppedVideoFrames": 5"#), observe(12000, #""event": "ended""#),
            ].joined(separator: ","), trackers: #"[{"name": "p", "kind": "html5"}]"#)
        let v = KPITestSupport.values(s, 0, .mux)
        XCTAssertEqual(v["startupTime"], .int(800), "play 100 → playing 900")
        XCTAssertEqual(v["playTime"], .int(4100 + 2000 + 2000))
        XCTAssertEqual(v["rebufferTime"], .int(1000))
        XCTAssertEqual(v["seekTime"], .int(500))
        XCTAssertEqual(v["pauseTime"], .int(500 + 1000))
        XCTAssertEqual(v["droppedFrames"], .int(5))
        XCTAssertEqual(KPITestSupport.values(s, 0, .exoplayer)["startupTime"], .int(900), "loadstart → playing")
    }

    /// A new `source` after the first item played is a new item: a new playback with its own
    /// startup (play() 5050 → playing 5400).
    func testANewAVPlayerSourceIsANewPlayback() throws {
        let s = try KPITestSupport.session(
            [
                observe(0, #""source": "a.m3u8", "status": "readyToPlay""#),
                observe(10, #""rate": 1, "timeControlStatus": "playing""#),
                observe(4000, #""notification": "didPlayToEndTime", "rate": 0, "timeControlStatus": "paused""#),
                observe(5000, #""source": "b.m3u8""#),
                observe(5050, #""rate": 1, "timeControlStatus": "waitingToPlayAtSpecifiedRate""#),
                observe(5400, #""timeControlStatus": "playing""#), observe(9400, #""volume": 1"#),
            ].joined(separator: ","), trackers: #"[{"name": "p", "kind": "avplayer"}]"#)
        XCTAssertEqual(s.playbackIds.count, 2)
        XCTAssertEqual(KPITestSupport.values(s, 0, .mux)["playTime"], .int(3990))
        XCTAssertEqual(KPITestSupport.values(s, 0, .mux)["ended"], .bool(true))
        XCTAssertEqual(KPITestSupport.values(s, 1, .mux)["startupTime"], .int(350))
        XCTAssertEqual(KPITestSupport.values(s, 1, .mux)["playTime"], .int(4000))
    }

    /// HTML5: a new `currentSrc` after the first video played is a new playback.
    func testANewHTML5SourceIsANewPlayback() throws {
        let s = try KPITestSupport.session(
            [
                observe(0, #""currentSrc": "a.mp4", "event": "loadstart""#), observe(100, #""event": "play""#),
                observe(600, #""event": "playing""#), observe(3000, #""event": "ended""#),
                observe(4000, #""currentSrc": "b.mp4", "event": "loadstart""#), observe(4100, #""event": "play""#),
                observe(4300, #""event": "playing""#), observe(5300, #""event": "pause""#),
            ].joined(separator: ","), trackers: #"[{"name": "p", "kind": "html5"}]"#)
        XCTAssertEqual(s.playbackIds.count, 2)
        XCTAssertEqual(KPITestSupport.values(s, 0, .cta)["startupTime"], .int(500))
        XCTAssertEqual(KPITestSupport.values(s, 1, .cta)["startupTime"], .int(200))
        XCTAssertEqual(KPITestSupport.values(s, 1, .cta)["playTime"], .int(1000))
    }
}
