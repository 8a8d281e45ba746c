import AVTCore
import Foundation
import XCTest

@testable import AVTOutput

/// OpenAVT events → Mediastream collector events on the virtual clock (README "Mediastream
/// collector events"). Timelines start at epoch 0, so every timestamp below is the virtual t.
final class MediastreamTranslatorTests: XCTestCase {
    private let counters = [
        "position", "from_position", "buffering_time", "relative_streamed_time", "player_loading_time",
    ]

    func testEachOpenAVTActionMapsToItsMediastreamEvent() throws {
        let lines = try MediastreamRun.lines([
            #"{"t": 0, "action": "MediaRequest"}"#,
            #"{"t": 300, "action": "StreamLoad"}"#,
            #"{"t": 1000, "set": {"position": 0, "duration": 60000}, "action": "Start"}"#,
            #"{"t": 2000, "set": {"position": 1000}, "action": "PauseBegin"}"#,
            #"{"t": 3000, "action": "PauseFinish"}"#,
            #"{"t": 4000, "set": {"position": 2000}, "action": "SeekBegin"}"#,
            #"{"t": 4500, "set": {"position": 30000}, "action": "SeekFinish"}"#,
            #"{"t": 5000, "action": "BufferBegin"}"#,
            #"{"t": 5600, "action": "BufferFinish"}"#,
            #"{"t": 5700, "action": "QualityChangeUp"}"#,
            #"{"t": 5800, "action": "Error"}"#,
            #"{"t": 6000, "action": "End"}"#,
        ])
        XCTAssertEqual(
            MediastreamRun.trace(lines, counters),
            [
                // StreamLoad 300 − the playback's first event (MediaRequest at 0) = 300 ms loading.
                "300 player_loaded player_loading_time=300",
                "1000 play position=0",
                "2000 pause position=1000",
                "3000 play position=1000",
                // from_position is where the player was before SeekBegin: 1000 + 1000 played (3000 → 4000).
                "4500 seek position=30000 from_position=2000",
                // 30000 + 500 ms played (4500 → 5000) before the stall; BufferBegin has no event of its own.
                "5600 buffering position=30500 buffering_time=600",
                // End flushes what was played since the last report: 1000→2000, 3000→4000, 4500→5000, 5600→6000
                // = 1000 + 1000 + 500 + 400 = 2900; position 30000 + 500 + 400 = 30900.
                "6000 playing position=30900 relative_streamed_time=2900",
                "6000 content_end position=30900",
            ], "MediaRequest, QualityChangeUp and Error have no counterpart")
        XCTAssertEqual(lines[1].int("duration"), 60000)
        XCTAssertNil(lines[0].fields["position"], "player_loaded carries player_loading_time only")
    }

