import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// The `midSession` observation (docs/trackers.md, docs/kpi.md): the recording begins while the
/// playback is already under way, so its startup, the hub's StartTime and its first format are
/// absent, for every definition set, while what the recording shows (play, pause, rebuffer
/// time, counts, started) is kept. Each timeline is also replayed without the mark, to show that
/// the mark, and nothing else, takes those KPIs away. Values are worked by hand from the steps:
/// the state history resolves each instant as PlaybackStatsListener resolves an `onEvents` batch (docs/kpi.md), open
/// states run to the last step.
final class MidSessionKPITests: XCTestCase {
    private typealias K = KPITestSupport
    /// The KPIs about the start, absent for a playback whose start is not recorded.
    private let startKPIs = ["startupTime", "startTimeMetric", "initialVideoBitrate", "initialVideoHeight"]

    /// The start KPIs are absent, and the playback started: it was playing when the recording
    /// began, so it did not exit before its first frame.
    private func assertStartNotRecorded(
        _ v: [String: KPIValue], _ definitions: KPIDefinitions, file: StaticString = #filePath, line: UInt = #line
    ) {
        for name in startKPIs { XCTAssertNil(v[name], "\(name) (\(definitions))", file: file, line: line) }
        XCTAssertEqual(v["started"], .bool(true), "\(definitions)", file: file, line: line)
        XCTAssertEqual(v["exitBeforeVideoStart"], .bool(false), "\(definitions)", file: file, line: line)
    }

