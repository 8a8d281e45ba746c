import AVTCore
import AVTJSON
import XCTest

@testable import AVTTrackers

/// The HTML5 media element tracker (OpenAVT-JS) through the real path.
final class HTML5TrackerTests: XCTestCase {
    private typealias T = TrackerTimeline

    private func replay(_ steps: [String], settings: String = #""pingInterval": 0"#) throws -> TrackerRecordingBackend {
        try T.replay(T.single(kind: "html5", settings: settings, steps))
    }

    private func event(_ t: Int, _ name: String) -> String { T.observe(t, #""event": "\#(name)""#) }

    func testHTML5LoadstartEmitsStreamLoadThenBufferBeginAndLoadeddataBufferFinish() throws {
        let out = try replay([event(0, "loadstart"), event(10, "loadedmetadata"), event(300, "loadeddata")])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "300 BufferFinish"])
        XCTAssertEqual(out.event(.streamLoad)?[.trackerTarget], "HTML5")
    }

    func testHTML5PlayingEmitsStartBufferFinishPauseFinish() throws {
        let out = try replay([
            event(0, "loadstart"),
            event(400, "play"),
            event(500, "playing"),  // Start, BufferFinish (PauseFinish blocked: not paused)
            event(3000, "pause"),
            event(4000, "play"),
            event(4010, "playing"),  // PauseFinish (Start and BufferFinish blocked)
            event(5000, "waiting"),
            event(5600, "playing"),  // BufferFinish
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "500 Start", "500 BufferFinish", "3000 PauseBegin",
                "4010 PauseFinish", "5000 BufferBegin", "5600 BufferFinish",
            ])
        // Start comes before BufferFinish, so the initial load counts as a rebuffer, as upstream (S06).
        XCTAssertEqual(
            out.metricTrace.filter { $0.contains("Rebuffer") },
            ["500 RebufferTime=500", "500 NumRebuffers=1", "5600 RebufferTime=600", "5600 NumRebuffers=1"])
    }

    func testHTML5SeekingThenSeekedEmitsSeekBeginThenBufferFinishSeekFinish() throws {
        let out = try replay([
            event(0, "loadstart"),
            event(100, "loadeddata"),
            event(200, "playing"),
            event(2000, "seeking"),
            event(2050, "waiting"),
            event(2600, "seeked"),
            event(2700, "seeking"),
            event(2800, "seeked"),  // not buffering: only SeekFinish gets through
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "100 BufferFinish", "200 Start", "2000 SeekBegin",
                "2050 BufferBegin", "2600 BufferFinish", "2600 SeekFinish", "2700 SeekBegin", "2800 SeekFinish",
            ])
        XCTAssertEqual(out.events(.bufferFinish).last?[.inSeekBlock], true)
        XCTAssertEqual(out.events(.seekFinish).map { $0[.accumSeekTime] }, [600, 700])
    }

    func testHTML5EndedEmitsEndAndErrorEmitsError() throws {
        let out = try replay([
            event(0, "loadstart"),
            event(100, "playing"),
            event(5000, "ended"),
            T.observe(6000, #""error": {"code": 2, "message": "MEDIA_ERR_NETWORK"}, "event": "error""#),
            T.observe(7000, #""error": null, "event": "error""#),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "100 Start", "100 BufferFinish", "5000 End",
                "6000 Error", "7000 Error",
            ])
        let errors = out.events(.error)
        XCTAssertEqual(errors.map { $0[.errorDescription] }, ["MEDIA_ERR_NETWORK", nil])
        XCTAssertEqual(errors.map { $0["errorCode"] }, [2, nil])
    }

    func testHTML5UnmappedMediaEventsAreAcceptedAndIgnored() throws {
        let unmapped = [
            "abort", "canplay", "canplaythrough", "durationchange", "emptied", "encrypted", "loadedmetadata", "play",
            "progress", "ratechange", "resize", "stalled", "suspend", "timeupdate", "volumechange", "waitingforkey",
        ]
        XCTAssertEqual(Set(unmapped).union(HTML5Tracker.eventActions.keys), Set(HTML5Tracker.mediaEvents))
        let out = try replay(unmapped.enumerated().map { event($0.offset * 10, $0.element) })
        XCTAssertEqual(out.trace, ["0 TrackerInit"])
    }

    func testHTML5CurrentTimeAdvancesWhilePlaying() throws {
        let out = try replay([
            T.observe(0, #""currentTime": 0, "event": "loadstart""#),
            event(1000, "playing"),
            event(3000, "pause"),
            event(4000, "play"),  // data is there: the playhead moves again
            T.action(5000, "Foo"),
            event(6000, "waiting"),
            event(7000, "playing"),
            T.observe(8000, #""currentTime": 30.0004, "event": "seeking""#),
            event(9000, "seeked"),  // not paused: moves again from the seek target
            T.action(10000, "Foo"),
            event(11000, "ended"),
            T.action(12000, "Foo"),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "1000 Start", "1000 BufferFinish", "3000 PauseBegin",
                // "play" maps to nothing: the hub hears of the resume at the next "playing".
                "5000 Foo", "6000 BufferBegin", "7000 BufferFinish", "7000 PauseFinish", "8000 SeekBegin",
                "9000 SeekFinish", "10000 Foo", "11000 End", "12000 Foo",
            ])
        XCTAssertEqual(
            out.events.map { $0[.position] },
            [nil, 0, 0, 0, 0, 2000, 3000, 4000, 4000, 4000, 30000, 30000, 31000, 32000, 32000])
    }

    func testHTML5GettersUseMediaElementUnits() throws {
        let out = try replay([
            T.observe(
                0,
                #""currentTime": 2.5, "duration": 12.3456, "videoWidth": 1280, "videoHeight": 720, "volume": 0.29, "muted": false, "currentSrc": "https://example.com/v.mp4", "lang": "", "event": "loadstart""#
            ),
            T.observe(100, #""lang": "en", "muted": true"#),
            T.action(100, "Foo"),
        ])
        let load = try XCTUnwrap(out.event(.streamLoad))
        XCTAssertEqual(load[.position], 2500)
        XCTAssertEqual(load[.duration], 12346, "Math.round, as upstream JS")
        XCTAssertEqual(load[.resolutionWidth], 1280)
        XCTAssertEqual(load[.resolutionHeight], 720)
        XCTAssertEqual(load[.volume], 29)
        XCTAssertEqual(load[.isMuted], false)
        XCTAssertEqual(load[.source], "https://example.com/v.mp4")
        XCTAssertNil(load[.language], "an empty lang is not reported")
        XCTAssertNil(load[.bitrate])
        let foo = try XCTUnwrap(out.event(Action("Foo")))
        XCTAssertEqual(foo[.language], "en")
        XCTAssertEqual(foo[.isMuted], true)
    }
}
