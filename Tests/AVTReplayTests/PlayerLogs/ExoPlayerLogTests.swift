import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// ExoPlayer / Media3 `EventLogger` logs: every era and envelope of the fixtures, their derived
/// timelines and the KPIs `kpi` computes from them (OpenAVT definitions, docs/kpi.md), worked out
/// by hand, line by line, from the state history as `PlaybackStatsListener` keeps it:
/// - the playback is not started while IDLE, joins from the first BUFFERING (the StreamLoad the
///   tracker emits), plays while READY with playWhenReady true, is paused while READY with
///   playWhenReady false, seeks from `seekStarted` until READY, buffers while BUFFERING after it
///   was ready, fails at `playerError`; open states run to the last step;
/// - startupTime (openavt) = StreamLoad (the first BUFFERING) → the first frame (the first
///   playing state); bufferTime = join + buffering; playTime = time playing; pauseCount,
///   seekCount = entries into paused, seeks; errorCount = fatal (`playerError`) + non-fatal
///   (`loadError`).
final class ExoPlayerLogTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    func testMedia3ThreadtimeLogBecomesATimelineWithItsKPIs() throws {
        let path = Support.fixture("exoplayer-media3-threadtime.log")
        let (settings, steps, warnings) = try Support.read(path)
        XCTAssertEqual(settings.trackers.map(\.name), ["content"])
        XCTAssertEqual(settings.trackers.map(\.kind), [.exoplayer])
        // The first event line: logcat 03-14 10:21:47.041 (year 2000: logcat prints none) at
        // eventTime 0.05 s, so t=0 is 10:21:46.991.
        XCTAssertEqual(settings.startTime, LogcatEnvelope.daysFromCivil(2000, 3, 14) * 86_400_000 + 37_306_991)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                // The first mediaItem (PLAYLIST_CHANGED, before any state) is the playback begun.
                "60 content contentPosition=0 playbackState=\"BUFFERING\"",
                "70 content playWhenReady=true playWhenReadyChangeReason=\"USER_REQUEST\"",
                // The SOURCE_UPDATE timeline block's first window: 120.00 s.
                "400 content duration=120000",
                // `mimeType=video/avc, bitrate=2000000, …, res=1280x720`.
                "600 content downstreamFormat={\"bitrate\":2000000,\"width\":1280,\"height\":720}",
                // Media3 1.8's `w=1280, h=720, par=1.0`.
                "900 content videoSize={\"width\":1280,\"height\":720}",
                "950 content contentPosition=0 playbackState=\"READY\"",
                "10950 content contentPosition=10000 playbackState=\"BUFFERING\"",
                // `internalError [… loadError` and its throwable: non-fatal, retried.
                "11200 content loadError=\"androidx.media3.datasource.HttpDataSource$InvalidResponseCodeException: "
                    + "Response code: 503\"",
                "12450 content contentPosition=10000 playbackState=\"READY\"",
                // PositionInfo:new pos=60000 (ms).
                "20000 content contentPosition=60000 seekStarted=true",
                "20010 content contentPosition=60000 playbackState=\"BUFFERING\"",
                "20810 content contentPosition=60000 playbackState=\"READY\"",
                "30000 content playWhenReady=false playWhenReadyChangeReason=\"USER_REQUEST\"",
                "35000 content playWhenReady=true playWhenReadyChangeReason=\"USER_REQUEST\"",
                "36000 content droppedFrames=12",
                "85810 content contentPosition=120000 playbackState=\"ENDED\"",
                // `ExoPlayerImpl: Release` (no eventTime: the previous line's).
                "85810 content release=true",
            ])
        // The loadError is retried by the player: no playerError.
        XCTAssertEqual(Support.count(steps, "seekStarted"), 1)
        XCTAssertEqual(Support.count(steps, "playWhenReady", .bool(false)), 1)
        XCTAssertEqual(Support.count(steps, "playerError"), 0)
        XCTAssertEqual(
            warnings.last,
            "\(path): not replayed (the exoplayer tracker has no observation for them): renderedFirstFrame 1")
        // The `--------- beginning of main` banner and the ActivityTaskManager line.
        XCTAssertTrue(
            warnings.contains(
                "\(path): skipped 2 lines that are not EventLogger events (other tags, processes, stack traces)"))

        let kpis = try Support.kpis(path)
        XCTAssertEqual(kpis.count, 1)
        let k = kpis[0]
        // Line 7 (60) BUFFERING: the join begins (StreamLoad); line 8 (70) playWhenReady true;
        // line 24 (950) READY with playWhenReady: the first frame. 950 − 60.
        XCTAssertEqual(k.int("startupTime"), 890)
        // Playing: 950–10950 (10000) + 12450–20000 (7550) + 20810–30000 (9190) + 35000–85810
        // (50810) = 77550.
        XCTAssertEqual(k.int("playTime"), 77_550)
        // Join 60–950 (890) + the stall of lines 27–34, 10950–12450 (1500) = 2390. Lines 36–37
        // buffer inside the seek of line 35 (20000–20810): seeking, not buffering.
        XCTAssertEqual(k.int("bufferTime"), 2390)
        XCTAssertEqual(k.int("rebufferCount"), 1)
        XCTAssertEqual(k.int("rebufferTime"), 1500)
        XCTAssertEqual(k.int("seekCount"), 1)
        XCTAssertEqual(k.int("seekTime"), 810)
        // Line 40 (30000) playWhenReady false … line 42 (35000) true.
        XCTAssertEqual(k.int("pauseCount"), 1)
        XCTAssertEqual(k.int("pauseTime"), 5000)
        // Line 29's loadError: non-fatal (PlaybackStats' `onLoadError`); no playerFailed.
        XCTAssertEqual(k.int("errorCount"), 1)
        XCTAssertEqual(k.int("fatalErrorCount"), 0)
        XCTAssertEqual(k.int("nonFatalErrorCount"), 1)
        XCTAssertEqual(k[name: "playbackFailed"], .bool(false))
        // Line 44's `droppedFrames [… 12]`; line 23's downstreamFormat (2000000 bps, 720 lines).
        XCTAssertEqual(k.int("droppedFrames"), 12)
        XCTAssertEqual(k.int("initialVideoBitrate"), 2_000_000)
        XCTAssertEqual(k.int("initialVideoHeight"), 720)
        // Line 47 ENDED; line 49's Release after it is the app's, not a failure.
        XCTAssertEqual(k[name: "ended"], .bool(true))
    }

    func testVersion2_11LabelledStatesWithPlayWhenReadyAndAThrowableInsideTheBrackets() throws {
        let path = Support.fixture("exoplayer-2.11-studio-classic.log")
        let (settings, steps, _) = try Support.read(path)
        // Android Studio's classic layout shows the year: 2020-06-02 09:14:03.215 − 0.10 s.
        XCTAssertEqual(settings.startTime, LogcatEnvelope.daysFromCivil(2020, 6, 2) * 86_400_000 + 33_243_115)
        let lines = Support.lines(steps, settings)
        // `state [… true, BUFFERING]`: the request first, so the Start waits for READY.
        XCTAssertEqual(lines[0], "100 content contentPosition=0 playWhenReady=true playbackState=\"BUFFERING\"")
        XCTAssertTrue(lines.contains("10720 content videoSize={\"width\":1280,\"height\":720}"))
        XCTAssertTrue(lines.contains("15720 content volume=0.5"))
        XCTAssertTrue(
            lines.contains(
                "22000 content playerError=\"com.google.android.exoplayer2.ExoPlaybackException: "
                    + "com.google.android.exoplayer2.upstream.HttpDataSource$InvalidResponseCodeException: Response code: 404\""
            ))
        XCTAssertEqual(Support.count(steps, "playWhenReady", .bool(false)), 1)
        XCTAssertEqual(Support.count(steps, "playerError"), 1)
        XCTAssertEqual(Support.count(steps, "seekStarted"), 0)

        let k = try XCTUnwrap(try Support.kpis(path).first)
        // Line 2 (100) `true, BUFFERING`: the join begins; line 6 (720) `true, READY`: the first
        // frame. 720 − 100.
        XCTAssertEqual(k.int("startupTime"), 620)
        // Playing 720–17720 (line 10: `false, READY`, 17000) + 19720 (line 12) – 22000 (line 14's
        // playerFailed, 2280) = 19280.
        XCTAssertEqual(k.int("playTime"), 19_280)
        // Only the join, 100–720: no stall.
        XCTAssertEqual(k.int("bufferTime"), 620)
        XCTAssertEqual(k.int("rebufferCount"), 0)
        XCTAssertEqual(k.int("pauseCount"), 1)
        XCTAssertEqual(k.int("pauseTime"), 2000)
        XCTAssertEqual(k.int("seekCount"), 0)
        // Line 14: playerFailed, fatal.
        XCTAssertEqual(k.int("errorCount"), 1)
        XCTAssertEqual(k.int("fatalErrorCount"), 1)
        // The resolution went from 854×480 (the baseline) to 1280×720.
        XCTAssertEqual(k.int("qualityUpCount"), 1)
    }

    func testVersion2_9UnlabelledTimesSeekStartedAndAThrowableAfterTheBrackets() throws {
        let path = Support.fixture("exoplayer-2.9-brief.log")
        let (settings, steps, _) = try Support.read(path)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                // `window [60.00, false, false]` in the PREPARED timeline block.
                "50 content duration=60000",
                "100 content contentPosition=0 playWhenReady=true playbackState=\"BUFFERING\"",
                "1300 content contentPosition=0 playbackState=\"READY\"",
                // seekStarted, then positionDiscontinuity SEEK of the same seek: one seek.
                "11300 content seekStarted=true",
                "11310 content contentPosition=40000",
                "11320 content contentPosition=40000 playbackState=\"BUFFERING\"",
                "11800 content contentPosition=40000 playbackState=\"READY\"",
                // `playerFailed [17.30, …]` closed, the exception on the next line.
                "17300 content playerError=\"com.google.android.exoplayer2.ExoPlaybackException: "
                    + "com.google.android.exoplayer2.source.BehindLiveWindowException\"",
                "17310 content contentPosition=45500 playbackState=\"IDLE\"",
            ])
        let k = try XCTUnwrap(try Support.kpis(path).first)
        // Line 6 (100) `true, BUFFERING`: the join; line 8 (1300) `true, READY`: the first frame.
        XCTAssertEqual(k.int("startupTime"), 1200)
        // Playing 1300–11300 (line 9's seekStarted, 10000) + 11800 (line 12) – 17300 (line 15's
        // playerFailed, 5500).
        XCTAssertEqual(k.int("playTime"), 15_500)
        // The join 100–1300 (1200). Lines 10–12 buffer inside the seek (11300–11800): seeking.
        XCTAssertEqual(k.int("bufferTime"), 1200)
        XCTAssertEqual(k.int("rebufferCount"), 0)
        // seekStarted then positionDiscontinuity SEEK: one seek, 11300–11800.
        XCTAssertEqual(k.int("seekCount"), 1)
        XCTAssertEqual(k.int("seekTime"), 500)
        XCTAssertEqual(k.int("pauseCount"), 0)
        XCTAssertEqual(k.int("errorCount"), 1)
        XCTAssertEqual(k[name: "playbackFailed"], .bool(true))
    }

    func testVersion2_7BareLinesCarryTimeOnlyOnStates() throws {
        let path = Support.fixture("exoplayer-2.7-bare.log")
        let (settings, steps, _) = try Support.read(path)
        XCTAssertEqual(settings.startTime, 0, "no logcat time: the epoch")
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "80 content playWhenReady=true playbackState=\"IDLE\"",
                "120 content playbackState=\"BUFFERING\"",
                // `videoSizeChanged [640, 360]` has no time: the previous line's.
                "120 content videoSize={\"width\":640,\"height\":360}",
                "1620 content playbackState=\"READY\"",
                "8620 content playbackState=\"BUFFERING\"",
                "9120 content playbackState=\"READY\"",
                "20000 content playWhenReady=false",
            ])
        let k = try XCTUnwrap(try Support.kpis(path).first)
        // Line 1 (80) `true, I`: IDLE, not started. Line 3 (120) B: the join (StreamLoad); line 5
        // (1620) R: the first frame. 1620 − 120.
        XCTAssertEqual(k.int("startupTime"), 1500)
        // Playing 1620–8620 (7000) + 9120–20000 (10880); line 8 (20000) pauses at the last step.
        XCTAssertEqual(k.int("playTime"), 17_880)
        // The join 120–1620 (1500) + the stall of lines 6–7, 8620–9120 (500).
        XCTAssertEqual(k.int("bufferTime"), 2000)
        XCTAssertEqual(k.int("rebufferCount"), 1)
        XCTAssertEqual(k.int("rebufferTime"), 500)
        XCTAssertEqual(k.int("pauseCount"), 1)
        XCTAssertEqual(k.int("seekCount"), 0)
        XCTAssertEqual(k.int("errorCount"), 0)
    }

    func testALogThatStartsMidSessionAndIsCutMidLine() throws {
        let path = Support.fixture("exoplayer-studio-midsession-cut.log")
        let (settings, steps, warnings) = try Support.read(path)
        // Studio's newer layout with the date hidden: 12:23:24.169 − 754.31 s on 2000-01-01.
        XCTAssertEqual(settings.startTime, LogcatEnvelope.daysFromCivil(2000, 1, 1) * 86_400_000 + 43_849_859)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                // `isPlaying false` first: it was playing; two steps make it so, the first
                // marked: the playback's start is not in the log.
                "754310 content midSession=true playbackState=\"BUFFERING\"",
                "754310 content playbackState=\"READY\" playWhenReady=true",
                // The repeated tag is blank on this line: the message is found all the same.
                "754310 content playWhenReady=false playWhenReadyChangeReason=\"USER_REQUEST\"",
                "761540 content playWhenReady=true playWhenReadyChangeReason=\"USER_REQUEST\"",
                "771540 content videoSize={\"width\":1920,\"height\":1080}",
                "775040 content contentPosition=625900 playbackState=\"BUFFERING\"",
                "776290 content contentPosition=625900 playbackState=\"READY\"",
                // Line 11 is cut inside its details, but its eventTime is whole: the log's
                // knowledge ends there (786.29 s), so the playback does too.
                "786290 content",
            ])
        XCTAssertEqual(warnings.count, 3, "\(warnings)")
        XCTAssertTrue(warnings[0].hasPrefix("\(path):1: the log starts mid-session (isPlaying false first)"))
        XCTAssertTrue(
            warnings[1].hasPrefix("\(path):11: cut before its closing ], skipped: \"12:23:56.152 EventLogger"))
        XCTAssertTrue(warnings[1].hasSuffix("…\""), "the line quoted, cut to 80 characters")
        let k = try XCTUnwrap(try Support.kpis(path).first)
        // Start at the inferred 754310, at once: the log does not show the startup, so the
        // playback carries `midSession` and its startup is absent (it used to read 0, a join of
        // no time that never happened), as are the hub's StartTime and the first format (line
        // 6's 1080 is not the height the playback began at).
        XCTAssertNil(k[name: "startupTime"])
        XCTAssertNil(k[name: "startTimeMetric"])
        XCTAssertNil(k[name: "initialVideoHeight"])
        XCTAssertEqual(k[name: "started"], .bool(true), "the log shows it playing")
        XCTAssertEqual(k[name: "exitBeforeVideoStart"], .bool(false))
        // Paused 754310–761540 (7230); playing 761540–775040 (13500) + 776290 to the end of the
        // log, line 11's 786290 (10000): 23500. The rebuffer 775040–776290 (1250).
        // Line 2 (754310) pauses at once: one pause, 754310–761540 (line 4), 7230.
        XCTAssertEqual(k.int("pauseCount"), 1)
        XCTAssertEqual(k.int("pauseTime"), 7230)
        // Playing 761540–775040 (line 7's BUFFERING), 13500, and 776290–786290 (line 9's READY
        // to line 11, the last line, whose pause request is cut), 10000.
        XCTAssertEqual(k.int("playTime"), 23_500)
        // The inferred join takes 0 ms; the stall of lines 7–9, 775040–776290 (1250).
        XCTAssertEqual(k.int("bufferTime"), 1250)
        XCTAssertEqual(k.int("rebufferTime"), 1250)
        XCTAssertEqual(k.int("seekCount"), 0)
        XCTAssertEqual(k.int("errorCount"), 0)
        XCTAssertEqual(Support.count(steps, "playWhenReady", .bool(false)), 1)
    }

    func testInterleavedProcessesAndTwoPlayersInOneLog() throws {
        let path = Support.fixture("exoplayer-interleaved-sessions.log")
        let (settings, steps, warnings) = try Support.read(path)
        XCTAssertEqual(settings.trackers.map(\.name), ["content", "content-2"])
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "100 content contentPosition=0 playbackState=\"BUFFERING\"",
                "110 content playWhenReady=true playWhenReadyChangeReason=\"USER_REQUEST\"",
                "1100 content contentPosition=0 playbackState=\"READY\"",
                "31100 content contentPosition=30000 playbackState=\"ENDED\"",
                // Line 10's Release: the app's Stop (no scripted one is added for the new player).
                "31100 content release=true",
                // eventTime back to 0.05: a new player, laid after the first.
                "31150 content-2 contentPosition=0 playbackState=\"BUFFERING\"",
                "31160 content-2 playWhenReady=true playWhenReadyChangeReason=\"USER_REQUEST\"",
                "31900 content-2 contentPosition=0 playbackState=\"READY\"",
                "36900 content-2 playerError=\"ERROR_CODE_IO_NETWORK_CONNECTION_FAILED: "
                    + "androidx.media3.exoplayer.ExoPlaybackException: Source error\"",
                "36910 content-2 contentPosition=5000 playbackState=\"IDLE\"",
            ])
        XCTAssertTrue(
            warnings[0].hasPrefix("\(path):3: another process's EventLogger line (pid 3333), skipped: \"\\tLine 103:"),
            warnings[0])
        let kpis = try Support.kpis(path)
        XCTAssertEqual(kpis.count, 2)
        // Player 1: line 2 (100) BUFFERING joins, line 6 (1100) READY plays: startup 1000, the
        // join is its buffer time; playing 1100–31100 (line 8, ENDED).
        XCTAssertEqual(kpis[0].int("startupTime"), 1000)
        XCTAssertEqual(kpis[0].int("bufferTime"), 1000)
        XCTAssertEqual(kpis[0].int("playTime"), 30_000)
        XCTAssertEqual(kpis[0].int("pauseCount"), 0)
        XCTAssertEqual(kpis[0].int("seekCount"), 0)
        XCTAssertEqual(kpis[0].int("errorCount"), 0)
        XCTAssertEqual(kpis[0][name: "ended"], .bool(true))
        // Player 2, its own tracker and stream load: line 11 (0.05 → 31150) joins, line 13
        // (0.80 → 31900) plays: startup 750; playing 31900–36900 (line 15's playerFailed).
        XCTAssertEqual(kpis[1].int("startupTime"), 750)
        XCTAssertEqual(kpis[1].int("bufferTime"), 750)
        XCTAssertEqual(kpis[1].int("playTime"), 5000)
        XCTAssertEqual(kpis[1].int("pauseCount"), 0)
        XCTAssertEqual(kpis[1].int("seekCount"), 0)
        XCTAssertEqual(kpis[1].int("errorCount"), 1)
        XCTAssertEqual(Support.count(steps, "playerError"), 1)
    }

    /// The lines the fixtures do not show: suppression, a DRM error, an item transition, the
    /// player's own pause at the end of an item, an audio format, a bandwidth estimate.
    func testSuppressionItemTransitionsAndTheEndOfAnItem() throws {
        let log = [
            "EventLogger: mediaItem [eventTime=0.00, mediaPos=0.00, window=0, reason=PLAYLIST_CHANGED]",
            "EventLogger: state [eventTime=0.10, mediaPos=0.00, window=0, BUFFERING]",
            "EventLogger: playWhenReady [eventTime=0.10, mediaPos=0.00, window=0, true, USER_REQUEST]",
            "EventLogger: downstreamFormat [eventTime=0.20, mediaPos=0.00, window=0, period=0, id=2, "
                + "mimeType=audio/mp4a-latm, bitrate=128000, codecs=mp4a.40.2]",
            "EventLogger: bandwidthEstimate [eventTime=0.30, mediaPos=0.00, window=0, period=0, 300, 250000, 6666666]",
            "EventLogger: state [eventTime=1.00, mediaPos=0.00, window=0, period=0, READY]",
            "EventLogger: playbackSuppressionReason [eventTime=5.00, mediaPos=4.00, window=0, period=0, "
                + "TRANSIENT_AUDIO_FOCUS_LOSS]",
            "EventLogger: playbackSuppressionReason [eventTime=7.00, mediaPos=4.00, window=0, period=0, NONE]",
            "EventLogger: internalError [eventTime=8.00, mediaPos=5.00, window=0, period=0, drmSessionManagerError]",
            "EventLogger: mediaItem [eventTime=11.00, mediaPos=0.00, window=1, period=1, reason=AUTO]",
            "EventLogger: playWhenReady [eventTime=21.00, mediaPos=10.00, window=1, period=1, false, END_OF_MEDIA_ITEM]",
        ].joined(separator: "\n")
        let (settings, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                // Line 1: the first item, before any state: the playback already begun.
                "100 content contentPosition=0 playbackState=\"BUFFERING\"",
                "100 content playWhenReady=true playWhenReadyChangeReason=\"USER_REQUEST\"",
                // Line 4: an audio format is not the picture played.
                "300 content bandwidthEstimate=6666666",
                "1000 content contentPosition=0 playbackState=\"READY\"",
                "5000 content playbackSuppressionReason=\"TRANSIENT_AUDIO_FOCUS_LOSS\"",
                "7000 content playbackSuppressionReason=\"NONE\"",
                "8000 content loadError=\"drmSessionManagerError\"",
                "11000 content mediaItemTransition=\"AUTO\"",
                "21000 content playWhenReady=false playWhenReadyChangeReason=\"END_OF_MEDIA_ITEM\"",
            ])
        XCTAssertEqual(warnings, [], "everything is replayed")
        // The same through `kpi`: a file, as the command reads it.
        let path = NSTemporaryDirectory() + "avtreplay-exo-\(UUID().uuidString).log"
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let kpis = try Support.kpis(path)
        // Line 10 (AUTO): a second playback, the first one ended.
        XCTAssertEqual(kpis.count, 2)
        // Playback 1: joins at 100 (line 2), plays at 1000 (line 6): startup 900, all of it
        // buffer time. Playing 1000–5000 (4000), suppressed 5000–7000 (not play time, not a
        // pause), playing 7000–11000 (4000).
        XCTAssertEqual(kpis[0].int("startupTime"), 900)
        XCTAssertEqual(kpis[0].int("bufferTime"), 900)
        XCTAssertEqual(kpis[0].int("playTime"), 8000)
        XCTAssertEqual(kpis[0].int("pauseCount"), 0)
        XCTAssertEqual(kpis[0].int("seekCount"), 0)
        // Line 9: a DRM session error, non-fatal (PlaybackStats' `onDrmSessionManagerError`).
        XCTAssertEqual(kpis[0].int("errorCount"), 1)
        XCTAssertEqual(kpis[0].int("nonFatalErrorCount"), 1)
        XCTAssertEqual(kpis[0][name: "ended"], .bool(true))
        // Playback 2: the player goes on playing, 11000–21000; line 11 pauses it at the end of
        // the item (a pause, as in PlaybackStats, which does not look at the reason).
        XCTAssertEqual(kpis[1].int("playTime"), 10_000)
        XCTAssertEqual(kpis[1].int("pauseCount"), 1)
        XCTAssertEqual(kpis[1].int("errorCount"), 0)
    }

    func testStandardInputCannotBeCountedFirstSoPlayersShareATracker() throws {
        let text = try String(contentsOfFile: Support.fixture("exoplayer-interleaved-sessions.log"), encoding: .utf8)
        let (settings, steps, warnings) = try Support.read(bytes: text, format: .exoplayerLog)
        XCTAssertEqual(settings.trackers.map(\.name), ["content"])
        XCTAssertEqual(Set(steps.map(\.tracker)), [0])
        XCTAssertTrue(warnings.contains { $0.contains("they share one tracker") }, "\(warnings)")
    }

    func testNothingInTheFormatIsAnErrorNamingTheFile() {
        XCTAssertThrowsError(
            try Support.read(bytes: "t,tracker,action\n0,content,Start\n", format: .exoplayerLog, name: "a.csv")
        ) {
            XCTAssertEqual(
                "\($0)",
                "a.csv: no ExoPlayer EventLogger lines: expected logcat lines such as \"D EventLogger: state [eventTime=0.51, mediaPos=0.00, window=0, BUFFERING]\""
            )
        }
    }

    func testWarningsEscapeControlCharactersAndStopAfterTwenty() throws {
        var text = "D EventLogger: state [eventTime=0.10, mediaPos=0.00, window=0, BUFFERING]\n"
        for i in 0..<25 { text += "D EventLogger: volume [eventTime=\(i).50, mediaPos=0.00, window=0, 7\u{1B}]31m]\n" }
        let (_, _, warnings) = try Support.read(bytes: text, format: .exoplayerLog)
        XCTAssertEqual(warnings.count, 20 + 1)
        XCTAssertTrue(warnings[0].contains("7\\u001b]31m"), warnings[0])
        XCTAssertFalse(warnings.joined().contains("\u{1B}"))
        XCTAssertEqual(warnings[20], "<stdin>: 5 more warnings like these (only the first 20 are shown)")
    }

    func testHostileNumbersNeitherTrapNorGoBackwards() throws {
        let text = """
            D EventLogger: state [eventTime=999999999999999999, mediaPos=0.00, window=0, BUFFERING]
            D EventLogger: state [eventTime=999999999999.99, mediaPos=999999999999.99, window=0, READY]
            D EventLogger: droppedFrames [eventTime=999999999999.99, mediaPos=0.00, window=0, 9223372036854775807]
            D EventLogger: droppedFrames [eventTime=999999999999.99, mediaPos=0.00, window=0, 9223372036854775807]
            D EventLogger: videoSize [eventTime=999999999999.99, mediaPos=0.00, window=0, 99999999999999999999, 1]
            D EventLogger: positionDiscontinuity [eventTime=999999999999.99, mediaPos=0.00, window=0, reason=SEEK, PositionInfo:old [pos=1], PositionInfo:new [pos=99999999999999999999999]]
            """
        let (_, steps, _) = try Support.read(bytes: text, format: .exoplayerLog)
        XCTAssertEqual(steps.map(\.t), steps.map(\.t).sorted())
        XCTAssertTrue(steps.allSatisfy { $0.t <= FieldReader.maxMilliseconds })
    }

    func testEventTimesOfEveryEra() {
        func parse(_ text: String) -> EventLoggerLine {
            Array(text.utf8).withUnsafeBufferPointer { buffer in
                var line = EventLoggerLine.parse(buffer)
                line.readDetails(buffer)
                return line
            }
        }
        let b2 = parse("D EventLogger: state [eventTime=1.96, mediaPos=?, window=0, period=1, adGroup=0, ad=1, READY]")
        XCTAssertEqual(b2.eventTime, 1960)
        XCTAssertNil(b2.mediaPos)
        XCTAssertEqual(b2.details, ["READY"])
        let b1 = parse("D/EventLogger( 9578): decoderInitialized [1.96, 0.50, window=0, period=0, video, OMX.x]")
        XCTAssertEqual(b1.eventTime, 1960)
        XCTAssertEqual(b1.mediaPos, 500)
        XCTAssertEqual(b1.envelope.pid, nil, "-v brief without a time: no pid either")
        let a = parse("EventLogger: state [3.22, true, B]")
        XCTAssertEqual(a.eventTime, 3220)
        XCTAssertEqual(a.details, ["true", "B"])
        XCTAssertNil(parse("EventLogger: loading [true]").eventTime)
        // Two decimals in every version; a third is kept, a fourth rounds.
        XCTAssertEqual(parse("state [eventTime=0.0125, mediaPos=0.00, window=0, IDLE]").eventTime, 13)
        XCTAssertEqual(
            parse("Verbose/ExoPlayer: isPlaying [eventTime=12.34, mediaPos=0.00, window=0, true]").name, "isPlaying")
        XCTAssertEqual(parse("com.pkg D ExoPlayerImplInternal: Playback error").kind, .other)
        XCTAssertEqual(parse("03-14 10:21:47.041 1 1 D EventLogger: ]").kind, .blockEnd)
    }

    func testLogcatEnvelopes() {
        func envelope(_ text: String) -> LogcatEnvelope {
            Array(text.utf8).withUnsafeBufferPointer { LogcatEnvelope($0, end: $0.count) }
        }
        let day = 86_400_000
        XCTAssertEqual(
            envelope("03-14 10:21:47.041 19692 19750 D EventLogger: "),
            LogcatEnvelope(wallClock: LogcatEnvelope.daysFromCivil(2000, 3, 14) * day + 37_307_041, pid: 19692))
        XCTAssertEqual(
            envelope("2019-10-23 17:07:17.183 10962-10962/com.pkg D/EventLogger: "),
            LogcatEnvelope(wallClock: LogcatEnvelope.daysFromCivil(2019, 10, 23) * day + 61_637_183, pid: 10962))
        XCTAssertEqual(
            envelope("2025-12-16 10:38:27.277 13196-13196 EventLogger   com.pkg   D  "),
            LogcatEnvelope(wallClock: LogcatEnvelope.daysFromCivil(2025, 12, 16) * day + 38_307_277, pid: 13196))
        XCTAssertEqual(
            envelope("12:23:24.169 EventLogger             D  "),
            LogcatEnvelope(wallClock: LogcatEnvelope.daysFromCivil(2000, 1, 1) * day + 44_604_169, pid: nil))
        XCTAssertEqual(
            envelope("12-22 21:13:49.730 D/EventLogger( 9578): "),
            LogcatEnvelope(wallClock: LogcatEnvelope.daysFromCivil(2000, 12, 22) * day + 76_429_730, pid: 9578))
        XCTAssertEqual(
            envelope("\tLine 13757: 02-29 00:00:00.000  3100  3100 D EventLogger: "),
            LogcatEnvelope(wallClock: LogcatEnvelope.daysFromCivil(2000, 2, 29) * day, pid: 3100))
        XCTAssertEqual(envelope("EventLogger: "), LogcatEnvelope.none)
        // 1970-01-01 is day 0; 2000-03-01 is 11017 days later.
        XCTAssertEqual(LogcatEnvelope.daysFromCivil(1970, 1, 1), 0)
        XCTAssertEqual(LogcatEnvelope.daysFromCivil(2000, 3, 1), 11_017)
    }
}

extension LogcatEnvelope {
    fileprivate init(wallClock: Int?, pid: Int?) {
        self = .none
        self.wallClock = wallClock
        self.pid = pid
    }
}
