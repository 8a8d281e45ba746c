import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// `--definitions exoplayer` against PlaybackStats (androidx/media
/// libraries/exoplayer/src/main/java/androidx/media3/exoplayer/analytics/PlaybackStats.java and
/// PlaybackStatsListener.java). Each expected value is worked by hand from the method named in
/// the comment, on an `exoplayer` tracker's observations.
final class ExoPlayerDefinitionsTests: XCTestCase {
    private let exo = #"[{"name": "p", "kind": "exoplayer"}]"#
    private func session(_ steps: [String]) throws -> SessionKPIs {
        try KPITestSupport.session(steps.joined(separator: ","), trackers: exo)
    }
    private func v(_ s: SessionKPIs, _ d: KPIDefinitions = .exoplayer) -> [String: KPIValue] {
        KPITestSupport.values(s, 0, d)
    }
    private let observe = { (t: Int, o: String) in KPITestSupport.observe(t, o) }

    /// prepare() at 0, play() at 500, READY at 1500, a stall 20000–23000, ENDED at 60000.
    func testPrepareThenPlayJoinsUntilReadyAndStallsOnceAfter() throws {
        let s = try session([
            observe(0, #""playbackState": "BUFFERING""#), observe(500, #""playWhenReady": true"#),
            observe(1500, #""playbackState": "READY""#), observe(20000, #""playbackState": "BUFFERING""#),
            observe(23000, #""playbackState": "READY""#), observe(60000, #""playbackState": "ENDED""#),
        ])
        let e = v(s)
        // resolveNewPlaybackState: BUFFERING from NOT_STARTED is JOINING_FOREGROUND whatever
        // playWhenReady; READY with playWhenReady is PLAYING. getMeanJoinTimeMs = 1500.
        XCTAssertEqual(e["startupTime"], .int(1500))
        // BUFFERING from PLAYING is a rebuffer (isRebufferingState); getTotalRebufferTimeMs = 3000.
        XCTAssertEqual(e["rebufferCount"], .int(1))
        XCTAssertEqual(e["rebufferTime"], .int(3000))
        XCTAssertEqual(e["maxRebufferTime"], .int(3000))
        XCTAssertEqual(e["meanRebufferTime"], .int(3000))
        // getTotalPlayTimeMs: 1500–20000 and 23000–60000 = 18500 + 37000.
        XCTAssertEqual(e["playTime"], .int(55_500))
        // getTotalWaitTimeMs = join + rebuffer + seek = 4500; getRebufferTimeRatio = 3000 / 60000.
        XCTAssertEqual(e["waitTime"], .int(4500))
        XCTAssertEqual(e["rebufferRatio"], .double(0.05))
        // getRebufferRate is per play-second; we give it per minute: 1 × 60000 / 55500.
        XCTAssertEqual(e["rebufferFrequency"], .double(60_000.0 / 55_500.0))
        XCTAssertEqual(e["ended"], .bool(true))
        XCTAssertEqual(e["exitBeforeVideoStart"], .bool(false))
        // Mux: from play() (500) to the first frame (1500).
        XCTAssertEqual(v(s, .mux)["startupTime"], .int(1000))
        XCTAssertEqual(v(s, .cta)["startupTime"], .int(1000))
        XCTAssertEqual(v(s, .mux)["rebufferCount"], .int(1))
    }

    /// A pause during the join: the join runs on (BUFFERING from a joining state stays
    /// JOINING_FOREGROUND), READY while paused is PAUSED and ends a valid join.
    func testAPauseDuringTheJoinIsJoinThenPausedNotPlay() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playWhenReady": false"#), observe(3000, #""playbackState": "READY""#),
            observe(5000, #""playWhenReady": true"#), observe(9000, #""playbackState": "ENDED""#),
        ])
        let e = v(s)
        XCTAssertEqual(e["startupTime"], .int(3000), "join 0–3000, the paused part included")
        XCTAssertEqual(e["pauseTime"], .int(2000), "getTotalPausedTimeMs: PAUSED 3000–5000")
        XCTAssertEqual(e["pauseCount"], .int(1))
        XCTAssertEqual(e["playTime"], .int(4000))
        XCTAssertEqual(e["started"], .bool(true), "hasBeenReady")
        // Mux and CTA: request 0, first frame (playing) at 5000.
        XCTAssertEqual(v(s, .mux)["startupTime"], .int(5000))
    }

    /// A seek during the join makes it invalid (isInvalidJoinTransition: JOINING → SEEKING):
    /// no mean join time, but getTotalWaitTimeMs and the rebuffer ratio still count it.
    func testASeekDuringTheJoinInvalidatesItButTheRatioCountsIt() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""seekStarted": true"#), observe(1500, #""playbackState": "READY""#),
            observe(5000, #""playbackState": "ENDED""#),
        ])
        let e = v(s)
        XCTAssertNil(e["startupTime"], "validJoinTimeCount = 0")
        XCTAssertEqual(e["seekCount"], .int(1))
        XCTAssertEqual(e["seekTime"], .int(500))
        XCTAssertEqual(e["meanSeekTime"], .int(500), "getMeanSingleSeekTimeMs")
        XCTAssertEqual(e["waitTime"], .int(1500), "join 1000 + seek 500")
        XCTAssertEqual(e["playTime"], .int(3500))
        XCTAssertEqual(e["rebufferRatio"], .double(0), "getRebufferTimeRatio: 0 / 5000, present")
    }

    /// A playback that never gets READY: the ratio is 0.0 (empty play-and-wait time is 0.0 in
    /// getRebufferTimeRatio), abandonedBeforeReadyCount counts it.
    func testNeverReadyIsAnExitAndTheRatioIsZero() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(4000, #""playbackState": "IDLE", "stop": true"#),
        ])
        let e = v(s)
        XCTAssertEqual(e["exitBeforeVideoStart"], .bool(true))
        XCTAssertEqual(e["abandoned"], .bool(true), "IDLE after a start is STOPPED")
        XCTAssertEqual(e["waitTime"], .int(4000))
        XCTAssertEqual(e["rebufferRatio"], .double(0))
        XCTAssertEqual(e["rebufferFrequency"], .double(0), "getRebufferRate: no play time → 0")
    }

    /// An error moves the playback to FAILED: play time stops there, however long the
    /// recording goes on (pings at 30000 and 60000 add nothing).
    func testAnErrorEndsPlayTimeAndFailsThePlayback() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#),
            observe(5000, #""playerError": "boom", "playbackState": "IDLE""#), observe(65000, #""volume": 1"#),
        ])
        let e = v(s)
        XCTAssertEqual(e["playTime"], .int(4000))
        XCTAssertEqual(e["playbackFailed"], .bool(true), "fatalErrorPlaybackCount")
        XCTAssertEqual(e["fatalErrorCount"], .int(1))
        XCTAssertEqual(v(s, .cta)["playbackFailed"], .bool(true), "it ended in the failure")
    }

    /// A stop is STOPPED, not a failure, and ends the play time too.
    func testAStopIsNotAFailure() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(6000, #""stop": true, "playbackState": "IDLE""#),
            observe(20000, #""volume": 1"#),
        ])
        let e = v(s)
        XCTAssertEqual(e["playTime"], .int(5000))
        XCTAssertEqual(e["playbackFailed"], .bool(false))
        XCTAssertEqual(e["abandoned"], .bool(true))
        XCTAssertEqual(e["ended"], .bool(false))
    }

    /// Play time runs to the end of the recording when the timeline just ends while playing
    /// (`build(isFinal: false)` closes the open state at "now").
    func testPlayTimeRunsToTheEndOfTheRecording() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(9000, #""volume": 0.5"#),
        ])
        XCTAssertEqual(v(s)["playTime"], .int(8000))
    }

    /// A seek while paused is SEEKING (seeking wins in resolveNewPlaybackState), then PAUSED
    /// again: two pauses (entering PAUSED from PLAYING, then from SEEKING).
    func testASeekWhilePausedIsSeekTimeNotPauseTime() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(3000, #""playWhenReady": false"#),
            observe(4000, #""seekStarted": true"#), observe(4600, #""playbackState": "READY""#),
            observe(6000, #""playWhenReady": true"#), observe(8000, #""playbackState": "ENDED""#),
        ])
        let e = v(s)
        XCTAssertEqual(e["seekTime"], .int(600))
        XCTAssertEqual(e["pauseTime"], .int(2400), "3000–4000 and 4600–6000")
        XCTAssertEqual(e["pauseCount"], .int(2))
        XCTAssertEqual(e["playTime"], .int(4000))
        XCTAssertEqual(e["rebufferCount"], .int(0), "the seek's buffering is SEEKING")
    }

    /// getMeanVideoFormatHeight divides longs: (720 × 1000 + 1081 × 2000) / 3000 = 960.67 → 960;
    /// the other sets round to 961.
    func testMeanVideoHeightIsAnIntegerDivision() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY", "downstreamFormat": {"width": 1280, "height": 720}"#),
            observe(2000, #""downstreamFormat": {"width": 1922, "height": 1081}"#),
            observe(4000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(v(s)["averageResolutionHeight"], .int(960))
        XCTAssertEqual(v(s)["initialVideoHeight"], .int(720))
        XCTAssertEqual(v(s, .mux)["averageResolutionHeight"], .int(961))
    }

    /// The downstream format's bitrate, weighted by time PLAYING (maybeRecordVideoFormatTime):
    /// (1,000,000 × 3000 + 3,000,000 × 1000) / 4000 = 1,500,000.
    func testMeanBitrateFromTheDownstreamFormat() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(0, #""downstreamFormat": {"bitrate": 1000000}"#),
            observe(1000, #""playbackState": "READY""#), observe(4000, #""downstreamFormat": {"bitrate": 3000000}"#),
            observe(5000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(v(s)["averageBitrate"], .int(1_500_000))
        XCTAssertEqual(v(s)["initialVideoBitrate"], .int(1_000_000))
    }

    /// A replay after ENDED: a seek from ENDED (masked to BUFFERING) is SEEKING, READY plays
    /// again; the play time after it counts, in the same playback.
    func testAReplayAfterEndedKeepsItsPlayTime() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(5000, #""playbackState": "ENDED""#),
            observe(7000, #""seekStarted": true"#), observe(7500, #""playbackState": "READY""#),
            observe(10000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(s.playbackIds.count, 1)
        XCTAssertEqual(v(s)["playTime"], .int(6500), "4000 + 2500")
        XCTAssertEqual(v(s)["seekCount"], .int(1))
    }

    /// Suppression: READY with playWhenReady while suppressed is SUPPRESSED, not play time.
    func testSuppressedTimeIsNotPlayTime() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#),
            observe(3000, #""playbackSuppressionReason": "TRANSIENT_AUDIO_FOCUS_LOSS""#),
            observe(4000, #""playbackSuppressionReason": "NONE""#), observe(6000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(v(s)["playTime"], .int(4000))
        XCTAssertEqual(v(s)["started"], .bool(true))
    }

    /// A media item transition is a new playback; an automatic one ends the previous (ENDED),
    /// and the new item READY at once has a join of 0.
    func testAMediaItemTransitionIsANewPlayback() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(5000, #""mediaItemTransition": "AUTO""#),
            observe(8000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(s.playbackIds.count, 2)
        XCTAssertEqual(KPITestSupport.values(s, 0, .exoplayer)["ended"], .bool(true))
        XCTAssertEqual(KPITestSupport.values(s, 0, .exoplayer)["playTime"], .int(4000))
        XCTAssertEqual(KPITestSupport.values(s, 1, .exoplayer)["playTime"], .int(3000))
        XCTAssertEqual(KPITestSupport.values(s, 1, .exoplayer)["startupTime"], .int(0))
    }

    /// The first item set before prepare() is the first playback, not an empty one before it
    /// (PlaybackStatsListener makes a session per item that reaches the player, and this one is
    /// the one that plays): one playback, joined 0–1000, played 1000–4000, ended.
    func testAMediaItemSetBeforeAnythingHappensIsTheFirstPlayback() throws {
        let s = try session([
            observe(0, #""mediaItemTransition": "PLAYLIST_CHANGED""#),
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(4000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(s.playbackIds.count, 1)
        XCTAssertEqual(v(s)["startupTime"], .int(1000))
        XCTAssertEqual(v(s)["playTime"], .int(3000))
        XCTAssertEqual(v(s)["ended"], .bool(true))
        XCTAssertEqual(v(s)["abandoned"], .bool(false))
        XCTAssertEqual(v(s)["exitBeforeVideoStart"], .bool(false))
    }

    /// Dropped frames and load errors (non-fatal) add up per playback.
    func testDroppedFramesAndNonFatalErrors() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY", "droppedFrames": 3"#),
            observe(2000, #""droppedFrames": 4, "loadError": "timeout""#), observe(3000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(v(s)["droppedFrames"], .int(7))
        XCTAssertEqual(v(s)["nonFatalErrorCount"], .int(1))
        XCTAssertEqual(v(s)["fatalErrorCount"], .int(0))
        XCTAssertEqual(v(s)["playbackFailed"], .bool(false))
    }

    /// An error during the join invalidates it (JOINING → FAILED); prepared again, BUFFERING
    /// from FAILED is a rebuffer, not a join (resolveNewPlaybackState).
    func testAnErrorDuringTheJoinInvalidatesItAndTheRetryIsARebuffer() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playerError": "timeout", "playbackState": "IDLE""#),
            observe(2000, #""playbackState": "BUFFERING""#), observe(3000, #""playbackState": "READY""#),
            observe(5000, #""playbackState": "ENDED""#),
        ])
        let e = v(s)
        XCTAssertNil(e["startupTime"])
        XCTAssertEqual(e["rebufferCount"], .int(1))
        XCTAssertEqual(e["rebufferTime"], .int(1000))
        XCTAssertEqual(e["playTime"], .int(2000))
        XCTAssertEqual(e["waitTime"], .int(2000), "join 1000 + rebuffer 1000")
        XCTAssertEqual(e["rebufferRatio"], .double(0.25))
        XCTAssertEqual(e["playbackFailed"], .bool(true), "fatalErrorPlaybackCount")
        XCTAssertEqual(v(s, .cta)["playbackFailed"], .bool(false), "it recovered and ended")
        XCTAssertEqual(e["exitBeforeVideoStart"], .bool(false))
    }

    /// A scripted MediaRequest (the app asked for the video at 0) starts the Mux, CTA and
    /// OpenAVT clocks; the join still runs from the first BUFFERING (200) to READY (1200).
    func testAScriptedRequestStartsTheRequestClocksNotTheJoin() throws {
        let s = try session([
            #"{"t": 0, "tracker": "p", "action": "MediaRequest"}"#,
            observe(200, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1200, #""playbackState": "READY""#), observe(3000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(v(s)["startupTime"], .int(1000))
        XCTAssertEqual(v(s, .mux)["startupTime"], .int(1200))
        XCTAssertEqual(v(s, .cta)["startupTime"], .int(1200))
        XCTAssertEqual(v(s, .openavt)["startupTime"], .int(1200))
        XCTAssertEqual(v(s, .openavt)["requests"], .int(1))
    }
}
