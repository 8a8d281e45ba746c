import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTimeline

/// EventLogger lines of older eras and player boundaries the log shows only by its times, each
/// worked by hand from the lines that decide it and what PlaybackStatsListener does with them.
final class ExoPlayerEraTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    private func kpis(_ log: String, name: String, _ definitions: KPIDefinitions = .openavt) throws -> [[KPI]] {
        let path = try CSVTestSupport.file(log, name: name)
        let session = try KPISessions.replay(path)
        return session.playbackIds.map { session.playback($0, definitions: definitions) }
    }

    /// r2.x `internalError [18.08, loadError]` carries its eventTime unlabelled, as that era's
    /// state lines do: a load error the player retries, which PlaybackStats counts as non-fatal
    /// (`onLoadError` → `nonFatalErrorCount`). Before, the time was taken for the error's kind.
    func testAnOldEraInternalLoadErrorIsNonFatal() throws {
        let log = """
            EventLogger: state [0.12, true, B]
            EventLogger: state [1.62, true, R]
            EventLogger: internalError [18.08, loadError]
            EventLogger: state [20.00, true, E]

            """
        let (_, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertFalse(warnings.contains { $0.contains("not replayed") }, "\(warnings)")
        XCTAssertEqual(Support.count(steps, "loadError"), 1)
        let k = try XCTUnwrap(try kpis(log, name: "internal.log").first)
        XCTAssertEqual(k.int("nonFatalErrorCount"), 1)
        XCTAssertEqual(k.int("fatalErrorCount"), 0)
    }

    /// `videoSize [… 0, 0]` is what the video renderer reports when it is disabled (an audio-only
    /// track selection): no picture, no height. PlaybackStats then has no video format.
    func testAVideoSizeOfZeroIsNoHeight() throws {
        let log = """
            EventLogger: state [eventTime=0.00, mediaPos=0.00, window=0, BUFFERING]
            EventLogger: videoSize [eventTime=0.10, mediaPos=0.00, window=0, 0, 0]
            EventLogger: state [eventTime=0.50, mediaPos=0.00, window=0, READY]
            EventLogger: isPlaying [eventTime=0.50, mediaPos=0.00, window=0, true]
            EventLogger: state [eventTime=20.00, mediaPos=19.50, window=0, ENDED]

            """
        let (_, steps, _) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(Support.count(steps, "videoSize"), 0)
        for definitions in [KPIDefinitions.openavt, .exoplayer] {
            let k = try XCTUnwrap(try kpis(log, name: "audio-only.log", definitions).first)
            XCTAssertNil(k.int("initialVideoHeight"), "\(definitions)")
            XCTAssertNil(k.int("averageResolutionHeight"), "\(definitions)")
        }
    }

    /// r2.8–2.10 log the format as `downstreamFormatChanged`; a muxed HLS rendition's format has
    /// `mimeType=null` and is loaded on the default track, which PlaybackStats'
    /// `onDownstreamFormatChanged` takes as the video format (TRACK_TYPE_VIDEO or DEFAULT). Both
    /// are 720p here: the initial height 720 and bitrate 2,000,000 in the exoplayer set.
    func testOldEraAndMuxedDownstreamFormatsAreTheVideoFormat() throws {
        for format in [
            "downstreamFormatChanged [1.00, 0.00, window=0, period=0, id=1, mimeType=video/avc, bitrate=2000000, res=1280x720]",
            "downstreamFormat [1.00, 0.00, window=0, period=0, id=1, mimeType=null, bitrate=2000000, codecs=avc1.64001f, res=1280x720]",
        ] {
            let log = """
                EventLogger: state [0.00, 0.00, window=0, period=0, true, BUFFERING]
                EventLogger: \(format)
                EventLogger: state [1.00, 0.00, window=0, period=0, true, READY]
                EventLogger: state [20.00, 19.00, window=0, period=0, true, ENDED]

                """
            let k = try XCTUnwrap(try kpis(log, name: "format.log", .exoplayer).first)
            XCTAssertEqual(k.int("initialVideoHeight"), 720, format)
            XCTAssertEqual(k.int("initialVideoBitrate"), 2_000_000, format)
        }
    }

    /// A player logs its state when it changes: `state [eventTime=0.00 … BUFFERING]` again, 389 ms
    /// later on the logcat clock, is a second player created and prepared at eventTime 0 of its
    /// own EventLogger. The first never became READY (no start); the second joins 0 → 610.
    func testTheSameFirstStateAgainIsANewPlayer() throws {
        let log = """
            11-26 10:00:00.000  100  200 D EventLogger: state [eventTime=0.00, mediaPos=0.00, window=0, period=0, BUFFERING]
            11-26 10:00:00.389  100  200 D EventLogger: state [eventTime=0.00, mediaPos=0.00, window=0, period=0, BUFFERING]
            11-26 10:00:01.000  100  200 D EventLogger: state [eventTime=0.61, mediaPos=0.00, window=0, period=0, READY]
            11-26 10:00:01.000  100  200 D EventLogger: isPlaying [eventTime=0.61, mediaPos=0.00, window=0, period=0, true]
            11-26 10:00:05.000  100  200 D EventLogger: state [eventTime=4.61, mediaPos=4.00, window=0, period=0, ENDED]

            """
        let playbacks = try kpis(log, name: "two-players.log")
        XCTAssertEqual(playbacks.count, 2)
        XCTAssertEqual(playbacks[0].first { $0.name == "started" }?.value, .bool(false))
        XCTAssertEqual(playbacks[1].int("startupTime"), 610)
    }

    /// `isPlaying true` is READY with playWhenReady (`Player.isPlaying`). Here the READY line of
    /// the stall at 10.00 is missing: the stall ends at the `isPlaying true` of 12.00, and the
    /// BUFFERING at 20.00 is a second rebuffer (PlaybackStats: a rebuffer on each entry into
    /// BUFFERING from another state, `updatePlaybackState`), 2000 + 1000 ms, not one of 11 s.
    func testIsPlayingTrueEndsABufferingWhoseReadyIsMissing() throws {
        let log = """
            EventLogger: state [eventTime=0.00, mediaPos=0.00, window=0, BUFFERING]
            EventLogger: playWhenReady [eventTime=0.00, mediaPos=0.00, window=0, true, USER_REQUEST]
            EventLogger: state [eventTime=0.50, mediaPos=0.00, window=0, READY]
            EventLogger: isPlaying [eventTime=0.50, mediaPos=0.00, window=0, true]
            EventLogger: state [eventTime=10.00, mediaPos=9.50, window=0, BUFFERING]
            EventLogger: isPlaying [eventTime=10.00, mediaPos=9.50, window=0, false]
            EventLogger: isPlaying [eventTime=12.00, mediaPos=9.50, window=0, true]
            EventLogger: state [eventTime=20.00, mediaPos=17.50, window=0, BUFFERING]
            EventLogger: isPlaying [eventTime=20.00, mediaPos=17.50, window=0, false]
            EventLogger: state [eventTime=21.00, mediaPos=17.50, window=0, READY]
            EventLogger: isPlaying [eventTime=21.00, mediaPos=17.50, window=0, true]
            EventLogger: state [eventTime=30.00, mediaPos=26.50, window=0, ENDED]

            """
        for definitions in [KPIDefinitions.openavt, .exoplayer] {
            let k = try XCTUnwrap(try kpis(log, name: "lost-ready.log", definitions).first)
            XCTAssertEqual(k.int("rebufferCount"), 2, "\(definitions)")
            XCTAssertEqual(k.int("rebufferTime"), 3000, "\(definitions)")
            XCTAssertEqual(k.int("playTime"), 9500 + 8000 + 9000, "\(definitions)")
        }
    }

    /// A paste that begins with a stall: `state BUFFERING` and, at the same time, `isPlaying
    /// false`. A fresh player's first isPlaying change can only be to true (it is created not
    /// playing), so this player was playing before the log: no startup, and the BUFFERING is a
    /// rebuffer (PlaybackStats: BUFFERING after PLAYING, `updatePlaybackState`) of 1000 ms. The same
    /// BUFFERING with no isPlaying line is a prepare() and a join.
    func testABufferingThenIsPlayingFalseFirstIsAStallNotAStart() throws {
        let stall = """
            EventLogger: state [eventTime=5.00, mediaPos=4.00, window=0, BUFFERING]
            EventLogger: isPlaying [eventTime=5.00, mediaPos=4.00, window=0, false]
            EventLogger: state [eventTime=6.00, mediaPos=4.00, window=0, READY]
            EventLogger: isPlaying [eventTime=6.00, mediaPos=4.00, window=0, true]
            EventLogger: state [eventTime=20.00, mediaPos=18.00, window=0, ENDED]

            """
        let (_, _, warnings) = try Support.read(bytes: stall, format: .exoplayerLog)
        XCTAssertTrue(
            warnings.contains { $0.contains("<stdin>:2: the log starts mid-session (isPlaying false") }, "\(warnings)")
        for definitions in [KPIDefinitions.openavt, .exoplayer] {
            let k = try XCTUnwrap(try kpis(stall, name: "stall-first.log", definitions).first)
            XCTAssertNil(k.int("startupTime"), "\(definitions)")
            XCTAssertEqual(k.int("rebufferCount"), 1, "\(definitions)")
            XCTAssertEqual(k.int("rebufferTime"), 1000, "\(definitions)")
        }
        let start = stall.replacingOccurrences(
            of: "EventLogger: isPlaying [eventTime=5.00, mediaPos=4.00, window=0, false]\n", with: "")
        let k = try XCTUnwrap(try kpis(start, name: "prepare.log", .exoplayer).first)
        XCTAssertEqual(k.int("startupTime"), 1000, "JOINING 5.00 → READY 6.00")
        XCTAssertEqual(k.int("rebufferCount"), 0)
    }

    /// A paste that begins with a seek 110 s into the player: the stream was loaded and shown
    /// long before. PlaybackStats is SEEKING from the seek's discontinuity (110.40: `isSeeking`,
    /// which `resolveNewPlaybackState` puts first) until READY at 110.95, when `onEvents` clears
    /// it (the player no longer buffers): one seek of 550 ms, and no join. `run` says the same
    /// (SeekBegin … SeekFinish, one Start), and `kpi` counts the one play the hub accepts.
    func testASeekAtTheTopOfAPasteIsASeekNotAStartup() throws {
        let log = """
            EventLogger: positionDiscontinuity [eventTime=110.40, mediaPos=30.00, window=0, period=0, reason=SEEK, PositionInfo:old [mediaItem=0, period=0, pos=30000], PositionInfo:new [mediaItem=0, period=0, pos=60000]]
            EventLogger: state [eventTime=110.41, mediaPos=60.00, window=0, period=0, BUFFERING]
            EventLogger: state [eventTime=110.95, mediaPos=60.00, window=0, period=0, READY]
            EventLogger: isPlaying [eventTime=110.95, mediaPos=60.00, window=0, period=0, true]
            EventLogger: state [eventTime=130.00, mediaPos=79.00, window=0, period=0, ENDED]

            """
        let (_, _, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertTrue(warnings.contains { $0.contains("a seek first, at eventTime 110.40 s") }, "\(warnings)")
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let k = try XCTUnwrap(try kpis(log, name: "seek-first.log", definitions).first)
            XCTAssertNil(k.int("startupTime"), "\(definitions)")
            XCTAssertEqual(k.int("seekCount"), 1, "\(definitions)")
            XCTAssertEqual(k.int("seekTime"), 550, "\(definitions)")
            XCTAssertEqual(k.int("plays"), 1, "\(definitions)")
        }
    }

    /// A resume position set before prepare(): `positionDiscontinuity … reason=SEEK` at 0.04,
    /// before the session's first state line. The player is IDLE then, and PlaybackStats'
    /// `onEvents` clears `isSeeking` whenever the player is not BUFFERING, so no SEEKING state
    /// follows: the BUFFERING at 0.06 is the join (JOINING_FOREGROUND, `resolveNewPlaybackState`)
    /// until READY with playWhenReady at 0.66, a startup of 600 ms and no seek (Mux and CTA-2066
    /// count from the play request at 0.05: 610 ms). `run` agrees: no SeekBegin, and the position
    /// 30000 ms is taken from `PositionInfo:new`.
    func testASeekBeforeTheFirstStateIsTheStartPositionNotASeek() throws {
        let log = """
            EventLogger: mediaItem [eventTime=0.03, mediaPos=0.00, window=0, reason=PLAYLIST_CHANGED]
            EventLogger: positionDiscontinuity [eventTime=0.04, mediaPos=0.00, window=0, reason=SEEK, PositionInfo:old [mediaItem=0, period=0, pos=0], PositionInfo:new [mediaItem=0, period=0, pos=30000]]
            EventLogger: playWhenReady [eventTime=0.05, mediaPos=30.00, window=0, true, USER_REQUEST]
            EventLogger: state [eventTime=0.06, mediaPos=30.00, window=0, period=0, BUFFERING]
            EventLogger: state [eventTime=0.66, mediaPos=30.00, window=0, period=0, READY]
            EventLogger: isPlaying [eventTime=0.66, mediaPos=30.00, window=0, period=0, true]
            EventLogger: state [eventTime=10.66, mediaPos=40.00, window=0, period=0, ENDED]

            """
        let (_, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(Support.count(steps, "seekStarted"), 0)
        XCTAssertEqual(Support.count(steps, "contentPosition", .int(30000)), 3, "the seek's position, then the states'")
        XCTAssertFalse(warnings.contains { $0.contains("mid-session") }, "\(warnings)")
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let k = try XCTUnwrap(try kpis(log, name: "seek-before-state.log", definitions).first)
            let fromPlayRequest = definitions == .mux || definitions == .cta
            XCTAssertEqual(k.int("startupTime"), fromPlayRequest ? 610 : 600, "\(definitions)")
            XCTAssertEqual(k.int("seekCount"), 0, "\(definitions)")
            XCTAssertEqual(k.int("seekTime"), 0, "\(definitions)")
        }
    }

    /// Up to r2.7 the demo app's EventLogger prints the timeline as a `sourceInfo [` block whose
    /// lines carry no time: `  period [3.12]` is the first period's duration (`getTimeString` of
    /// `Period.getDurationMs`), read at the time of the line before. Its `]` closes the block, which
    /// is no noise, and the untimed `window [` inside it is part of it.
    func testAnOldEraSourceInfoBlockGivesTheDuration() throws {
        let log = """
            EventLogger: state [0.12, true, B]
            EventLogger: sourceInfo [periodCount=1, windowCount=1
            EventLogger:   period [3.12]
            EventLogger:   window [3.12, true, false]
            EventLogger: ]
            EventLogger: state [0.60, true, R]
            EventLogger: state [3.72, true, E]

            """
        let (settings, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "120 content playWhenReady=true playbackState=\"BUFFERING\"",
                "120 content duration=3120",
                "600 content playbackState=\"READY\"",
                "3720 content playbackState=\"ENDED\"",
            ])
        XCTAssertFalse(warnings.contains { $0.contains("skipped") || $0.contains("block") }, "\(warnings)")
    }
}