    func testRelativeCountersAcrossPausesBufferingAndSeeks() throws {
        let fixture = try String(
            contentsOf: Self.fixtures.appendingPathComponent("mediastream-session.json"), encoding: .utf8)
        let lines = try MediastreamRun.lines(document: fixture)
        XCTAssertEqual(
            MediastreamRun.trace(lines, counters),
            [
                "800 player_loaded player_loading_time=800",
                // Startup stall 900 → 1500.
                "1500 buffering position=0 buffering_time=600",
                "2000 play position=0",
                // Reports every 10 s from Start (2000): 12000, 22000, …
                "12000 playing position=10000 relative_streamed_time=10000",
                // Stall from 15000: the report at 22000 carries 22000 − 15000 = 7000, its end at 24000 the other 2000.
                "22000 buffering position=13000 buffering_time=7000",
                "24000 buffering position=13000 buffering_time=2000",
                // Played 12000 → 15000 and 24000 → 32000 = 3000 + 8000 = 11000; position 13000 + 8000.
                "32000 playing position=21000 relative_streamed_time=11000",
                "35000 pause position=24000",
                // No report at 42000 and 52000: paused. The seek's stall (50100 → 51000) is reported when it ends.
                "50600 seek position=300000 from_position=24000",
                "51000 buffering position=300000 buffering_time=900",
                "55000 play position=300000",
                // 3000 left from before the pause (32000 → 35000) + 55000 → 62000 = 10000.
                "62000 playing position=307000 relative_streamed_time=10000",
                "72000 playing position=317000 relative_streamed_time=10000",
                "75000 playing position=320000 relative_streamed_time=3000",
                "75000 content_end position=320000",
            ])
        // Nothing counted twice or lost: play time 13000 + 11000 + 20000 = 44000 and OpenAVT's
        // accumBufferTime 600 + 9000 + 900 = 10500.
        XCTAssertEqual(lines.compactMap { $0.int("relative_streamed_time") }.reduce(0, +), 44000)
        XCTAssertEqual(lines.compactMap { $0.int("buffering_time") }.reduce(0, +), 10500)
        XCTAssertEqual(lines[3].string("content_resolution"), "854x480")
        XCTAssertEqual(lines[6].string("content_resolution"), "1280x720", "QualityChangeUp at 26000")
        XCTAssertEqual(lines[12].string("content_resolution"), "640x360", "QualityChangeDown at 66000")
        XCTAssertEqual(
            lines.map { $0.string("content_id") }, Array(repeating: "529a628d2808dd092a00001a", count: lines.count))
    }

