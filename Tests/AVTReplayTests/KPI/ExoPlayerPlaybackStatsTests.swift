import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// The rules of PlaybackStatsListener (androidx/media
/// libraries/exoplayer/src/main/java/androidx/media3/exoplayer/analytics/PlaybackStatsListener.java
/// and DefaultPlaybackSessionManager.java) that decide formats, sessions and seeks, with the
/// masking ExoPlayerImpl applies to the player's state. Each expected value is worked by hand
/// from the method named in the comment, on an `exoplayer` tracker's observations.
final class ExoPlayerPlaybackStatsTests: XCTestCase {
    private let exo = #"[{"name": "p", "kind": "exoplayer"}]"#
    private func session(_ steps: [String]) throws -> SessionKPIs {
        try KPITestSupport.session(steps.joined(separator: ","), trackers: exo)
    }
    private func v(_ s: SessionKPIs, _ n: Int = 0, _ d: KPIDefinitions = .exoplayer) -> [String: KPIValue] {
        KPITestSupport.values(s, n, d)
    }
    private let observe = { (t: Int, o: String) in KPITestSupport.observe(t, o) }

    /// `PlaybackStatsTracker.onEvents`: the video size fills in the height of a current format
    /// that has none (`maybeUpdateVideoFormat` with the size's height), and only in the batch
    /// that reports the size. The format (1 Mbit/s, no height) plays from 1000; the size 720 at
    /// 2000 gives it a height; the size 1080 at 3000 finds a height already there and changes
    /// nothing. Height time 2000–5000 at 720; bitrate time 1000–5000 at 1 Mbit/s.
    func testTheVideoSizeOnlyFillsInAFormatWithoutHeight() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(0, #""downstreamFormat": {"bitrate": 1000000}"#), observe(1000, #""playbackState": "READY""#),
            observe(2000, #""videoSize": {"width": 1280, "height": 720}"#),
            observe(3000, #""videoSize": {"width": 1920, "height": 1080}"#),
            observe(5000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(v(s)["initialVideoHeight"], .int(720), "initialVideoFormatHeight: the first known height")
        XCTAssertEqual(v(s)["averageResolutionHeight"], .int(720), "getMeanVideoFormatHeight: 720 × 3000 / 3000")
        XCTAssertEqual(v(s)["initialVideoBitrate"], .int(1_000_000))
        XCTAssertEqual(v(s)["averageBitrate"], .int(1_000_000))
        // The other sets take the rendered size as the played height: 720 for 1000 ms, then
        // 1080 for 2000 ms, (720 000 + 2 160 000) / 3000 = 960.
        XCTAssertEqual(v(s, 0, .mux)["averageResolutionHeight"], .int(960))
    }

    /// A video size with no format (`currentVideoFormat == null`), or a size from an earlier batch
    /// when a format without height comes later, gives PlaybackStats no height at all:
    /// `getMeanVideoFormatHeight` and `initialVideoFormatHeight` have no value.
    func testAVideoSizeOutsideTheFormatsBatchGivesNoHeight() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(500, #""videoSize": {"width": 1280, "height": 720}"#), observe(1000, #""playbackState": "READY""#),
            observe(2000, #""downstreamFormat": {"bitrate": 2000000}"#), observe(4000, #""playbackState": "ENDED""#),
        ])
        XCTAssertNil(v(s)["initialVideoHeight"])
        XCTAssertNil(v(s)["averageResolutionHeight"])
        XCTAssertEqual(v(s)["averageBitrate"], .int(2_000_000), "bitrate time 2000–4000 only")
        // The rendered height is what the other sets play: 720 over 1000–4000.
        XCTAssertEqual(v(s, 0, .mux)["averageResolutionHeight"], .int(720))
    }

    /// Each session's tracker begins with `currentVideoFormat = null`: the item after a
    /// transition has no format until one is reported for it.
    func testANewItemBeginsWithNoFormat() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(0, #""downstreamFormat": {"height": 720, "width": 1280, "bitrate": 2500000}"#),
            observe(1000, #""playbackState": "READY""#), observe(5000, #""mediaItemTransition": "AUTO""#),
            observe(8000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(s.playbackIds.count, 2)
        XCTAssertEqual(v(s, 0)["averageResolutionHeight"], .int(720))
        XCTAssertNil(v(s, 1)["initialVideoHeight"])
        XCTAssertNil(v(s, 1)["initialVideoBitrate"])
        XCTAssertNil(v(s, 1)["averageResolutionHeight"])
        XCTAssertNil(v(s, 1)["averageBitrate"])
    }

    /// ExoPlayerImpl puts the player in IDLE on a fatal error, reported or not. A seek then is
    /// no seek for PlaybackStats: `onEvents` clears `isSeeking` whenever the player is not
    /// BUFFERING, and an IDLE player masks nothing. Prepared again, `getPlayerError()` is null,
    /// so `hasFatalError` clears, and BUFFERING from FAILED is a rebuffer
    /// (`resolveNewPlaybackState`: only NOT_STARTED, a join or an ad make it a join).
    func testASeekWhileIdleAfterAnErrorIsNoSeekAndTheRetryIsARebuffer() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(5000, #""playerError": "source error""#),
            observe(6000, #""seekStarted": true"#), observe(8000, #""playbackState": "BUFFERING""#),
            observe(9000, #""playbackState": "READY""#), observe(10000, #""playbackState": "ENDED""#),
        ])
        let e = v(s)
        XCTAssertEqual(e["seekCount"], .int(0))
        XCTAssertEqual(e["seekTime"], .int(0))
        XCTAssertEqual(e["rebufferCount"], .int(1))
        XCTAssertEqual(e["rebufferTime"], .int(1000), "BUFFERING 8000–9000")
        XCTAssertEqual(e["playTime"], .int(5000), "1000–5000 and 9000–10000")
        XCTAssertEqual(e["fatalErrorCount"], .int(1))
        XCTAssertEqual(e["playbackFailed"], .bool(true))
    }

    /// A seek to another item (and a new playlist) while playing: ExoPlayerImpl masks BUFFERING
    /// at once, as for any seek from READY. DefaultPlaybackSessionManager finishes the old session
    /// (not automatic: `onFinished` makes it ABANDONED) and the new one goes NOT_STARTED →
    /// JOINING_FOREGROUND at 4000 → PLAYING at 5000: a join of 1000, play 5000–7000.
    func testASeekToAnotherItemWhilePlayingJoinsTheNewItem() throws {
        for reason in ["SEEK", "PLAYLIST_CHANGED"] {
            let s = try session([
                observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
                observe(1000, #""playbackState": "READY""#), observe(4000, #""mediaItemTransition": "\#(reason)""#),
                observe(5000, #""playbackState": "READY""#), observe(7000, #""playbackState": "ENDED""#),
            ])
            XCTAssertEqual(s.playbackIds.count, 2, reason)
            XCTAssertEqual(v(s, 0)["playTime"], .int(3000), reason)
            XCTAssertEqual(v(s, 0)["abandoned"], .bool(true), reason)
            XCTAssertEqual(v(s, 0)["ended"], .bool(false), reason)
            XCTAssertEqual(v(s, 1)["startupTime"], .int(1000), reason)
            XCTAssertEqual(v(s, 1)["playTime"], .int(2000), reason)
            XCTAssertEqual(v(s, 1)["seekCount"], .int(0), "the seek is the old session's: \(reason)")
        }
    }

    /// `endedCount` is `hasEnded ? 1 : 0` per playback (`build`): ENDED, a seek to 0, play and
    /// ENDED again in the same item is one ended playback.
    func testAPlaybackThatEndsTwiceEndedOnce() throws {
        let s = try session([
            observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            observe(1000, #""playbackState": "READY""#), observe(5000, #""playbackState": "ENDED""#),
            observe(6000, #""seekStarted": true, "contentPosition": 0"#), observe(6500, #""playbackState": "READY""#),
            observe(9000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(s.playbackIds.count, 1)
        XCTAssertEqual(v(s)["ended"], .bool(true))
        XCTAssertEqual(KPITestSupport.totals(s, .exoplayer)["ended"], .int(1))
    }

    /// DefaultPlaybackSessionManager.updateSessions makes no session for an event of an empty
    /// timeline: a play request and a seek in the initial IDLE, and the ENDED of a prepared
    /// empty playlist, make no playback.
    func testNothingBeforeThePlayerHasMediaMakesAPlayback() throws {
        let s = try session([
            observe(0, #""playWhenReady": true"#), observe(500, #""seekStarted": true"#),
            observe(1000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(s.playbackIds.count, 0)
    }

    /// The media comes later (BUFFERING at 2000): the session begins then, with no seek from
    /// before it (a new tracker's `isSeeking` is false) and a join of 2000–3000.
    func testThePlaybackBeginsWithTheMedia() throws {
        let s = try session([
            observe(0, #""playWhenReady": true"#), observe(500, #""seekStarted": true"#),
            observe(1000, #""playbackState": "ENDED""#), observe(2000, #""playbackState": "BUFFERING""#),
            observe(3000, #""playbackState": "READY""#), observe(4000, #""playbackState": "ENDED""#),
        ])
        XCTAssertEqual(s.playbackIds.count, 1)
        XCTAssertEqual(v(s)["startupTime"], .int(1000))
        XCTAssertEqual(v(s)["seekCount"], .int(0))
        XCTAssertEqual(v(s)["playTime"], .int(1000))
        XCTAssertEqual(v(s)["ended"], .bool(true))
    }
}
