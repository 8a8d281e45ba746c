import AVTCore
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// KPIs of generic trackers' actions, worked out by hand (in the comments) from the state
/// history: MediaRequest asks to play (JOINING), Start is the first frame (PLAYING),
/// BufferBegin/BufferFinish after it are BUFFERING/PLAYING, PauseBegin…PauseFinish is PAUSED,
/// SeekBegin…SeekFinish is SEEKING, End is ENDED, Stop is STOPPED.
final class KPITests: XCTestCase {
    private func kpis(_ steps: String, trackers: String = #"[{"name": "c"}]"#) throws -> SessionKPIs {
        try KPITestSupport.session(steps, trackers: trackers)
    }

    private func values(_ session: SessionKPIs, _ n: Int = 0, _ definitions: KPIDefinitions = .openavt) -> [String:
        KPIValue]
    {
        KPITestSupport.values(session, n, definitions)
    }

    private func step(_ t: Int, _ action: String, _ tracker: String = "c") -> String {
        KPITestSupport.step(t, action, tracker)
    }

    func testPlainPlaybackWithRebufferPauseAndSeek() throws {
        // Request 0, load 100, Start 1000 → startup 1000 (join 0–1000). Rebuffer 5000–6000.
        // Pause 10000–14000 with a seek 11000–11500 inside it: SEEKING wins over PAUSED
        // (PlaybackStatsListener.resolveNewPlaybackState), its buffer 11100–11400 is seek time.
        // Play: 1000→5000 + 6000→10000 + 14000→20000 = 14000. Pause: 1000 + 2500 = 3500.
        let s = try kpis(
            [
                step(0, "MediaRequest"), step(100, "StreamLoad"), step(1000, "Start"), step(5000, "BufferBegin"),
                step(6000, "BufferFinish"), step(10000, "PauseBegin"), step(11000, "SeekBegin"),
                step(11100, "BufferBegin"),
                step(11400, "BufferFinish"), step(11500, "SeekFinish"), step(14000, "PauseFinish"), step(20000, "End"),
            ].joined(separator: ","))
        let v = values(s)
        XCTAssertEqual(v["startupTime"], .int(1000))
        XCTAssertEqual(v["started"], .bool(true))
        XCTAssertEqual(v["exitBeforeVideoStart"], .bool(false))
        XCTAssertEqual(v["playTime"], .int(14000))
        XCTAssertEqual(v["pauseTime"], .int(3500))
        XCTAssertEqual(v["pauseCount"], .int(2), "entering PAUSED from PLAYING, then from SEEKING")
        XCTAssertEqual(v["seekTime"], .int(500))
        XCTAssertEqual(v["seekCount"], .int(1))
        XCTAssertEqual(v["rebufferCount"], .int(1), "the buffer inside the seek is not a rebuffer")
        XCTAssertEqual(v["rebufferTime"], .int(1000))
        XCTAssertEqual(v["bufferTime"], .int(2000), "join 1000 + rebuffer 1000")
        XCTAssertEqual(v["waitTime"], .int(2500), "join + rebuffer + seek")
        XCTAssertEqual(v["rebufferRatio"], .double(1000.0 / 15000.0), "OpenAVT: over play + rebuffer")
        XCTAssertEqual(v["rebufferFrequency"], .double(60000.0 / 14000.0))
        XCTAssertEqual(v["plays"], .int(1))
        XCTAssertEqual(v["ends"], .int(1))
        XCTAssertEqual(v["requests"], .int(1))
        XCTAssertEqual(v["loads"], .int(1))
        XCTAssertEqual(v["ended"], .bool(true))
        XCTAssertNil(v["averageBitrate"], "no bitrate in the timeline: absent, not guessed")
        // Mux watch time = join 1000 + play 14000 + rebuffer 1000 + seek 500 = 16500.
        XCTAssertEqual(values(s, 0, .mux)["rebufferRatio"], .double(1000.0 / 16500.0))
        // ExoPlayer getRebufferTimeRatio: play + join + rebuffer + seek = 16500.
        XCTAssertEqual(values(s, 0, .exoplayer)["rebufferRatio"], .double(1000.0 / 16500.0))
        XCTAssertEqual(values(s, 0, .exoplayer)["startupTime"], .int(1000))
        // CTA watched time runs from the request and leaves pauses out: also 16500 (WG#9).
        XCTAssertEqual(values(s, 0, .cta)["rebufferRatio"], .double(1000.0 / 16500.0))
    }

