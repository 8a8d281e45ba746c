import AVTCore
import XCTest

@testable import AVTAnalysis
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// KPIs on timelines whose values were worked out by hand (in the comments).
final class KPITests: XCTestCase {
    private func kpis(_ steps: String, trackers: String = #"[{"name": "c"}]"#) throws -> SessionKPIs {
        let text = "{\"trackers\": \(trackers), \"steps\": [\(steps)]}"
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
        let backend = KPIBackend(session: "t.json")
        var source = DocumentSource(timeline, name: "t.json")
        _ = try Replayer.replay(&source, options: RunOptions(), backend: backend)
        return backend.kpis
    }

    private func values(_ session: SessionKPIs, _ n: Int = 0, _ definitions: KPIDefinitions = .openavt) -> [String:
        KPIValue]
    {
        Dictionary(
            session.playback(session.playbackIds[n], definitions: definitions).map { ($0.name, $0.value) },
            uniquingKeysWith: { a, _ in a })
    }

    private func step(_ t: Int, _ action: String, _ tracker: String = "c") -> String {
        #"{"t": \#(t), "tracker": "\#(tracker)", "action": "\#(action)"}"#
    }

    func testPlainPlaybackWithRebufferPauseAndSeek() throws {
        // Request 0, load 100, Start 1000 → startup 1000. Rebuffer 5000–6000. Pause 10000–14000
        // with a seek 11000–11500 inside it (its buffer 11100–11400 is not a rebuffer). End 20000.
        // Play: 1000→5000 (4000) + 6000→10000 (4000) + 14000→20000 (6000) = 14000.
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
        XCTAssertEqual(v["pauseTime"], .int(4000))
        XCTAssertEqual(v["seekTime"], .int(500))
        XCTAssertEqual(v["bufferTime"], .int(1300))
        XCTAssertEqual(v["rebufferCount"], .int(1), "the buffer inside the seek/pause is not a rebuffer")
        XCTAssertEqual(v["rebufferTime"], .int(1000))
        XCTAssertEqual(v["rebufferRatio"], .double(1000.0 / 15000.0))
        XCTAssertEqual(v["rebufferFrequency"], .double(60000.0 / 14000.0))
        XCTAssertEqual(v["plays"], .int(1))
        XCTAssertEqual(v["ends"], .int(1))
        XCTAssertEqual(v["requests"], .int(1))
        XCTAssertEqual(v["loads"], .int(1))
        XCTAssertNil(v["averageBitrate"], "no bitrate in the timeline: absent, not guessed")
        // Mux: watch time = play 14000 + rebuffer 1000 + seek 500 + startup 1000 = 16500.
        XCTAssertEqual(values(s, 0, .mux)["rebufferRatio"], .double(1000.0 / 16500.0))
        // ExoPlayer: play + join + rebuffer + seek = 14000 + 1000 + 1000 + 500.
        XCTAssertEqual(values(s, 0, .exoplayer)["rebufferRatio"], .double(1000.0 / 16500.0))
        // CTA: play + rebuffer + seek = 15500.
        XCTAssertEqual(values(s, 0, .cta)["rebufferRatio"], .double(1000.0 / 15500.0))
    }

    func testABufferThatBeginsBeforeStartAndEndsAfterItIsARebuffer() throws {
        // As MetricalcCore (scenario S06): load 0, buffer 100–900, Start 600 → a 800 ms rebuffer.
        let s = try kpis(
            [
                step(0, "StreamLoad"), step(100, "BufferBegin"), step(600, "Start"), step(900, "BufferFinish"),
                step(2900, "End"),
            ].joined(separator: ","))
        let v = values(s)
        XCTAssertEqual(v["startupTime"], .int(600))
        XCTAssertEqual(v["rebufferCount"], .int(1))
        XCTAssertEqual(v["rebufferTime"], .int(800))
        XCTAssertEqual(v["playTime"], .int(2000))
    }

    func testAPlaybackThatNeverStartsIsAnExitBeforeVideoStart() throws {
        let s = try kpis([step(0, "MediaRequest"), step(100, "StreamLoad"), step(5000, "Stop")].joined(separator: ","))
        let v = values(s)
        XCTAssertNil(v["startupTime"])
        XCTAssertEqual(v["started"], .bool(false))
        XCTAssertEqual(v["exitBeforeVideoStart"], .bool(true))
        XCTAssertEqual(v["playbackFailed"], .bool(false))
        XCTAssertEqual(v["plays"], .int(0))
        XCTAssertNil(v["rebufferRatio"], "no play time: no ratio")
    }

    func testAnErrorBeforeStartIsAStartupErrorAndChangesExitsPerDefinition() throws {
        let s = try kpis([step(0, "StreamLoad"), step(500, "Error")].joined(separator: ","))
        let v = values(s)
        XCTAssertEqual(v["startupErrors"], .int(1))
        XCTAssertEqual(v["errorCount"], .int(1))
        XCTAssertEqual(v["playbackFailed"], .bool(true))
        XCTAssertEqual(v["exitBeforeVideoStart"], .bool(true), "OpenAVT counts failures as exits")
        XCTAssertEqual(values(s, 0, .exoplayer)["exitBeforeVideoStart"], .bool(true))
        XCTAssertEqual(values(s, 0, .mux)["exitBeforeVideoStart"], .bool(false), "Mux counts it as a failure instead")
        XCTAssertEqual(values(s, 0, .cta)["exitBeforeVideoStart"], .bool(false))
    }

    func testAMidStreamErrorFollowedByPlayIsNotAFailure() throws {
        let s = try kpis(
            [step(0, "StreamLoad"), step(1000, "Start"), step(2000, "Error"), step(5000, "End")].joined(separator: ","))
        let v = values(s)
        XCTAssertEqual(v["startupErrors"], .int(0))
        XCTAssertEqual(v["errorCount"], .int(1))
        XCTAssertEqual(v["playbackFailed"], .bool(false), "3000 ms played after the error")
    }

