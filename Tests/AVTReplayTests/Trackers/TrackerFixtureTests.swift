import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// The bundled player-tracker fixtures replay to the sessions the README describes.
final class TrackerFixtureTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    private func load(_ name: String) throws -> Timeline {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
        return try TimelineDecoder.decode(Array(data), file: name)
    }

    private func replay(_ name: String) throws -> TrackerRecordingBackend {
        let backend = TrackerRecordingBackend()
        try Replayer.replay(try load(name), backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        return backend
    }

    func testTrackerFixturesRunAsJSONLinesWithoutWarnings() throws {
        for name in ["avplayer-session.json", "ima-preroll.json", "html5-session.json", "exoplayer-session.json"] {
            let sink = MemorySink()
            let warnings = try Replayer.replayToJSONLines(try load(name), options: RunOptions(), sink: sink)
            XCTAssertEqual(warnings, [], name)
            XCTAssertFalse(sink.text.isEmpty, name)
        }
    }

    func testAVPlayerSessionFixture() throws {
        let out = try replay("avplayer-session.json")
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "350 StreamLoad", "1200 Start", "6200 QualityChangeUp", "31200 Ping",
                "41000 BufferBegin",
                "42800 BufferFinish", "44200 QualityChangeDown", "61200 Ping", "70000 PauseBegin", "78000 SeekBegin",
                "80000 SeekFinish", "80000 PauseFinish", "91200 Ping", "121200 Ping", "140000 End",
            ])
        XCTAssertEqual(
            out.metricTrace.filter { !$0.contains("PlayTime") },
            [
                "350 NumLoads=1", "1200 StartTime=850", "1200 NumPlays=1", "42800 RebufferTime=1800",
                "42800 NumRebuffers=1", "140000 NumEnds=1",
            ])
        let end = try XCTUnwrap(out.event(.end))
        XCTAssertEqual(end[.position], 180_000, "the playhead reaches the duration when the item ends")
        XCTAssertEqual(end[.accumPauseTime], 10000)
        XCTAssertEqual(end[.accumSeekTime], 2000)
        XCTAssertEqual(end[.volume], 60)
        XCTAssertEqual(out.event(.seekBegin)?[.position], 120_000)
    }

    func testIMAPrerollFixture() throws {
        let out = try replay("ima-preroll.json")
        XCTAssertEqual(
            out.traceByTracker,
            [
                "0 0:TrackerInit", "0 1:TrackerInit", "300 0:StreamLoad", "350 1:AdBreakBegin", "900 1:AdBegin",
                "4650 1:AdFirstQuartile", "8400 1:AdSecondQuartile", "12150 1:AdThirdQuartile", "15900 1:AdFinish",
                "16300 1:AdBegin", "18800 1:AdFirstQuartile", "20000 1:AdPauseBegin", "23000 1:AdPauseFinish",
                "24300 1:AdSecondQuartile", "25000 1:AdClick", "26800 1:AdThirdQuartile", "29300 1:AdFinish",
                "29400 1:AdBreakFinish", "29500 0:Start", "59500 0:Ping", "89500 0:Ping", "89500 0:PauseBegin",
                "90000 0:Stop",
            ])
        XCTAssertEqual(out.events(.adBegin).map { $0[.adId] }, ["5501", "5502"])
        XCTAssertEqual(out.events(.adFinish).map { $0[.adPosition] }, [15000, 10000])
        XCTAssertEqual(out.events(.adFinish).map { $0[.adAdvertiserName] }, ["ACME Outdoors", nil])
        XCTAssertEqual(out.event(.adBreakBegin)?[.position], 0, "ad events carry the content position")
        let start = try XCTUnwrap(out.event(.start))
        XCTAssertEqual(start[.countAds], 2)
        XCTAssertEqual(
            out.metricTrace.filter { $0.contains("StartTime") }, ["29500 StartTime=29200"], "the pre-roll counts")
    }

    func testHTML5SessionFixture() throws {
        let out = try replay("html5-session.json")
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "420 BufferFinish", "1520 Start", "20000 BufferBegin",
                "21200 BufferFinish", "31520 Ping", "40000 PauseBegin", "52000 SeekBegin", "52300 SeekFinish",
                "60050 PauseFinish", "61520 Ping", "85500 PauseBegin", "85500 End",
            ])
        XCTAssertEqual(
            out.metricTrace.filter { !$0.contains("PlayTime") },
            [
                "0 NumLoads=1", "1520 StartTime=1520", "1520 NumPlays=1", "21200 RebufferTime=1200",
                "21200 NumRebuffers=1", "85500 NumEnds=1",
            ])
        XCTAssertEqual(out.event(.end)?[.position], 95500)
        XCTAssertEqual(out.event(.seekBegin)?[.position], 70000)
    }

    func testExoPlayerSessionFixture() throws {
        let out = try replay("exoplayer-session.json")
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "50 StreamLoad", "50 BufferBegin", "900 BufferFinish", "900 Start",
                "8000 QualityChangeUp",
                "15000 QualityChangeUp", "30900 Ping", "50000 BufferBegin", "51500 BufferFinish",
                "52000 QualityChangeDown",
                "60900 Ping", "90000 PauseBegin", "90900 Ping", "95000 PauseFinish", "100000 SeekBegin",
                "100000 BufferBegin",
                "100700 BufferFinish", "100700 SeekFinish", "120900 Ping", "150900 Ping", "180900 Ping", "190700 End",
            ])
        XCTAssertEqual(
            out.metricTrace.filter { !$0.contains("PlayTime") },
            [
                "50 NumLoads=1", "900 StartTime=850", "900 NumPlays=1", "51500 RebufferTime=1500",
                "51500 NumRebuffers=1", "190700 NumEnds=1",
            ])
        XCTAssertEqual(out.event(.seekBegin)?[.position], 150_000)
        XCTAssertEqual(out.event(.end)?[.position], 240_000)
        XCTAssertEqual(out.event(.end)?[.volume], .double(1))
    }
}
