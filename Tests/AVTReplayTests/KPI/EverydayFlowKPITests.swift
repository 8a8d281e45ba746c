import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// Everyday HTML5, AVPlayer and generic flows in all four definition sets, worked by hand:
/// - exoplayer: PlaybackStatsListener (androidx/media, `PlaybackStatsTracker`):
///   `resolveNewPlaybackState` (seeking first, then READY/BUFFERING with playWhenReady),
///   `updatePlaybackState` (a pause on every entry into PAUSED or PAUSED_BUFFERING, a rebuffer on
///   every entry into a buffering state from another), `build` (valid join time), with `isSeeking`
///   kept while the player buffers for the seek (`onEvents`).
/// - mux: startup is the instruction to play → the first frame; seek latency is `seeking` →
///   `playing`; Playing Time leaves rebuffering, seeking and pauses out; Watch Time is watching or
///   attempting to watch (startup included).
/// - cta (CTA-2066): playbackRequested → first playbackStarted; stalls after the start.
/// - openavt: rebuffers counted on BufferBegin in playback, not in pause or seek (OpenAVT-Docs §5.6).
/// In the three non-exoplayer sets the wait from the request to the first frame is startup.
final class EverydayFlowKPITests: XCTestCase {
    private typealias K = KPITestSupport
    private static let html5 = #"[{"name": "p", "kind": "html5"}]"#
    private static let avplayer = #"[{"name": "p", "kind": "avplayer"}]"#
    private static let all: [KPIDefinitions] = [.openavt, .mux, .exoplayer, .cta]

    private func html5(_ events: [(Int, String)]) throws -> SessionKPIs {
        try K.session(
            events.map { K.observe($0.0, #""event": "\#($0.1)""#) }.joined(separator: ","), trackers: Self.html5)
    }

    /// `seeking` 5000, `waiting` 5010, `seeked` 5400, `playing` 10 ms later: the buffering is the
    /// seek's (ExoPlayer keeps `isSeeking` while buffering for it; Mux: seek latency until
    /// `playing`), not a rebuffer. Seeking 5000–5410; playing 900–5000 and 5410–8000.
    func testBufferingAfterAnHTML5SeekIsTheSeek() throws {
        let s = try html5([
            (0, "loadstart"), (100, "play"), (900, "playing"), (5000, "seeking"), (5010, "waiting"),
            (5400, "seeked"), (5410, "playing"), (8000, "ended"),
        ])
        for definitions in Self.all {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["seekCount"], .int(1), "\(definitions)")
            XCTAssertEqual(v["seekTime"], .int(410), "\(definitions)")
            XCTAssertEqual(v["rebufferCount"], .int(0), "\(definitions)")
            XCTAssertEqual(v["rebufferTime"], .int(0), "\(definitions)")
            XCTAssertEqual(v["playTime"], .int(4100 + 2590), "\(definitions)")
        }
        XCTAssertEqual(K.values(s, 0, .mux)["meanSeekLatency"], .int(410))
        // The join, loadstart → playing (exoplayer); play → playing (mux, cta).
        XCTAssertEqual(K.values(s, 0, .exoplayer)["startupTime"], .int(900))
        XCTAssertEqual(K.values(s, 0, .mux)["startupTime"], .int(800))
        XCTAssertEqual(K.values(s, 0, .cta)["startupTime"], .int(800))
    }

    /// SeekBegin 5000, BufferBegin 5100, SeekFinish 5300, BufferFinish 5800 on a generic tracker
    /// is one seek of 800 ms: the buffering began during the seek and ends it.
    func testAGenericSeekWithItsBufferingIsOneSeek() throws {
        let s = try K.session(
            [
                K.step(0, "MediaRequest"), K.step(1000, "Start"), K.step(5000, "SeekBegin"),
                K.step(5100, "BufferBegin"), K.step(5300, "SeekFinish"), K.step(5800, "BufferFinish"),
                K.step(9000, "End"),
            ].joined(separator: ","))
        for definitions in Self.all {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["seekCount"], .int(1), "\(definitions)")
            XCTAssertEqual(v["seekTime"], .int(800), "\(definitions)")
            XCTAssertEqual(v["rebufferCount"], .int(0), "\(definitions)")
            XCTAssertEqual(v["playTime"], .int(4000 + 3200), "\(definitions)")
        }
    }

    /// Click to play: `loadeddata` 500 and `canplay` 600 are data, not a frame; the viewer
    /// clicks at 8000 (`play`) and the first frame comes at 8300 (`playing`).
    func testHTML5ClickToPlay() throws {
        let s = try html5([
            (0, "loadstart"), (500, "loadeddata"), (600, "canplay"), (8000, "play"), (8300, "playing"),
            (20000, "ended"),
        ])
        for definitions in [KPIDefinitions.mux, .cta] {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["startupTime"], .int(300), "play 8000 → playing 8300 (\(definitions))")
            XCTAssertEqual(v["playTime"], .int(11700), "8300–20000 (\(definitions))")
            XCTAssertEqual(v["pauseCount"], .int(0), "waiting for the click is no pause (\(definitions))")
            XCTAssertEqual(v["rebufferCount"], .int(0), "\(definitions)")
            // Join 500, the 300 ms from the click to the frame, play 11700.
            XCTAssertEqual(v["watchTime"], .int(12500), "\(definitions)")
        }
        XCTAssertEqual(K.values(s, 0, .openavt)["playTime"], .int(11700))
        XCTAssertEqual(K.values(s, 0, .openavt)["pauseCount"], .int(0))
        // PlaybackStats: JOINING until READY (loadeddata, 500), PAUSED until the play request,
        // then PLAYING (READY and playWhenReady) from 8000: one pause, a join of 500.
        let exo = K.values(s, 0, .exoplayer)
        XCTAssertEqual(exo["startupTime"], .int(500))
        XCTAssertEqual(exo["playTime"], .int(12000))
        XCTAssertEqual(exo["pauseCount"], .int(1))
        XCTAssertEqual(exo["pauseTime"], .int(7500))
    }

