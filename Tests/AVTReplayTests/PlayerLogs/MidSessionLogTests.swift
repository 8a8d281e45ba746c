import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// EventLogger logs that begin in the middle of a session (docs/player-logs.md): which first
/// lines say so, the steps inferred, the `midSession` mark on the session's first step, and the
/// KPIs without a startup. A fresh player's first state other than IDLE is BUFFERING (prepare())
/// and its first isPlaying/playWhenReady change can only be to true (EventLogger prints changes;
/// `ExoPlayerImpl.prepare`, `EventLogger.onIsPlayingChanged`, `onPlayWhenReadyChanged`). KPIs are
/// worked by hand from the steps as ExoPlayerLogTests explains; open states run to the last step.
final class MidSessionLogTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    override class func tearDown() { CSVTestSupport.removeFiles() }

    private func kpis(_ log: String, _ definitions: KPIDefinitions = .openavt) throws -> [[KPI]] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("midsession-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("session.log").path
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        let session = try KPISessions.replay(path)
        return session.playbackIds.map { session.playback($0, definitions: definitions) }
    }

    private static func line(_ name: String, _ seconds: String, _ details: String) -> String {
        "D EventLogger: \(name) [eventTime=\(seconds), mediaPos=0.00, window=0, period=0, \(details)]"
    }

    /// The fixture (`isPlaying false` first, line 1) in every definition set: no startup, no
    /// StartTime, no first format (line 6's 1080 came 17 s into the log); the rest as
    /// ExoPlayerLogTests works it out: paused 754310–761540 (7230), playing 761540–775040
    /// (13500) and 776290 to the log's last line at 786290 (10000), a stall 775040–776290 (1250).
    func testTheMidSessionFixtureHasNoStartupInAnyDefinitionSet() throws {
        let path = Support.fixture("exoplayer-studio-midsession-cut.log")
        let session = try KPISessions.replay(path)
        XCTAssertEqual(session.playbackIds.count, 1)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let k = session.playback(session.playbackIds[0], definitions: definitions)
            for name in ["startupTime", "startTimeMetric", "initialVideoHeight", "initialVideoBitrate"] {
                XCTAssertNil(k[name: name], "\(name) (\(definitions))")
            }
            XCTAssertEqual(k[name: "started"], .bool(true), "\(definitions)")
            XCTAssertEqual(k[name: "exitBeforeVideoStart"], .bool(false), "\(definitions)")
            XCTAssertEqual(k.int("playTime"), 23_500, "\(definitions)")
            XCTAssertEqual(k.int("pauseTime"), 7230, "\(definitions)")
            XCTAssertEqual(k.int("pauseCount"), 1, "\(definitions)")
            XCTAssertEqual(k.int("rebufferTime"), 1250, "\(definitions)")
            if definitions == .exoplayer {
                // The log has a video size but no downstream format: PlaybackStats has no format
                // for the size to fill in (`PlaybackStatsTracker.onEvents`), so no mean height.
                XCTAssertNil(k[name: "averageResolutionHeight"])
            } else {
                XCTAssertEqual(k.int("averageResolutionHeight"), 1080, "\(definitions)")
            }
            let totals = session.totals(definitions: definitions)
            XCTAssertNil(totals[name: "startupTime"], "\(definitions)")
            XCTAssertEqual(totals.int("started"), 1, "\(definitions)")
        }
    }

    /// Media3: `state READY` first, no BUFFERING before it, then `isPlaying true` at the same
    /// time: loaded before the log (a marked BUFFERING), READY and playing in one step.
    func testAFirstReadyMeansTheStreamLoadedBeforeTheLog() throws {
        let log = [
            Self.line("state", "100.00", "READY"), Self.line("isPlaying", "100.00", "true"),
            Self.line("state", "110.00", "ENDED"),
        ].joined(separator: "\n")
        let (settings, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "100000 content midSession=true playbackState=\"BUFFERING\"",
                "100000 content contentPosition=0 playbackState=\"READY\" playWhenReady=true",
                "110000 content contentPosition=0 playbackState=\"ENDED\"",
            ])
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(
            warnings[0].hasPrefix(
                "<stdin>:1: the log starts mid-session (state READY first, without the BUFFERING of its start): "
                    + "inferred the stream was loaded before; its startup is not in the log"), warnings[0])
        let k = try XCTUnwrap(try kpis(log).first)
        XCTAssertNil(k[name: "startupTime"])
        XCTAssertEqual(k.int("playTime"), 10_000, "100000–110000")
        XCTAssertEqual(k.int("pauseCount"), 0, "ready and playing at once: no pause")
        XCTAssertEqual(k[name: "ended"], .bool(true))
    }

    /// A play request first says nothing, but the READY after it without a BUFFERING does: the
    /// load is inferred (marked) before the READY, which plays at once with the known request.
    func testAFirstReadyAfterAPlayRequest() throws {
        let log = [
            Self.line("playWhenReady", "40.00", "true, USER_REQUEST"), Self.line("state", "41.00", "READY"),
            Self.line("isPlaying", "41.00", "true"), Self.line("state", "45.00", "ENDED"),
        ].joined(separator: "\n")
        let (settings, steps, _) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "40000 content playWhenReady=true playWhenReadyChangeReason=\"USER_REQUEST\"",
                "41000 content midSession=true playbackState=\"BUFFERING\"",
                "41000 content contentPosition=0 playbackState=\"READY\"",
                "45000 content contentPosition=0 playbackState=\"ENDED\"",
            ])
        let k = try XCTUnwrap(try kpis(log, .cta).first)
        XCTAssertNil(k[name: "startupTime"], "not 1000 from the request at 40000")
        XCTAssertEqual(k.int("playTime"), 4000, "41000–45000")
        XCTAssertEqual(k.int("pauseCount"), 0)
    }

    /// Up to r2.11 the state line carries playWhenReady: `true, READY` first is one step.
    func testAFirstReadyWithItsPlayWhenReadyUpTo2_11() throws {
        let log =
            "D/EventLogger( 9578): state [12.00, 8.00, window=0, period=0, true, READY]\n"
            + "D/EventLogger( 9578): state [15.00, 11.00, window=0, period=0, true, ENDED]\n"
        let (settings, steps, _) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "12000 content midSession=true playbackState=\"BUFFERING\"",
                "12000 content contentPosition=8000 playWhenReady=true playbackState=\"READY\"",
                "15000 content contentPosition=11000 playbackState=\"ENDED\"",
            ])
        let k = try XCTUnwrap(try kpis(log, .exoplayer).first)
        XCTAssertNil(k[name: "startupTime"], "PlaybackStats' join would be 0 ms")
        XCTAssertEqual(k.int("playTime"), 3000)
    }

    /// `state ENDED` first: it played to the end before the log.
    func testAFirstEndedMeansItWasPlaying() throws {
        let log = Self.line("state", "200.00", "ENDED")
        let (settings, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "200000 content midSession=true playbackState=\"BUFFERING\"",
                "200000 content playbackState=\"READY\" playWhenReady=true",
                "200000 content contentPosition=0 playbackState=\"ENDED\"",
            ])
        XCTAssertTrue(warnings[0].contains("(state ENDED first): inferred the player was playing before"), warnings[0])
        let k = try XCTUnwrap(try kpis(log).first)
        XCTAssertNil(k[name: "startupTime"])
        XCTAssertEqual(k[name: "started"], .bool(true))
        XCTAssertEqual(k[name: "exitBeforeVideoStart"], .bool(false), "it played, before the log")
        XCTAssertEqual(k[name: "ended"], .bool(true))
    }

    /// `isPlaying true` before any state: it plays from there (30000), paused at 35000.
    func testAFirstIsPlayingTrueMeansItPlaysFromThere() throws {
        let log = [
            Self.line("isPlaying", "30.00", "true"), Self.line("playWhenReady", "35.00", "false, USER_REQUEST"),
            Self.line("isPlaying", "35.00", "false"),
        ].joined(separator: "\n")
        let (settings, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "30000 content midSession=true playbackState=\"BUFFERING\"",
                "30000 content playbackState=\"READY\" playWhenReady=true",
                "35000 content playWhenReady=false playWhenReadyChangeReason=\"USER_REQUEST\"",
            ])
        XCTAssertTrue(warnings[0].contains("(isPlaying true first): inferred the stream was loaded"), warnings[0])
        let k = try XCTUnwrap(try kpis(log).first)
        XCTAssertNil(k[name: "startupTime"])
        XCTAssertEqual(k.int("playTime"), 5000, "30000–35000")
        XCTAssertEqual(k.int("pauseCount"), 1)
    }

    /// `playWhenReady true` first is no sign (play() before prepare()), nor is r2.7's
    /// `state [T, true, I]` (printed for that request): the BUFFERING that follows is the start,
    /// and the startup is measured: StreamLoad 100 → READY with play requested 900.
    func testAPlayRequestBeforeTheFirstBufferingIsAStart() throws {
        let log = [
            Self.line("playWhenReady", "0.05", "true, USER_REQUEST"), Self.line("state", "0.10", "BUFFERING"),
            Self.line("state", "0.90", "READY"), Self.line("isPlaying", "0.90", "true"),
            Self.line("state", "5.90", "ENDED"),
        ].joined(separator: "\n")
        let (_, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(Support.count(steps, "midSession"), 0)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(try XCTUnwrap(try kpis(log).first).int("startupTime"), 800)
        for fixture in [
            "exoplayer-media3-threadtime.log", "exoplayer-2.11-studio-classic.log", "exoplayer-2.9-brief.log",
            "exoplayer-2.7-bare.log", "exoplayer-interleaved-sessions.log",
        ] {
            let (_, steps, _) = try Support.read(Support.fixture(fixture))
            XCTAssertEqual(Support.count(steps, "midSession"), 0, "\(fixture) shows its starts")
        }
    }

    /// eventTime counts from the player's creation (EventLogger's start), and apps prepare a
    /// player within moments of creating it: a first BUFFERING 1668.52 s in is a rebuffer, a
    /// seek or a new item of a session under way, not prepare(). The stream was loaded before:
    /// no startup; READY with isPlaying true at 1669.10 plays until the last line, isPlaying
    /// false at 1679.10 (10000 ms). A first BUFFERING at 59.99 s is still a start.
    func testAFirstBufferingLongAfterThePlayerWasCreatedIsMidSession() throws {
        let late = [
            Self.line("state", "1668.52", "BUFFERING"), Self.line("state", "1669.10", "READY"),
            Self.line("isPlaying", "1669.10", "true"), Self.line("isPlaying", "1679.10", "false"),
        ].joined(separator: "\n")
        let (_, steps, warnings) = try Support.read(bytes: late, format: .exoplayerLog)
        XCTAssertEqual(Support.count(steps, "midSession"), 1)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(
            warnings[0].hasPrefix(
                "<stdin>:1: the log starts mid-session (its first state, BUFFERING, is at eventTime 1668.52 s, long after the player was created)"
            ), warnings[0])
        let k = try XCTUnwrap(try kpis(late).first)
        XCTAssertNil(k[name: "startupTime"])
        XCTAssertEqual(k[name: "started"], .bool(true))
        XCTAssertEqual(k.int("playTime"), 10_000)

        let early = [
            Self.line("state", "59.99", "BUFFERING"), Self.line("playWhenReady", "60.00", "true, USER_REQUEST"),
            Self.line("state", "60.50", "READY"),
        ].joined(separator: "\n")
        let (_, earlySteps, earlyWarnings) = try Support.read(bytes: early, format: .exoplayerLog)
        XCTAssertEqual(Support.count(earlySteps, "midSession"), 0)
        XCTAssertEqual(earlyWarnings, [])
        XCTAssertEqual(try XCTUnwrap(try kpis(early).first).int("startupTime"), 510)
    }

    /// Two players in one log: the first begins before the log (`isPlaying false` first, line
    /// 1) and is marked; the second (Init, eventTime back to 0.10) shows its start and keeps its
    /// startup. The first: paused 500000–504000, playing 504000–510000 (ENDED, line 5). The
    /// second, laid from 510000: BUFFERING 510100, play 510120, READY 510900, ENDED 520900, so
    /// a join of 800 (PlaybackStats; OpenAVT from the StreamLoad at 510100) and 780 from the
    /// play request (CTA, Mux).
    func testOnlyTheSessionWhoseStartIsMissingIsMarked() throws {
        let log = [
            Self.line("isPlaying", "500.00", "false"), Self.line("playWhenReady", "500.00", "false, USER_REQUEST"),
            Self.line("playWhenReady", "504.00", "true, USER_REQUEST"), Self.line("isPlaying", "504.00", "true"),
            Self.line("state", "510.00", "ENDED"),
            "I ExoPlayerImpl: Release 1a2b3c [AndroidXMedia3/1.4.1] [panther, Pixel 7, Google, 34] [media3.common]",
            "I ExoPlayerImpl: Init 4d5e6f [AndroidXMedia3/1.4.1] [panther, Pixel 7, Google, 34]",
            Self.line("state", "0.10", "BUFFERING"), Self.line("playWhenReady", "0.12", "true, USER_REQUEST"),
            Self.line("state", "0.90", "READY"), Self.line("isPlaying", "0.90", "true"),
            Self.line("state", "10.90", "ENDED"),
        ].joined(separator: "\n")
        let (_, steps, warnings) = try Support.read(bytes: log, format: .exoplayerLog)
        XCTAssertEqual(Support.count(steps, "midSession"), 1)
        XCTAssertEqual(steps.first { !$0.observe.isEmpty }?.observe.first?.key, "midSession")
        XCTAssertEqual(warnings.filter { $0.contains("mid-session") }.count, 1, "\(warnings)")
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let k = try kpis(log, definitions)
            XCTAssertEqual(k.count, 2, "\(definitions)")
            XCTAssertNil(k[0][name: "startupTime"], "\(definitions)")
            XCTAssertEqual(k[0].int("playTime"), 6000, "\(definitions)")
            XCTAssertEqual(k[0].int("pauseTime"), 4000, "\(definitions)")
            let startup = definitions == .cta || definitions == .mux ? 780 : 800
            XCTAssertEqual(k[1].int("startupTime"), startup, "\(definitions)")
            XCTAssertEqual(k[1].int("playTime"), 10_000, "\(definitions)")
        }
    }

    /// From standard input the two players share one tracker: the mark, coming after the first
    /// player's Stop, begins a playback of its own, so the first keeps its startup (800).
    func testOnStandardInputTheMarkStillBeginsItsOwnPlayback() throws {
        let log = [
            Self.line("state", "0.10", "BUFFERING"), Self.line("playWhenReady", "0.12", "true, USER_REQUEST"),
            Self.line("state", "0.90", "READY"), Self.line("isPlaying", "0.90", "true"),
            "I ExoPlayerImpl: Init 4d5e6f [AndroidXMedia3/1.4.1] [panther, Pixel 7, Google, 34]",
            Self.line("isPlaying", "500.00", "false"), Self.line("playWhenReady", "500.00", "false, USER_REQUEST"),
            Self.line("playWhenReady", "504.00", "true, USER_REQUEST"), Self.line("state", "510.00", "ENDED"),
        ].joined(separator: "\n")
        var source = try TimelineReader.open(
            ByteInput(bytes: Array(log.utf8), name: "<stdin>"), format: .exoplayerLog, csvTrackers: [],
            warn: { _ in })
        XCTAssertEqual(source.settings.trackers.map(\.name), ["content"])
        let session = try KPISessions.replay(&source, session: "<stdin>").0
        let k = session.playbackIds.map { session.playback($0, definitions: .openavt) }
        XCTAssertEqual(k.count, 2)
        XCTAssertEqual(k[0].int("startupTime"), 800, "StreamLoad 100 → playing 900")
        XCTAssertNil(k[1][name: "startupTime"])
        // Laid after the first player (its last time, 900): paused 500900–504900, playing
        // 504900–510900 (ENDED).
        XCTAssertEqual(k[1].int("pauseTime"), 4000)
        XCTAssertEqual(k[1].int("playTime"), 6000)
    }

    /// The mark is in the timeline: the log converted to JSON Lines or JSON, then replayed, gives
    /// the same KPIs as the log, and the converted timeline says `"midSession":true`.
    func testAConvertedMidSessionLogGivesTheSameKPIs() throws {
        let path = Support.fixture("exoplayer-studio-midsession-cut.log")
        let timeline = try CSVTestSupport.collect(path: path)
        let fromLog = try KPISessions.replay(path)
        for format in [TimelineFormat.jsonl, .json] {
            let text = try CSVTestSupport.convert(timeline, to: format)
            XCTAssertTrue(text.contains(#""observe":{"midSession":true,"playbackState":"BUFFERING"}"#), text)
            let file = try CSVTestSupport.file(text, name: "midsession.\(format == .json ? "json" : "jsonl")")
            let replayed = try KPISessions.replay(file)
            for definitions in KPIDefinitions.allCases where definitions != .shaka {
                XCTAssertEqual(
                    replayed.playback(replayed.playbackIds[0], definitions: definitions),
                    fromLog.playback(fromLog.playbackIds[0], definitions: definitions), "\(format) \(definitions)")
                XCTAssertEqual(
                    replayed.totals(definitions: definitions), fromLog.totals(definitions: definitions),
                    "\(format) \(definitions)")
            }
            XCTAssertNil(replayed.playback(replayed.playbackIds[0], definitions: .openavt)[name: "startupTime"])
        }
    }
}