    func testABufferOpenAtStartEndsAtTheFirstFrame() throws {
        // Load 0, buffer 100–900, Start 600: the join ends at the first frame (600), the
        // BufferFinish after it changes nothing. Play 600–2900.
        let s = try kpis(
            [
                step(0, "StreamLoad"), step(100, "BufferBegin"), step(600, "Start"), step(900, "BufferFinish"),
                step(2900, "End"),
            ].joined(separator: ","))
        let v = values(s)
        XCTAssertEqual(v["startupTime"], .int(600))
        XCTAssertEqual(v["rebufferCount"], .int(0))
        XCTAssertEqual(v["playTime"], .int(2300))
    }

    func testAPlaybackThatNeverStartsIsAnExitBeforeVideoStart() throws {
        let s = try kpis([step(0, "MediaRequest"), step(100, "StreamLoad"), step(5000, "Stop")].joined(separator: ","))
        let v = values(s)
        XCTAssertNil(v["startupTime"])
        XCTAssertEqual(v["started"], .bool(false))
        XCTAssertEqual(v["exitBeforeVideoStart"], .bool(true))
        XCTAssertEqual(v["playbackFailed"], .bool(false))
        XCTAssertEqual(v["abandoned"], .bool(true))
        XCTAssertEqual(v["plays"], .int(0))
        XCTAssertNil(v["rebufferRatio"], "OpenAVT: no play time, no ratio")
        XCTAssertEqual(values(s, 0, .exoplayer)["rebufferRatio"], .double(0), "getRebufferTimeRatio gives 0.0")
    }

    func testAnErrorBeforeStartIsAStartupErrorAndChangesExitsPerDefinition() throws {
        let s = try kpis([step(0, "StreamLoad"), step(500, "Error")].joined(separator: ","))
        let v = values(s)
        XCTAssertEqual(v["startupErrors"], .int(1))
        XCTAssertEqual(v["errorCount"], .int(1))
        XCTAssertEqual(v["playbackFailed"], .bool(true))
        XCTAssertEqual(v["exitBeforeVideoStart"], .bool(true), "OpenAVT counts failures as exits")
        XCTAssertEqual(values(s, 0, .exoplayer)["exitBeforeVideoStart"], .bool(true), "abandonedBeforeReady")
        XCTAssertEqual(values(s, 0, .mux)["exitBeforeVideoStart"], .bool(false), "Mux counts it as a failure instead")
        XCTAssertEqual(values(s, 0, .cta)["exitBeforeVideoStart"], .bool(false))
    }

    func testAMidStreamErrorFollowedByPlayIsNotAFailureForOpenAVTAndCTA() throws {
        // Error at 2000 (FAILED), the player goes on at 2500 (BufferFinish): 1000 + 2500 played.
        let s = try kpis(
            [
                step(0, "StreamLoad"), step(1000, "Start"), step(2000, "Error"), step(2500, "BufferFinish"),
                step(5000, "End"),
            ].joined(separator: ","))
        let v = values(s)
        XCTAssertEqual(v["startupErrors"], .int(0))
        XCTAssertEqual(v["errorCount"], .int(1))
        XCTAssertEqual(v["playTime"], .int(3500))
        XCTAssertEqual(v["playbackFailed"], .bool(false), "it did not end in the failure")
        XCTAssertEqual(values(s, 0, .cta)["playbackFailed"], .bool(false))
        XCTAssertEqual(values(s, 0, .exoplayer)["playbackFailed"], .bool(true), "fatalErrorPlaybackCount")
    }