    func testPlayingIsReportedEveryTenSecondsFromPlayStartAndAtTheEnd() throws {
        let lines = try MediastreamRun.lines(
            [#"{"t": 0, "action": "StreamLoad"}"#, #"{"t": 1234, "action": "Start"}"#], until: 45000,
            pingInterval: 30000)
        XCTAssertEqual(
            MediastreamRun.trace(lines, ["relative_streamed_time"]),
            [
                "0 player_loaded", "1234 play",
                "11234 playing relative_streamed_time=10000", "21234 playing relative_streamed_time=10000",
                "31234 playing relative_streamed_time=10000", "41234 playing relative_streamed_time=10000",
                // The replay ends at until = 45000 with the rest: 45000 − 41234 = 3766.
                "45000 playing relative_streamed_time=3766",
            ])
    }

    func testAReportDueAtARecordsTimeComesBeforeTheRecord() throws {
        let lines = try MediastreamRun.lines([
            #"{"t": 0, "action": "Start"}"#,
            #"{"t": 10000, "action": "PauseBegin"}"#,
            #"{"t": 25000, "action": "PauseFinish"}"#,
            #"{"t": 30000, "action": "End"}"#,
        ])
        XCTAssertEqual(
            MediastreamRun.trace(lines, ["relative_streamed_time"]),
            [
                "0 play",
                "10000 playing relative_streamed_time=10000", "10000 pause",
                // 20000: paused, nothing. 30000: 25000 → 30000 played, reported before End, which has nothing left.
                "25000 play", "30000 playing relative_streamed_time=5000", "30000 content_end",
            ])
    }

    func testAStallLongerThanTheReportPeriodIsSplitAcrossReports() throws {
        let lines = try MediastreamRun.lines([
            #"{"t": 0, "action": "Start"}"#,
            #"{"t": 5000, "action": "BufferBegin"}"#,
            #"{"t": 25000, "action": "BufferFinish"}"#,
            #"{"t": 32000, "action": "End"}"#,
        ])
        XCTAssertEqual(
            MediastreamRun.trace(lines, ["buffering_time", "relative_streamed_time"]),
            [
                "0 play",
                // Since the previous report each time: 5000 → 10000, 10000 → 20000, 20000 → 25000.
                "10000 buffering buffering_time=5000", "20000 buffering buffering_time=10000",
                "25000 buffering buffering_time=5000",
                // 0 → 5000 and 25000 → 30000.
                "30000 playing relative_streamed_time=10000",
                "32000 playing relative_streamed_time=2000", "32000 content_end",
            ])
    }

    func testNothingIsReportedWhileSeekingAndSeekTimeIsNotStreamed() throws {
        let lines = try MediastreamRun.lines(
            [
                #"{"t": 0, "action": "Start"}"#,
                #"{"t": 8000, "set": {"position": 8000}, "action": "SeekBegin"}"#,
                #"{"t": 12000, "set": {"position": 60000}, "action": "SeekFinish"}"#,
            ], until: 20000)
        XCTAssertEqual(
            MediastreamRun.trace(lines, ["position", "from_position", "relative_streamed_time"]),
            [
                "0 play position=0",
                "12000 seek position=60000 from_position=8000",
                // 0 → 8000 and 12000 → 20000 = 16000; position 60000 + 8000.
                "20000 playing position=68000 relative_streamed_time=16000",
            ])
    }

    func testFromPositionIsThePositionBeforeASeekBeginThatAlreadyCarriesTheTarget() throws {
        // AVPlayer's timeJumped: currentTime has already jumped when SeekBegin is emitted.
        let lines = try MediastreamRun.lines([
            #"{"t": 0, "set": {"position": 0}, "action": "Start"}"#,
            #"{"t": 5000, "set": {"position": 60000}, "action": "SeekBegin"}"#,
            #"{"t": 5500, "action": "SeekFinish"}"#,
        ])
        // 0 + 5000 ms played before the seek.
        XCTAssertEqual(
            MediastreamRun.trace(lines, ["position", "from_position"]).filter { $0.contains("seek") },
            ["5500 seek position=60000 from_position=5000"])
    }

    // MARK: Sessions

    private func pausedSession(resumeAt t: Int) throws -> [MediastreamRun.Line] {
        try MediastreamRun.lines([
            #"{"t": 0, "action": "StreamLoad"}"#,
            #"{"t": 1000, "action": "Start"}"#,
            #"{"t": 5000, "action": "PauseBegin"}"#,
            #"{"t": \#(t), "action": "PauseFinish"}"#,
            #"{"t": \#(t + 1000), "action": "End"}"#,
        ])
    }

    func testASessionExpiresAfterThirtyMinutesWithoutEvents() throws {
        // The pause report at 5000 is the last event before the resume: 1_804_999 − 5000 = 29 min 59.999 s.
        let kept = try pausedSession(resumeAt: 1_804_999)
        XCTAssertEqual(
            MediastreamRun.trace(kept, []),
            ["0 player_loaded", "1000 play", "5000 pause", "1804999 play", "1805999 playing", "1805999 content_end"])
        XCTAssertEqual(Set(kept.compactMap { $0.string("session_id") }).count, 1)
        // Exactly 30 minutes (1_805_000 − 5000 = 1_800_000): expired, a new session from the resume on.
        let expired = try pausedSession(resumeAt: 1_805_000)
        let ids = expired.compactMap { $0.string("session_id") }
        guard ids.count == 6 else { return XCTFail("session ids: \(ids)") }
        XCTAssertEqual(Set(ids[0..<3]).count, 1)
        XCTAssertEqual(Set(ids[3...]).count, 1)
        XCTAssertNotEqual(ids[0], ids[3])
        XCTAssertEqual(ids[0], kept[0].string("session_id"), "session ids are deterministic")
        XCTAssertEqual(
            Set(expired.compactMap { $0.string("playback_id") }).count, 1, "the playback goes on in the new session")
        // Session n's id: derived from the instrument id and n.
        var generator = SeededUUIDGenerator(seed: 0)
        let instrumentId = generator.next()
        XCTAssertEqual(ids[0], DerivedIdentifier.uuid("session\n\(instrumentId)\n\n1"))
        XCTAssertEqual(ids[3], DerivedIdentifier.uuid("session\n\(instrumentId)\n\n2"))
    }

    func testReportsWhilePlayingKeepTheSessionAlive() throws {
        let lines = try MediastreamRun.lines([#"{"t": 0, "action": "Start"}"#, #"{"t": 3600000, "action": "End"}"#])
        // An hour of play: play, 360 reports (10000 … 3600000), content_end.
        XCTAssertEqual(lines.count, 362)
        XCTAssertEqual(Set(lines.compactMap { $0.string("session_id") }).count, 1)
        XCTAssertEqual(Set(lines.compactMap { $0.int("relative_streamed_time") }), [10000])
    }

    func testANewPlaybackAfterThirtyIdleMinutesHasANewSessionAndPlaybackId() throws {
        let lines = try MediastreamRun.lines([
            #"{"t": 0, "action": "StreamLoad"}"#,
            #"{"t": 0, "action": "Start"}"#,
            #"{"t": 5000, "action": "End"}"#,
            #"{"t": 1865000, "action": "Start"}"#,
            #"{"t": 1870000, "action": "End"}"#,
        ])
        XCTAssertEqual(
            MediastreamRun.trace(lines, ["relative_streamed_time"]),
            [
                "0 player_loaded", "0 play", "5000 playing relative_streamed_time=5000", "5000 content_end",
                // 1865000 − 5000 = 31 minutes without events.
                "1865000 play", "1870000 playing relative_streamed_time=5000", "1870000 content_end",
            ])
        let sessions = lines.compactMap { $0.string("session_id") }
        let playbacks = lines.compactMap { $0.string("playback_id") }
        guard sessions.count == 7, playbacks.count == 7 else {
            return XCTFail("ids missing: \(sessions), \(playbacks)")
        }
        XCTAssertEqual(Set(sessions[0..<4]).count, 1)
        XCTAssertEqual(Set(sessions[4...]).count, 1)
        XCTAssertNotEqual(sessions[0], sessions[4])
        XCTAssertNotEqual(playbacks[0], playbacks[4], "OpenAVT starts a new playbackId after End")
    }

    // MARK: Fields

    func testBitratesAreRoundedKbpsAndTheResolutionIsWidthByHeight() throws {
        let lines = try MediastreamRun.lines(
            [
                #"{"t": 0, "set": {"bitrate": 1499600, "audioBitrate": 96500.0, "bandwidth": 4200499, "resolutionWidth": 854, "resolutionHeight": 480}, "action": "Start"}"#,
                #"{"t": 15000, "set": {"bitrate": 2500500, "resolutionWidth": 1280, "resolutionHeight": 720}, "action": "QualityChangeUp"}"#,
            ], until: 20000)
        let reports = lines.filter { $0.event == "playing" }
        guard reports.count == 2 else { return XCTFail("playing reports: \(MediastreamRun.trace(lines, []))") }
        // 1499600 bps = 1499.6 kbps → 1500; 96500.0 → 96.5 → 97 (halves away from zero); 4200499 → 4200.499 → 4200.
        XCTAssertEqual(reports[0].int("content_video_bitrate"), 1500)
        XCTAssertEqual(reports[0].int("content_audio_bitrate"), 97)
        XCTAssertEqual(reports[0].int("bandwith"), 4200)
        XCTAssertEqual(reports[0].string("content_resolution"), "854x480")
        // 2500500 → 2500.5 → 2501.
        XCTAssertEqual(reports[1].int("content_video_bitrate"), 2501)
        XCTAssertEqual(reports[1].string("content_resolution"), "1280x720")
    }

    func testUnknownFieldsAreNullAndEveryLineOfAnEventHasTheSameKeys() throws {
        let lines = try MediastreamRun.lines([#"{"t": 0, "action": "Start"}"#], until: 10000)
        guard lines.map(\.event) == ["play", "playing"] else { return XCTFail("\(MediastreamRun.trace(lines, []))") }
        for key in [
            "content_id", "content_resolution", "content_video_bitrate", "content_audio_bitrate", "bandwith",
            "duration",
        ] {
            XCTAssertTrue(lines[1].isNull(key), key)
        }
        XCTAssertTrue(lines[0].isNull("content_id"))
        XCTAssertEqual(lines[1].int("position"), 10000, "a playback without a position starts at 0")
    }

    func testTheLineHasAFixedKeyOrder() {
        var event = MediastreamEvent(.playing, t: 11400, timestamp: 1_772_366_411_400)
        (event.contentId, event.playbackId, event.uniqueId, event.sessionId) = ("c", "p", "u", "s")
        (event.position, event.duration, event.relativeStreamedTime) = (10000, 120000, 10000)
        (event.contentResolution, event.contentVideoBitrate, event.bandwith) = ("854x480", 1200, 5000)
        event.bufferingTime = 7  // not a playing field: not written
        XCTAssertEqual(
            event.json,
            #"{"event":"playing","timestamp":"2026-03-01T12:00:11.400Z","content_id":"c","playback_id":"p","unique_id":"u","session_id":"s","#
                + #""position":10000,"duration":120000,"relative_streamed_time":10000,"content_resolution":"854x480","#
                + #""content_video_bitrate":1200,"content_audio_bitrate":null,"bandwith":5000}"#)
        var seek = MediastreamEvent(.seek, t: 0, timestamp: 0)
        (seek.position, seek.fromPosition) = (90000, 41100)
        XCTAssertEqual(
            seek.json,
            #"{"event":"seek","timestamp":"1970-01-01T00:00:00.000Z","content_id":null,"playback_id":null,"unique_id":null,"#
                + #""session_id":null,"position":90000,"from_position":41100,"duration":null}"#)
    }

    // MARK: Ids

    func testIdsComeFromTheFlagsThenTheTimelineThenTheInstrument() throws {
        var generator = SeededUUIDGenerator(seed: 0)
        let instrumentId = generator.next()
        let playbackId = generator.next()
        let steps = [#"{"t": 0, "set": {"contentId": "from-timeline", "uniqueId": "user-9"}, "action": "StreamLoad"}"#]
        let flagged = try MediastreamRun.lines(steps, options: MediastreamOptions(contentId: "c-1", uniqueId: "u-1"))
        XCTAssertEqual(flagged[0].string("content_id"), "c-1")
        XCTAssertEqual(flagged[0].string("unique_id"), "u-1")
        XCTAssertEqual(flagged[0].string("playback_id"), playbackId, "OpenAVT's playbackId as it is")
        let timeline = try MediastreamRun.lines(steps)
        XCTAssertEqual(timeline[0].string("content_id"), "from-timeline")
        XCTAssertEqual(timeline[0].string("unique_id"), "user-9")
        let neither = try MediastreamRun.lines([#"{"t": 0, "action": "StreamLoad"}"#])
        XCTAssertTrue(neither[0].isNull("content_id"))
        XCTAssertEqual(neither[0].string("unique_id"), instrumentId, "the instrument stands for the device")
        // With several inputs (which share seeded ids) the input's path is mixed in.
        var several = MediastreamOptions()
        several.input = "a.json"
        let mixed = try MediastreamRun.lines([#"{"t": 0, "action": "StreamLoad"}"#], options: several)
        XCTAssertEqual(mixed[0].string("playback_id"), DerivedIdentifier.uuid("a.json\n" + playbackId))
        XCTAssertEqual(mixed[0].string("unique_id"), DerivedIdentifier.uuid("a.json\n" + instrumentId))
        XCTAssertNotEqual(mixed[0].string("session_id"), neither[0].string("session_id"))
    }

    func testAdsHaveNoCounterpart() {
        let translator = MediastreamTranslator()
        var adStart = Event(action: .start, timestamp: 0, trackerId: 1)
        adStart[.isAdsTracker] = .bool(true)
        XCTAssertEqual(translator.consume(adStart), [])
        XCTAssertEqual(translator.consume(Event(action: .adBegin, timestamp: 100, trackerId: 1)), [])
        XCTAssertEqual(translator.consume(Event(action: .start, timestamp: 200, trackerId: 0)).map(\.name), [.play])
        XCTAssertEqual(translator.finish(at: 5200).map(\.relativeStreamedTime), [5000])
    }

    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")
}
