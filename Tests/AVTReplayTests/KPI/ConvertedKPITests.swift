import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTimeline

/// `convert` is lossless for the KPIs too: a timeline and its CSV, JSONL and JSON conversions
/// give the same `kpi --format json`. The CSV writer splits a step whose observations are not in
/// column order into rows at the same t; the state history resolves a player's state once per
/// instant (PlaybackStatsListener's `onEvents` batch), so the split changes nothing.
final class ConvertedKPITests: XCTestCase {
    private typealias K = KPITestSupport
    override class func tearDown() { CSVTestSupport.removeFiles() }

    /// `kpi --format json --aggregate` of `path` for `definitions`, its session name and playback
    /// ids (which follow the file's name) replaced by placeholders, so only the values compare.
    private func kpiJSON(_ session: SessionKPIs, _ definitions: KPIDefinitions) -> String {
        var text = KPIReport.json([session], definitions: definitions, aggregate: true)
        var name = JSONWriter()
        name.string(session.session)
        text = text.replacingOccurrences(of: String(decoding: name.bytes, as: UTF8.self), with: "\"SESSION\"")
        for (n, id) in session.playbackIds.enumerated() {
            text = text.replacingOccurrences(of: id, with: "playback-\(n)")
        }
        return text
    }

    func testEveryFixtureAndItsConversionsGiveTheSameKPIs() throws {
        let inputs = try CSVTestSupport.fixtureInputs().map { URL(fileURLWithPath: $0) }
        // The timelines, the AVMetrics log and every player log, among them the mid-session
        // fragment whose inferred READY and play request the CSV writes as two rows.
        XCTAssertGreaterThanOrEqual(inputs.count, 20)
        XCTAssertTrue(inputs.contains { $0.lastPathComponent == "exoplayer-studio-midsession-cut.log" })
        for input in inputs {
            let name = input.lastPathComponent
            let timeline = try CSVTestSupport.collect(path: input.path)
            let converted = try [TimelineFormat.csv, .jsonl, .json].map { format in
                try CSVTestSupport.file(
                    CSVTestSupport.convert(timeline, to: format), name: name + "." + format.rawValue)
            }
            let original = try KPISessions.replay(input.path)
            let conversions = try converted.map { try KPISessions.replay($0) }
            for definitions in KPIDefinitions.allCases {
                let expected = kpiJSON(original, definitions)
                for (path, session) in zip(converted, conversions) {
                    XCTAssertEqual(kpiJSON(session, definitions), expected, "\(name) → \(path) (\(definitions))")
                }
            }
        }
    }

    /// A batch reports each kind of event once (`AnalyticsListener.Events` is a set of event
    /// flags): a second `playbackState` at the same t is a later batch. A log's first line
    /// `ENDED` at 200000 read as a recording begun mid-playback: BUFFERING, then READY with play
    /// requested (it was playing before), then the line's ENDED, three batches at one instant,
    /// however the READY step is cut. PLAYING is entered (`started`), then ENDED.
    func testARepeatedKeyAtOneInstantIsALaterBatch() throws {
        let one = [K.observe(200_000, #""playbackState": "READY", "playWhenReady": true"#)]
        let split = [
            K.observe(200_000, #""playbackState": "READY""#), K.observe(200_000, #""playWhenReady": true"#),
        ]
        for (label, ready) in [("one step", one), ("two steps", split)] {
            let steps =
                [K.observe(200_000, #""midSession": true, "playbackState": "BUFFERING""#)] + ready + [
                    K.observe(200_000, #""playbackState": "ENDED""#)
                ]
            let s = try K.session(steps.joined(separator: ","), trackers: #"[{"name": "p", "kind": "exoplayer"}]"#)
            let v = K.values(s, 0, .exoplayer)
            XCTAssertEqual(v["started"], .bool(true), label)
            XCTAssertEqual(v["exitBeforeVideoStart"], .bool(false), label)
            XCTAssertEqual(v["ended"], .bool(true), label)
            XCTAssertEqual(v["pauseCount"], .int(0), "READY and the request are one batch (\(label))")
            XCTAssertEqual(v["playTime"], .int(0), label)
        }
    }

    /// One instant, one batch. PlaybackStatsListener's `onEvents(Player, Events)` hands every
    /// event of one player-loop iteration to `PlaybackStatsTracker.onEvents`, which calls
    /// `resolveNewPlaybackState(player)` once, from the player as the batch left it, and
    /// `updatePlaybackState` only if that differs: a state that lasts no time inside the batch is
    /// never entered. An app's `release()` is a call of its own: its events (PLAYER_RELEASED)
    /// are a later `onEvents`, so an ENDED reported before it, at the same millisecond, is kept.
    ///
    /// BUFFERING at 0 (no play request: joining); at 1000 READY and the play request, as one step
    /// or as two steps (the CSV's two rows: READY alone would be READY without playWhenReady,
    /// PAUSED); a user pause 5000–8000; ENDED and the release at 10000.
    func testAPlayersStepsAtOneInstantAreOneBatch() throws {
        let ready = [K.observe(1000, #""playbackState": "READY", "playWhenReady": true"#)]
        let split = [
            K.observe(1000, #""playbackState": "READY""#), K.observe(1000, #""playWhenReady": true"#),
        ]
        for (label, atOneThousand) in [("one step", ready), ("two steps", split)] {
            let steps =
                [K.observe(0, #""playbackState": "BUFFERING""#)] + atOneThousand + [
                    K.observe(5000, #""playWhenReady": false"#), K.observe(8000, #""playWhenReady": true"#),
                    K.observe(10000, #""playbackState": "ENDED""#), K.observe(10000, #""release": true"#),
                ]
            let s = try K.session(steps.joined(separator: ","), trackers: #"[{"name": "p", "kind": "exoplayer"}]"#)
            let v = K.values(s, 0, .exoplayer)
            // JOINING_FOREGROUND 0–1000, then PLAYING: never PAUSED at 1000.
            XCTAssertEqual(v["startupTime"], .int(1000), label)
            // The one pause, 5000–8000.
            XCTAssertEqual(v["pauseCount"], .int(1), label)
            XCTAssertEqual(v["pauseTime"], .int(3000), label)
            // PLAYING 1000–5000 and 8000–10000.
            XCTAssertEqual(v["playTime"], .int(6000), label)
            // ENDED at 10000 in the batch before the release's (`hasEnded`).
            XCTAssertEqual(v["ended"], .bool(true), label)
        }
    }
}