    private func session(_ kind: String, _ steps: [String], marked: Bool) throws -> SessionKPIs {
        let text = steps.joined(separator: ",")
        return try K.session(
            marked ? text : text.replacingOccurrences(of: #""midSession": true, "#, with: ""),
            trackers: #"[{"name": "p", "kind": "\#(kind)"}]"#)
    }

    /// exoplayer: the first step, marked, loads (BUFFERING); the same t is READY with play
    /// requested and a 720p, 2 Mbit/s format. Playing 0–4000, a stall 4000–5000, playing
    /// 5000–10000, ENDED.
    func testAnExoPlayerPlaybackMarkedMidSessionHasNoStartKPIs() throws {
        let steps = [
            K.observe(0, #""midSession": true, "playbackState": "BUFFERING""#),
            K.observe(
                0,
                #""playbackState": "READY", "playWhenReady": true, "downstreamFormat": {"height": 720, "bitrate": 2000000}"#
            ),
            K.observe(4000, #""playbackState": "BUFFERING""#), K.observe(5000, #""playbackState": "READY""#),
            K.observe(10000, #""playbackState": "ENDED""#),
        ]
        let s = try session("exoplayer", steps, marked: true)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let v = K.values(s, 0, definitions)
            assertStartNotRecorded(v, definitions)
            XCTAssertEqual(v["ended"], .bool(true), "\(definitions)")
            XCTAssertEqual(v["playTime"], .int(9000), "0–4000 and 5000–10000 (\(definitions))")
            XCTAssertEqual(v["rebufferTime"], .int(1000), "4000–5000 (\(definitions))")
            XCTAssertEqual(v["rebufferCount"], .int(1), "\(definitions)")
            // The join took no time: bufferTime is the stall alone.
            XCTAssertEqual(v["bufferTime"], .int(1000), "\(definitions)")
            XCTAssertEqual(v["averageResolutionHeight"], .int(720), "9000 ms at 720 (\(definitions))")
            XCTAssertEqual(v["averageBitrate"], .int(2_000_000), "\(definitions)")
        }
        // The totals leave the playback out of the startup mean: none is left.
        XCTAssertNil(K.totals(s)["startupTime"])
        XCTAssertEqual(K.totals(s)["started"], .int(1))

        // Unmarked, the same steps read a join of 0 ms: BUFFERING and READY at t=0
        // (PlaybackStats' getMeanJoinTimeMs; StreamLoad → first frame for the others), the
        // tracker's Start at 0 (StartTime 0) and the format seen first.
        let unmarked = try session("exoplayer", steps, marked: false)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            XCTAssertEqual(K.values(unmarked, 0, definitions)["startupTime"], .int(0), "\(definitions)")
        }
        XCTAssertEqual(K.values(unmarked)["startTimeMetric"], .int(0))
        XCTAssertEqual(K.values(unmarked)["initialVideoHeight"], .int(720))
        XCTAssertEqual(K.values(unmarked)["initialVideoBitrate"], .int(2_000_000))
        XCTAssertEqual(K.values(unmarked)["playTime"], .int(9000), "the mark changes nothing else")
    }

    /// avplayer: ready and playing at 720p from the first step, marked; paused 6000–8000,
    /// played to the end at 12000.
    func testAnAVPlayerPlaybackMarkedMidSessionHasNoStartKPIs() throws {
        let steps = [
            K.observe(
                0,
                #""midSession": true, "status": "readyToPlay", "timeControlStatus": "playing", "rate": 1, "presentationSize": {"width": 1280, "height": 720}"#
            ),
            K.observe(6000, #""timeControlStatus": "paused", "rate": 0"#),
            K.observe(8000, #""timeControlStatus": "playing", "rate": 1"#),
            K.observe(12000, #""notification": "didPlayToEndTime""#),
        ]
        let s = try session("avplayer", steps, marked: true)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let v = K.values(s, 0, definitions)
            assertStartNotRecorded(v, definitions)
            XCTAssertEqual(v["playTime"], .int(10000), "0–6000 and 8000–12000 (\(definitions))")
            XCTAssertEqual(v["pauseTime"], .int(2000), "\(definitions)")
            XCTAssertEqual(v["pauseCount"], .int(1), "\(definitions)")
            XCTAssertEqual(v["ended"], .bool(true), "\(definitions)")
        }
        // Unmarked: readyToPlay (the StreamLoad) and playing at the same t, a startup of 0.
        let unmarked = try session("avplayer", steps, marked: false)
        XCTAssertEqual(K.values(unmarked)["startupTime"], .int(0))
        XCTAssertEqual(K.values(unmarked)["initialVideoHeight"], .int(720))
    }

    /// html5: `playing` at 1080p from the first step, marked; waiting 3000–4500, ended at 9000.
    func testAnHTML5PlaybackMarkedMidSessionHasNoStartKPIs() throws {
        let steps = [
            K.observe(0, #""midSession": true, "event": "playing", "videoHeight": 1080"#),
            K.observe(3000, #""event": "waiting""#), K.observe(4500, #""event": "playing""#),
            K.observe(9000, #""event": "ended""#),
        ]
        let s = try session("html5", steps, marked: true)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let v = K.values(s, 0, definitions)
            assertStartNotRecorded(v, definitions)
            XCTAssertEqual(v["playTime"], .int(7500), "0–3000 and 4500–9000 (\(definitions))")
            XCTAssertEqual(v["rebufferTime"], .int(1500), "3000–4500 (\(definitions))")
            XCTAssertEqual(v["rebufferCount"], .int(1), "\(definitions)")
        }
        // Unmarked: play requested and playing at the same t, a startup of 0.
        let unmarked = try session("html5", steps, marked: false)
        XCTAssertEqual(K.values(unmarked)["startupTime"], .int(0))
        XCTAssertEqual(K.values(unmarked)["initialVideoHeight"], .int(1080))
    }

    /// Only the playback that carries the mark: the item after an automatic transition at 5000
    /// loads (BUFFERING, the tracker's StreamLoad) 5000–6200 and keeps its startup of 1200 ms in
    /// every set (PlaybackStats' join time; StreamLoad → first frame; no play request of its
    /// own, so CTA and Mux start from the load too). The totals and the aggregates take that one
    /// startup alone, as they take no value from a playback without one.
    func testOnlyTheMarkedPlaybackLosesItsStartup() throws {
        let s = try session(
            "exoplayer",
            [
                K.observe(0, #""midSession": true, "playbackState": "BUFFERING""#),
                K.observe(0, #""playbackState": "READY", "playWhenReady": true"#),
                K.observe(5000, #""mediaItemTransition": "AUTO", "playbackState": "BUFFERING""#),
                K.observe(6200, #""playbackState": "READY""#), K.observe(10000, #""playbackState": "ENDED""#),
            ], marked: true)
        XCTAssertEqual(s.playbackIds.count, 2)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            XCTAssertNil(K.values(s, 0, definitions)["startupTime"], "\(definitions)")
            XCTAssertEqual(K.values(s, 0, definitions)["playTime"], .int(5000), "0–5000 (\(definitions))")
            XCTAssertEqual(K.values(s, 0, definitions)["started"], .bool(true), "\(definitions)")
            XCTAssertEqual(K.values(s, 1, definitions)["startupTime"], .int(1200), "\(definitions)")
            XCTAssertEqual(K.values(s, 1, definitions)["playTime"], .int(3800), "6200–10000 (\(definitions))")
            XCTAssertEqual(K.totals(s, definitions)["startupTime"], .int(1200), "the mean of one (\(definitions))")
            XCTAssertEqual(K.totals(s, definitions)["started"], .int(2), "\(definitions)")
            XCTAssertEqual(K.totals(s, definitions)["exitBeforeVideoStart"], .int(0), "\(definitions)")
        }
        let playbacks = s.playbackIds.map { s.playback($0, definitions: .openavt) }
        let startup = try XCTUnwrap(KPIAggregate.compute(playbacks).first { $0.0 == "startupTime" }?.1)
        XCTAssertEqual(startup.first { $0.0 == "count" }?.1, 1, "one sample: the marked playback has none")
        XCTAssertEqual(startup.first { $0.0 == "p50" }?.1, 1200)
        XCTAssertEqual(KPIAggregate.pooled([s], definitions: .openavt)[name: "startupTime"], .int(1200))
    }

    /// A mark when the tracker's playback is already over (stopped at 3000) is about the next
    /// one: it begins a playback (players that share a tracker, one after the other). The first
    /// keeps its startup: BUFFERING with play requested at 0, READY at 800 (a join of 800 in
    /// every set); the second, marked, plays 5000–9000.
    func testAMarkAfterThePlaybackStoppedBeginsTheNextPlayback() throws {
        let s = try session(
            "exoplayer",
            [
                K.observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
                K.observe(800, #""playbackState": "READY""#), K.observe(3000, #""stop": true"#),
                K.observe(5000, #""midSession": true, "playbackState": "BUFFERING""#),
                K.observe(5000, #""playbackState": "READY""#), K.observe(9000, #""playbackState": "ENDED""#),
            ], marked: true)
        XCTAssertEqual(s.playbackIds.count, 2)
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            XCTAssertEqual(K.values(s, 0, definitions)["startupTime"], .int(800), "\(definitions)")
            XCTAssertEqual(K.values(s, 0, definitions)["playTime"], .int(2200), "800–3000 (\(definitions))")
            XCTAssertNil(K.values(s, 1, definitions)["startupTime"], "\(definitions)")
            XCTAssertEqual(K.values(s, 1, definitions)["playTime"], .int(4000), "5000–9000 (\(definitions))")
            XCTAssertEqual(K.totals(s, definitions)["startupTime"], .int(800), "\(definitions)")
        }
    }

    /// A mark on a later step still marks the playback it is in (the mark is about the
    /// playback, not about the step): the first playback here, not the second.
    func testAMarkOnALaterStepMarksThePlaybackItIsIn() throws {
        let s = try session(
            "exoplayer",
            [
                K.observe(0, #""playbackState": "BUFFERING""#),
                K.observe(0, #""playbackState": "READY", "playWhenReady": true"#),
                K.observe(1000, #""midSession": true, "playbackState": "BUFFERING""#),
                K.observe(2000, #""playbackState": "READY""#),
                K.observe(5000, #""mediaItemTransition": "SEEK", "playbackState": "BUFFERING""#),
                K.observe(5400, #""playbackState": "READY""#),
            ], marked: true)
        XCTAssertNil(K.values(s, 0, .exoplayer)["startupTime"])
        XCTAssertEqual(K.values(s, 0, .exoplayer)["rebufferTime"], .int(1000), "1000–2000")
        XCTAssertEqual(K.values(s, 1, .exoplayer)["startupTime"], .int(400), "5000–5400")
    }

    /// `kpi --aggregate` over a folder that mixes them: a session wholly marked (no startup), one
    /// recorded from its load (join 0–800), and one marked whose next item joins 5000–6200. The
    /// known startups are 800 and 1200: count 2, mean and pooled 1000, nearest-rank p50 the
    /// first (800), p90 and max the second (1200), min 800; in JSON, CSV and the table alike.
    /// The marked playbacks' empty cells stay empty, not 0.
    func testAggregatesOverMarkedAndUnmarkedSessionsTakeTheKnownStartupsOnly() throws {
        let marked = try session(
            "exoplayer",
            [
                K.observe(0, #""midSession": true, "playbackState": "BUFFERING""#),
                K.observe(0, #""playbackState": "READY", "playWhenReady": true"#),
                K.observe(10000, #""playbackState": "ENDED""#),
            ], marked: true)
        let recorded = try session(
            "exoplayer",
            [
                K.observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
                K.observe(800, #""playbackState": "READY""#), K.observe(10000, #""playbackState": "ENDED""#),
            ], marked: false)
        let mixed = try session(
            "exoplayer",
            [
                K.observe(0, #""midSession": true, "playbackState": "BUFFERING""#),
                K.observe(0, #""playbackState": "READY", "playWhenReady": true"#),
                K.observe(5000, #""mediaItemTransition": "AUTO", "playbackState": "BUFFERING""#),
                K.observe(6200, #""playbackState": "READY""#), K.observe(10000, #""playbackState": "ENDED""#),
            ], marked: true)
        let sessions = [marked, recorded, mixed]
        for definitions in KPIDefinitions.allCases where definitions != .shaka {
            let json = try XCTUnwrap(
                try JSONSerialization.jsonObject(
                    with: Data(KPIReport.json(sessions, definitions: definitions, aggregate: true).utf8))
                    as? [String: Any])
            let aggregate = try XCTUnwrap((json["aggregate"] as? [String: Any])?["startupTime"] as? [String: Double])
            XCTAssertEqual(aggregate["count"], 2, "\(definitions)")
            XCTAssertEqual(aggregate["mean"], 1000, "\(definitions)")
            XCTAssertEqual(aggregate["min"], 800, "\(definitions)")
            XCTAssertEqual(aggregate["p50"], 800, "\(definitions)")
            XCTAssertEqual(aggregate["p90"], 1200, "\(definitions)")
            XCTAssertEqual(aggregate["max"], 1200, "\(definitions)")
            XCTAssertEqual(KPIAggregate.pooled(sessions, definitions: definitions)[name: "startupTime"], .int(1000))

            let csv = KPIReport.csv(sessions, definitions: definitions, aggregate: true).split(separator: "\n")
            let column = try XCTUnwrap(csv[0].split(separator: ",").firstIndex(of: "startupTime (ms)"))
            func cell(_ label: String) -> String? {
                csv.first { $0.hasPrefix(label + ",") }.map {
                    String($0.split(separator: ",", omittingEmptySubsequences: false)[column])
                }
            }
            XCTAssertEqual(cell("(all),(count)"), "2", "\(definitions)")
            XCTAssertEqual(cell("(all),(p50)"), "800", "\(definitions)")
            XCTAssertEqual(cell("(all),(pooled)"), "1000", "\(definitions)")
            XCTAssertEqual(cell("t.json,\(marked.playbackIds[0])"), "", "no startup, not 0 (\(definitions))")
            XCTAssertEqual(cell("t.json,\(mixed.playbackIds[1])"), "1200", "\(definitions)")

            let table = KPIReport.table(sessions, definitions: definitions, aggregate: true)
            let row = try XCTUnwrap(
                table.split(separator: "\n").last { $0.hasPrefix("startupTime (ms)") }.map {
                    $0.split(separator: " ").dropFirst(2)
                })
            XCTAssertEqual(Array(row), ["1000", "2", "1000", "800", "800", "1200", "1200", "1200", "1200"])
        }
    }
}