    func testTwoPlaybacksOnOneTrackerAreSeparateWithStartupFromTheFirstRequest() throws {
        // As scenario S10: the second playback has no request or load of its own; its StartTime counts
        // from the first MediaRequest (0), so 7000.
        let s = try kpis(
            [
                step(0, "MediaRequest"), step(100, "StreamLoad"), step(1000, "Start"), step(5000, "End"),
                step(6000, "MediaRequest"), step(6100, "StreamLoad"), step(7000, "Start"), step(9000, "End"),
            ].joined(separator: ","))
        XCTAssertEqual(s.playbackIds.count, 2)
        XCTAssertEqual(values(s, 0)["startupTime"], .int(1000))
        XCTAssertEqual(values(s, 0)["playTime"], .int(4000))
        XCTAssertEqual(values(s, 1)["startupTime"], .int(7000))
        XCTAssertEqual(values(s, 1)["requests"], .int(0), "the second request was blocked by the hub")
        XCTAssertEqual(values(s, 1)["playTime"], .int(2000))
        let totals = Dictionary(
            s.totals(definitions: .openavt).map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(totals["started"], .int(2))
        XCTAssertEqual(totals["playTime"], .int(6000))
        XCTAssertEqual(totals["startupTime"], .int(4000), "mean of 1000 and 7000")
    }

    func testPrerollAdsCountInStartupExceptForMux() throws {
        // Load 0, ad 100–5100 in a break 50–5200, Start 5500: OpenAVT 5500, Mux ends at the ad's
        // first frame: 100.
        let s = try kpis(
            [
                step(0, "StreamLoad"), step(50, "AdBreakBegin", "ads"), step(100, "AdBegin", "ads"),
                step(5100, "AdFinish", "ads"),
                step(5200, "AdBreakFinish", "ads"), step(5500, "Start"), step(8000, "End"),
            ].joined(separator: ","), trackers: #"[{"name": "c"}, {"name": "ads", "isAdsTracker": true}]"#)
        XCTAssertEqual(values(s)["startupTime"], .int(5500))
        XCTAssertEqual(values(s, 0, .mux)["startupTime"], .int(100))
        XCTAssertEqual(values(s)["adBreakCount"], .int(1))
        XCTAssertEqual(values(s)["adCount"], .int(1))
        XCTAssertEqual(values(s)["adTime"], .int(5000))
    }

    func testBitrateIsWeightedByPlayTimeAtTheRenditionThatPlayed() throws {
        // 1000–4000 at 1 Mbps (3000 ms), 4000–5000 at 3 Mbps (1000 ms): (3e9 + 3e9) / 4000 = 1.5 Mbps.
        let s = try kpis(
            #"{"t": 0, "tracker": "c", "set": {"bitrate": 1000000}, "action": "StreamLoad"}, {"t": 1000, "tracker": "c", "action": "Start"}, {"t": 4000, "tracker": "c", "set": {"bitrate": 3000000}, "action": "QualityChangeUp"}, {"t": 5000, "tracker": "c", "action": "End"}"#
        )
        XCTAssertEqual(values(s)["averageBitrate"], .int(1_500_000))
        XCTAssertEqual(values(s)["qualityUpCount"], .int(1))
    }

    func testEventLogGivesTheSameKPIsAsTheReplay() throws {
        let text = try String(
            contentsOf: Streaming.fixtures.first { $0.lastPathComponent == "happy-path.json" }!, encoding: .utf8)
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "h.json")
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: RunOptions(), sink: sink)
        var fromLog = SessionKPIs(session: "h")
        for record in try OutputLog.read(ByteInput(bytes: sink.bytes, name: "log")) {
            fromLog.add(KPIObservation(record: record))
        }
        let backend = KPIBackend(session: "h")
        var source = DocumentSource(timeline, name: "h")
        _ = try Replayer.replay(&source, options: RunOptions(), backend: backend)
        XCTAssertEqual(fromLog.playbackIds.count, 1)
        XCTAssertEqual(
            fromLog.playback(fromLog.playbackIds[0], definitions: .openavt).map(\.name),
            backend.kpis.playback(backend.kpis.playbackIds[0], definitions: .openavt).map(\.name))
        XCTAssertTrue(
            zip(
                fromLog.playback(fromLog.playbackIds[0], definitions: .openavt),
                backend.kpis.playback(backend.kpis.playbackIds[0], definitions: .openavt)
            )
            .allSatisfy { $0.value == $1.value })
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
}

/// Sums of times from any number of records never trap: they stop at Int.max.
final class KPISaturationTests: XCTestCase {
    func testTimeSumsAndMeansHoldAtTheLimitsInsteadOfTrapping() {
        XCTAssertEqual(Int.max.saturatingAdding(1), .max)
        XCTAssertEqual(Int.min.saturatingAdding(-1), .min)
        XCTAssertEqual(40.saturatingAdding(2), 42)
        XCTAssertEqual(SessionKPIs.roundedMean([.max, .max]), .max)
        XCTAssertEqual(SessionKPIs.roundedMean([1000, 7000]), 4000)
        var tally = PlaybackTally()
        var ping = KPIObservation(metric: Metric(name: "x", kind: .gauge, value: .int(0), timestamp: 0))
        ping.isMetric = false
        ping.name = "Ping"
        ping.numbers["deltaPlayTime"] = 1 << 62
        tally.add(ping)
        tally.add(ping)
        XCTAssertEqual(tally.playTime, .max)
        XCTAssertNotNil(tally.values(.mux).first { $0.name == "playTime" })
    }
}