    /// The issue's two playbacks on one tracker: each playback's own startup under every set.
    func testTwoPlaybacksOnOneTrackerEachHaveTheirOwnStartup() throws {
        let s = try kpis(
            [
                step(0, "MediaRequest"), step(100, "StreamLoad"), step(500, "Start"), step(20000, "End"),
                step(100_000, "MediaRequest"), step(100_100, "StreamLoad"), step(100_400, "Start"),
                step(130_000, "End"),
            ].joined(separator: ","))
        XCTAssertEqual(s.playbackIds.count, 2)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            // Request → first frame, and the join (JOINING from the request to READY) alike.
            XCTAssertEqual(values(s, 0, definitions)["startupTime"], .int(500), "\(definitions)")
            XCTAssertEqual(values(s, 1, definitions)["startupTime"], .int(400), "\(definitions)")
            XCTAssertEqual(values(s, 1, definitions)["requests"], .int(1), "the playback's own request")
            XCTAssertEqual(values(s, 1, definitions)["playTime"], .int(29600))
            let totals = KPITestSupport.totals(s, definitions)
            XCTAssertEqual(totals["startupTime"], .int(450), "mean of 500 and 400")
            XCTAssertEqual(totals["started"], .int(2))
            XCTAssertEqual(totals["playTime"], .int(19500 + 29600))
        }
        // The dashboard's StartTime: the hub accepts one MediaRequest per tracker, so the second
        // Start is measured from 0.
        XCTAssertEqual(values(s, 1)["startTimeMetric"], .int(100_400))
        XCTAssertEqual(values(s, 0)["startTimeMetric"], .int(500))
    }

    func testASecondPlaybackAbandonedWhileBufferingIsAnExitBeforeVideoStart() throws {
        let s = try kpis(
            [
                step(0, "MediaRequest"), step(500, "Start"), step(10000, "End"), step(20000, "MediaRequest"),
                step(20100, "StreamLoad"), step(25000, "Stop"),
            ].joined(separator: ","))
        XCTAssertEqual(s.playbackIds.count, 2)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            XCTAssertEqual(values(s, 1, definitions)["exitBeforeVideoStart"], .bool(true), "\(definitions)")
            XCTAssertNil(values(s, 1, definitions)["startupTime"])
        }
        XCTAssertEqual(values(s, 1)["abandoned"], .bool(true))
    }

    func testPrerollAdsCountInStartupExceptForMuxAndTheJoin() throws {
        // Load 0, ad 100–5100 in a break 50–5200, Start 5500: OpenAVT and CTA 5500; Mux ends at
        // the ad's first frame: 100; ExoPlayer's join leaves the ad out (INTERRUPTED_BY_AD):
        // 0–50 + 5200–5500 = 350.
        let s = try kpis(
            [
                step(0, "StreamLoad"), step(50, "AdBreakBegin", "ads"), step(100, "AdBegin", "ads"),
                step(5100, "AdFinish", "ads"),
                step(5200, "AdBreakFinish", "ads"), step(5500, "Start"), step(8000, "End"),
            ].joined(separator: ","), trackers: #"[{"name": "c"}, {"name": "ads", "isAdsTracker": true}]"#)
        XCTAssertEqual(values(s)["startupTime"], .int(5500))
        XCTAssertEqual(values(s, 0, .cta)["startupTime"], .int(5500))
        XCTAssertEqual(values(s, 0, .mux)["startupTime"], .int(100))
        XCTAssertEqual(values(s, 0, .exoplayer)["startupTime"], .int(350))
        XCTAssertEqual(values(s)["adBreakCount"], .int(1))
        XCTAssertEqual(values(s)["adCount"], .int(1))
        XCTAssertEqual(values(s)["adTime"], .int(5000))
        XCTAssertEqual(values(s)["rebufferCount"], .int(0), "the join is not a rebuffer")
    }

    func testCTAWatchedTimeCountsFromTheRequest() throws {
        // WG#9: watched time from playbackRequest, pauses left out: join 2000 + play 17000 +
        // stall 1000 = 20000 → stall ratio 0.05.
        let s = try kpis(
            [
                step(0, "MediaRequest"), step(2000, "Start"), step(10000, "BufferBegin"), step(11000, "BufferFinish"),
                step(20000, "End"),
            ].joined(separator: ","))
        XCTAssertEqual(values(s, 0, .cta)["rebufferRatio"], .double(0.05))
        XCTAssertEqual(values(s, 0, .cta)["startupTime"], .int(2000))
    }

    func testBitrateIsWeightedByPlayTimeAtTheRenditionThatPlayed() throws {
        // 1000–4000 at 1 Mbps (3000 ms), 4000–5000 at 3 Mbps (1000 ms): (3e9 + 3e9) / 4000 = 1.5 Mbps.
        let s = try kpis(
            #"{"t": 0, "tracker": "c", "set": {"bitrate": 1000000}, "action": "StreamLoad"}, {"t": 1000, "tracker": "c", "action": "Start"}, {"t": 4000, "tracker": "c", "set": {"bitrate": 3000000}, "action": "QualityChangeUp"}, {"t": 5000, "tracker": "c", "action": "End"}"#
        )
        XCTAssertEqual(values(s)["averageBitrate"], .int(1_500_000))
        XCTAssertEqual(values(s)["initialVideoBitrate"], .int(1_000_000))
        XCTAssertEqual(values(s)["qualityUpCount"], .int(1))
    }

    func testAnEventLogCannotKnowARequestTheHubBlocked() throws {
        // The same two playbacks, read back from the events: the hub delivered the first
        // MediaRequest only, so the second playback's startup is absent, not borrowed.
        let text = """
            {"trackers": [{"name": "c"}], "steps": [\([
                step(0, "MediaRequest"), step(100, "StreamLoad"), step(500, "Start"), step(20000, "End"),
                step(100_000, "MediaRequest"), step(100_100, "StreamLoad"), step(100_400, "Start"),
                step(130_000, "End"),
            ].joined(separator: ","))]}
            """
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "h.json")
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: RunOptions(), sink: sink)
        let fromLog = SessionKPIs.fromRecords("h", try OutputLog.read(ByteInput(bytes: sink.bytes, name: "log")))
        XCTAssertEqual(fromLog.playbackIds.count, 2)
        XCTAssertEqual(values(fromLog, 0)["startupTime"], .int(500))
        XCTAssertNil(values(fromLog, 1)["startupTime"])
        XCTAssertNil(values(fromLog, 1, .exoplayer)["startupTime"])
        XCTAssertEqual(values(fromLog, 1)["startTimeMetric"], .int(100_400))
        XCTAssertEqual(values(fromLog, 1)["playTime"], .int(29600))
    }

    func testAnEventLogKeepsTheNextJoinOutOfTheEndedPlayback() throws {
        // After End the hub gives a new playbackId; its first delivered event is the next
        // join's BufferBegin (the StreamLoad was blocked). It is neither a rebuffer of the ended
        // playback nor a playback of its own: the next playback begins at its Start.
        let steps = [
            step(0, "StreamLoad"), step(500, "Start"), step(20000, "End"), step(100_000, "StreamLoad"),
            step(100_100, "BufferBegin"), step(100_400, "Start"), step(100_500, "BufferFinish"),
            step(130_000, "End"),
        ]
        let text = #"{"trackers": [{"name": "c"}], "steps": ["# + steps.joined(separator: ",") + "]}"
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "h.json")
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: RunOptions(), sink: sink)
        let fromLog = SessionKPIs.fromRecords("h", try OutputLog.read(ByteInput(bytes: sink.bytes, name: "log")))
        XCTAssertEqual(fromLog.playbackIds.count, 2)
        XCTAssertEqual(values(fromLog, 0)["rebufferCount"], .int(0))
        XCTAssertEqual(values(fromLog, 0)["playTime"], .int(19500))
        XCTAssertEqual(values(fromLog, 1)["playTime"], .int(29600))
        XCTAssertEqual(values(fromLog, 1)["rebufferCount"], .int(0))
    }

    func testEventLogGivesTheSameKPIsAsTheReplayForOnePlayback() throws {
        let text = try String(
            contentsOf: Streaming.fixtures.first { $0.lastPathComponent == "happy-path.json" }!, encoding: .utf8)
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "h.json")
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: RunOptions(), sink: sink)
        let fromLog = SessionKPIs.fromRecords("h", try OutputLog.read(ByteInput(bytes: sink.bytes, name: "log")))
        var source = DocumentSource(timeline, name: "h")
        let replayed = try KPISessions.replay(&source, session: "h").0
        XCTAssertEqual(fromLog.playbackIds.count, 1)
        let a = fromLog.playback(fromLog.playbackIds[0], definitions: .openavt)
        let b = replayed.playback(replayed.playbackIds[0], definitions: .openavt)
        XCTAssertEqual(a.map(\.name), b.map(\.name))
        XCTAssertEqual(a.map(\.value), b.map(\.value))
    }

    func testPlaybackIdsDifferBetweenSessionsAndRepeat() {
        let a = SessionHistory.playbackId(session: "a.json", index: 0)
        XCTAssertEqual(a, SessionHistory.playbackId(session: "a.json", index: 0))
        XCTAssertNotEqual(a, SessionHistory.playbackId(session: "b.json", index: 0))
        XCTAssertNotEqual(a, SessionHistory.playbackId(session: "a.json", index: 1))
        XCTAssertNotEqual(a.prefix(8), SessionHistory.playbackId(session: "b.json", index: 0).prefix(8))
    }

    func testAggregatePercentilesUseNearestRank() {
        let playbacks: [[KPI]] = (1...10).map { [KPI("playTime", .int($0 * 100))] }
        let stats = Dictionary(
            KPIAggregate.compute(playbacks).first { $0.0 == "playTime" }!.1, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(stats["count"], 10)
        XCTAssertEqual(stats["mean"], 550)
        XCTAssertEqual(stats["min"], 100)
        XCTAssertEqual(stats["p50"], 500)
        XCTAssertEqual(stats["p90"], 900)
        XCTAssertEqual(stats["p95"], 1000)
        XCTAssertEqual(stats["max"], 1000)
    }

    func testPooledRatiosAddBeforeDividing() throws {
        // Mux: A watches 10000 (join 0) with a 1000 ms rebuffer, B watches 30000 without: the
        // dashboard's Σ rebuffer ÷ Σ watch = 1000 / 40000, not the mean of 0.1 and 0.
        let a = try kpis(
            [
                step(0, "Start"), step(4000, "BufferBegin"), step(5000, "BufferFinish"), step(10000, "End"),
            ].joined(separator: ","))
        let b = try kpis([step(0, "Start"), step(30000, "End")].joined(separator: ","))
        XCTAssertEqual(values(a, 0, .mux)["rebufferRatio"], .double(0.1))
        let pooled = Dictionary(
            KPIAggregate.pooled([a, b], definitions: .mux).map { ($0.name, $0.value) }, uniquingKeysWith: { x, _ in x })
        XCTAssertEqual(pooled["rebufferRatio"], .double(0.025))
        XCTAssertEqual(pooled["playTime"], .int(39000))
    }
}

/// Sums of times from any number of records never trap: they stop at Int.max.
final class KPISaturationTests: XCTestCase {
    func testTimeSumsAndMeansHoldAtTheLimitsInsteadOfTrapping() {
        XCTAssertEqual(Int.max.saturatingAdding(1), .max)
        XCTAssertEqual(Int.min.saturatingAdding(-1), .min)
        XCTAssertEqual(40.saturatingAdding(2), 42)
        XCTAssertEqual(Int.max.saturatingMultiplied(by: 2), .max)
        var f = PlaybackFigures()
        f.toFirstFrame = .max
        f.toFirstFrameCount = 1
        f.durations[PlaybackState.playing.rawValue] = .max
        var g = f
        g.merge(f)
        XCTAssertEqual(g.time(.playing), .max)
        // Σ held at Int.max over 2 playbacks, halved in floating point: no trap.
        XCTAssertEqual(KPICalculator.values(g, .cta, flags: false)[name: "startupTime"], .int(1 << 62))
    }
}