    /// `play`, `waiting`, `playing` after `canplay`: to Mux and CTA the stall is startup, not a
    /// rebuffer; to PlaybackStats it is BUFFERING after PAUSED, a rebuffer.
    func testHTML5PlayThenWaitingBeforeTheFirstFrame() throws {
        let s = try html5([
            (0, "loadstart"), (500, "canplay"), (8000, "play"), (8100, "waiting"), (8600, "playing"), (20000, "ended"),
        ])
        for definitions in [KPIDefinitions.openavt, .mux, .cta] {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["rebufferCount"], .int(0), "\(definitions)")
            XCTAssertEqual(v["rebufferTime"], .int(0), "\(definitions)")
            XCTAssertEqual(v["playTime"], .int(11400), "8600–20000 (\(definitions))")
        }
        XCTAssertEqual(K.values(s, 0, .mux)["startupTime"], .int(600))
        XCTAssertEqual(K.values(s, 0, .cta)["startupTime"], .int(600))
        XCTAssertEqual(K.values(s, 0, .mux)["watchTime"], .int(500 + 600 + 11400))
        let exo = K.values(s, 0, .exoplayer)
        XCTAssertEqual(exo["rebufferCount"], .int(1))
        XCTAssertEqual(exo["rebufferTime"], .int(500))
        XCTAssertEqual(exo["playTime"], .int(100 + 11400))
    }

    /// AVPlayer: ready at 0, likely to keep up at 200 (paused, waiting for play), `rate 1` at 3000
    /// while it waits to play, `playing` at 3800. No rebuffer before the first frame in the mux,
    /// cta and openavt sets; PlaybackStats counts BUFFERING after PAUSED as one.
    func testNoRebufferBeforeTheFirstAVPlayerFrame() throws {
        let s = try K.session(
            [
                K.observe(0, #""status": "readyToPlay""#), K.observe(200, #""playbackLikelyToKeepUp": true"#),
                K.observe(3000, #""rate": 1, "timeControlStatus": "waitingToPlayAtSpecifiedRate""#),
                K.observe(3800, #""timeControlStatus": "playing""#), K.observe(10000, #""volume": 1"#),
            ].joined(separator: ","), trackers: Self.avplayer)
        for definitions in [KPIDefinitions.openavt, .mux, .cta] {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["rebufferCount"], .int(0), "\(definitions)")
            XCTAssertEqual(v["rebufferTime"], .int(0), "\(definitions)")
            XCTAssertEqual(v["playTime"], .int(6200), "\(definitions)")
        }
        XCTAssertEqual(K.values(s, 0, .mux)["startupTime"], .int(800), "rate 1 at 3000 → playing 3800")
        XCTAssertEqual(K.values(s, 0, .cta)["startupTime"], .int(800))
        let exo = K.values(s, 0, .exoplayer)
        XCTAssertEqual(exo["rebufferCount"], .int(1))
        XCTAssertEqual(exo["rebufferTime"], .int(800))
        XCTAssertEqual(exo["startupTime"], .int(200), "JOINING until READY at 200")
    }

    /// A playlist: the page loads the next item as one ends and plays it (an element that ended
    /// is paused, so each item has its `play`). Each `loadstart` after an item ended is the next
    /// item's join, until `playing` (600 and 400 ms), in every set.
    func testEachHTML5PlaylistItemHasItsJoin() throws {
        let s = try html5([
            (0, "loadstart"), (10, "play"), (500, "playing"), (5000, "ended"), (5050, "loadstart"), (5050, "play"),
            (5650, "playing"), (9000, "ended"), (9000, "loadstart"), (9000, "play"), (9400, "playing"),
            (12000, "ended"),
        ])
        XCTAssertEqual(s.playbackIds.count, 3)
        for (n, join) in [(1, 600), (2, 400)] {
            let exo = K.values(s, n, .exoplayer)
            XCTAssertEqual(exo["startupTime"], .int(join), "item \(n + 1)")
            XCTAssertEqual(exo["waitTime"], .int(join), "item \(n + 1)")
            XCTAssertEqual(exo["bufferTime"], .int(join), "item \(n + 1)")
            for definitions in [KPIDefinitions.openavt, .mux, .cta] {
                XCTAssertEqual(K.values(s, n, definitions)["bufferTime"], .int(join), "item \(n + 1) \(definitions)")
            }
            XCTAssertEqual(K.values(s, n, .mux)["startupTime"], .int(join), "item \(n + 1)")
            XCTAssertEqual(K.values(s, n, .cta)["startupTime"], .int(join), "item \(n + 1)")
        }
        for definitions in Self.all {
            XCTAssertEqual(K.values(s, 0, definitions)["ended"], .bool(true), "\(definitions)")
            XCTAssertEqual(K.values(s, 0, definitions)["abandoned"], .bool(false), "\(definitions)")
        }
    }

    /// fixtures/avplayer-session.json pauses at 70000, seeks while paused at 78000 (`timeJumped`;
    /// the tracker's SeekFinish comes at 80000 when it plays) and plays at 80000. Seeking takes
    /// precedence over paused (`resolveNewPlaybackState`): a seek of 2000 ms in every set.
    /// PlaybackStats also counts the PAUSED at 700, before the first play, as a pause.
    func testAnAVPlayerSeekWhilePausedLastsUntilItPlays() throws {
        let path = CSVTestSupport.packageRoot.appendingPathComponent("fixtures/avplayer-session.json").path
        let s = try KPISessions.replay(path)
        for definitions in Self.all {
            let v = K.values(s, 0, definitions)
            XCTAssertEqual(v["seekCount"], .int(1), "\(definitions)")
            XCTAssertEqual(v["seekTime"], .int(2000), "\(definitions)")
            XCTAssertEqual(v["pauseTime"], .int(500 + 8000), "\(definitions)")
            XCTAssertEqual(v["pauseCount"], .int(definitions == .exoplayer ? 2 : 1), "\(definitions)")
        }
        XCTAssertEqual(K.values(s, 0, .mux)["meanSeekLatency"], .int(2000))
    }

    /// A playback that ended and was then stopped is ended, not also abandoned.
    func testAnEndedPlaybackIsNotAlsoAbandoned() throws {
        let s = try K.session(
            [K.step(0, "MediaRequest"), K.step(1000, "Start"), K.step(5000, "End"), K.step(6000, "Stop")]
                .joined(separator: ","))
        for definitions in Self.all {
            XCTAssertEqual(K.values(s, 0, definitions)["ended"], .bool(true), "\(definitions)")
            XCTAssertEqual(K.values(s, 0, definitions)["abandoned"], .bool(false), "\(definitions)")
        }
    }
}
