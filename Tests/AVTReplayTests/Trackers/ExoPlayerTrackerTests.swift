import AVTCore
import AVTJSON
import XCTest

/// The ExoPlayer tracker (OpenAVT-Android) through the real path.
final class ExoPlayerTrackerTests: XCTestCase {
    private typealias T = TrackerTimeline

    private func replay(_ steps: [String], settings: String = #""pingInterval": 0"#) throws -> TrackerRecordingBackend {
        try T.replay(T.single(kind: "exoplayer", settings: settings, steps))
    }

    private func state(_ t: Int, _ name: String) -> String { T.observe(t, #""playbackState": "\#(name)""#) }

    func testExoPlayerBufferingEmitsStreamLoadThenBufferBegin() throws {
        let out = try replay([
            state(0, "BUFFERING"),
            state(500, "READY"),  // no play request yet: no Start
            state(600, "BUFFERING"),  // StreamLoad again: blocked
            state(700, "IDLE"),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "500 BufferFinish", "600 BufferBegin"])
        XCTAssertEqual(out.event(.streamLoad)?[.trackerTarget], "ExoPlayer")
    }

    func testExoPlayerReadyEmitsBufferFinishThenStartAfterAUserPlayRequest() throws {
        let out = try replay([
            T.observe(0, #""playWhenReady": true"#),  // before StreamLoad: no Start; PauseFinish blocked
            state(10, "BUFFERING"),
            state(800, "READY"),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "10 StreamLoad", "10 BufferBegin", "800 BufferFinish", "800 Start"])
    }

    func testANonUserPlayWhenReadyReasonArmsNoStart() throws {
        // AUDIO_FOCUS_LOSS then a gain (REMOTE): not the user's request, so READY starts nothing;
        // the reason may come after playWhenReady in the step. Then the user plays: Start.
        let out = try replay([
            T.observe(0, #""playWhenReady": true, "playWhenReadyChangeReason": "REMOTE""#),
            state(10, "BUFFERING"), state(800, "READY"),
            T.observe(900, #""playWhenReadyChangeReason": "USER_REQUEST", "playWhenReady": true"#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "10 StreamLoad", "10 BufferBegin", "800 BufferFinish", "900 Start"])
    }

    func testStopAndReleaseAreAStop() throws {
        let out = try replay([
            state(0, "BUFFERING"), T.observe(5, #""playWhenReady": true"#), state(800, "READY"),
            T.observe(2000, #""stop": true, "playbackState": "IDLE""#),
        ])
        XCTAssertEqual(out.trace.last, "2000 Stop")
    }

    func testExoPlayerPlayWhenReadyEmitsStartThenPauseFinishAndFalseEmitsPauseBegin() throws {
        let out = try replay([
            state(0, "BUFFERING"),
            state(500, "READY"),
            T.observe(1000, #""playWhenReady": true"#),  // Start (StreamLoad was accepted); PauseFinish blocked
            T.observe(3000, #""playWhenReady": false"#),
            T.observe(4000, #""playWhenReady": true"#),  // Start blocked; PauseFinish
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "500 BufferFinish", "1000 Start", "3000 PauseBegin",
                "4000 PauseFinish",
            ])
        XCTAssertEqual(out.event(.pauseFinish)?[.accumPauseTime], 1000)
    }

    func testExoPlayerSeekStartedEmitsSeekBeginAndReadyEmitsSeekFinish() throws {
        let out = try replay([
            T.observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            state(500, "READY"),
            T.observe(2000, #""seekStarted": true, "playbackState": "BUFFERING""#),
            state(2600, "READY"),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "500 BufferFinish", "500 Start", "2000 SeekBegin",
                "2000 BufferBegin", "2600 BufferFinish", "2600 SeekFinish",
            ])
        XCTAssertEqual(out.events(.bufferBegin).last?[.inSeekBlock], true)
        XCTAssertEqual(out.event(.seekFinish)?[.accumSeekTime], 600)
    }

    func testExoPlayerEndedEmitsEndAndForgetsTheUserRequest() throws {
        let out = try replay([
            T.observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
            state(500, "READY"),
            state(5000, "ENDED"),
            state(6000, "BUFFERING"),
            state(6500, "READY"),  // no user request since ENDED: no Start
            T.observe(7000, #""playWhenReady": true"#),  // a new play request starts a new playback
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "500 BufferFinish", "500 Start", "5000 End",
                "6000 BufferBegin", "6500 BufferFinish", "7000 Start",
            ])
        let starts = out.events(.start)
        XCTAssertEqual(starts.map { $0[.countStarts] }, [1, 2])
        XCTAssertNotEqual(starts[0][.playbackId], starts[1][.playbackId])
    }

    func testExoPlayerPlayerErrorEmitsErrorWithDescriptionTypeAndCode() throws {
        let out = try replay([
            T.observe(0, #""playerError": "Source error""#),
            T.observe(100, #""playerError": {"message": "Unable to connect", "type": "SOURCE", "errorCode": 2001}"#),
            T.action(200, "Error"),
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 Error", "100 Error", "200 Error"])
        let errors = out.events(.error)
        XCTAssertEqual(errors.map { $0[.errorDescription] }, ["Source error", "Unable to connect", nil])
        XCTAssertEqual(errors.map { $0["errorType"] }, [nil, "source", nil])
        XCTAssertEqual(errors.map { $0["errorCode"] }, [nil, 2001, nil])
    }

    func testExoPlayerVideoSizeChangesEmitQualityChanges() throws {
        let out = try replay([
            T.observe(0, #""videoSize": {"width": 640, "height": 360}"#),  // first size: baseline only
            T.observe(100, #""videoSize": {"width": 1280, "height": 720}"#),
            T.observe(200, #""videoSize": {"width": 1280, "height": 720}"#),
            T.observe(300, #""videoSize": {"width": 854, "height": 480}"#),
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "100 QualityChangeUp", "300 QualityChangeDown"])
        XCTAssertEqual(out.event(.qualityChangeUp)?[.resolutionWidth], 1280)
        XCTAssertEqual(out.event(.qualityChangeDown)?[.resolutionHeight], 480)
    }

    func testExoPlayerContentPositionAdvancesWhileReadyAndPlayWhenReady() throws {
        let out = try replay([
            T.observe(0, #""contentPosition": 0, "playWhenReady": true, "playbackState": "BUFFERING""#),
            state(1000, "READY"),
            T.observe(3000, #""playWhenReady": false"#),
            T.observe(4000, #""playWhenReady": true"#),
            state(5000, "BUFFERING"),
            state(6000, "READY"),
            T.observe(7000, #""contentPosition": 60000, "seekStarted": true"#),
            state(8000, "ENDED"),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "0 BufferBegin", "1000 BufferFinish", "1000 Start", "3000 PauseBegin",
                "4000 PauseFinish", "5000 BufferBegin", "6000 BufferFinish", "7000 SeekBegin", "8000 End",
            ])
        XCTAssertEqual(
            out.events.map { $0[.position] }, [nil, 0, 0, 0, 0, 2000, 2000, 3000, 3000, 60000, 61000])
    }

    func testExoPlayerGettersKeepAndroidUnits() throws {
        let out = try replay([
            T.observe(
                0,
                #""volume": 0.5, "duration": 600000, "frameRate": 25, "bandwidthEstimate": 4000000, "videoSize": {"width": 1920, "height": 1080}, "contentPosition": 1500, "playbackState": "BUFFERING""#
            ),
            T.observe(100, #""volume": 0"#),
            T.action(100, "Foo"),
        ])
        let load = try XCTUnwrap(out.event(.streamLoad))
        XCTAssertEqual(load[.volume], .double(0.5), "a Float from 0 to 1, as on Android")
        XCTAssertEqual(load[.isMuted], false)
        XCTAssertEqual(load[.duration], 600_000)
        XCTAssertEqual(load[.fps], .double(25))
        XCTAssertEqual(load[.bitrate], 4_000_000)
        XCTAssertEqual(load[.resolutionWidth], 1920)
        XCTAssertEqual(load[.resolutionHeight], 1080)
        XCTAssertEqual(load[.position], 1500)
        XCTAssertNil(load[.source])
        let foo = try XCTUnwrap(out.event(Action("Foo")))
        XCTAssertEqual(foo[.isMuted], true, "muted means volume 0")
        XCTAssertEqual(foo[.volume], .double(0))
    }
}
