import AVTCore
import AVTJSON
import AVTTrackers
import XCTest

@testable import AVTReplay
@testable import AVTTimeline

/// The AVPlayer tracker through the real path: timeline → decoder → replayer → hub.
final class AVPlayerTrackerTests: XCTestCase {
    private typealias T = TrackerTimeline
    private let noPings = #""pingInterval": 0"#

    private func replay(_ steps: [String], settings: String = #""pingInterval": 0"#) throws -> TrackerRecordingBackend {
        try T.replay(T.single(kind: "avplayer", settings: settings, steps))
    }

    func testAVPlayerStatusReadyToPlayEmitsStreamLoad() throws {
        let out = try replay([
            T.observe(100, #""status": "readyToPlay""#),
            T.observe(200, #""status": "readyToPlay""#),  // over-emitted: the hub blocks the second
            T.observe(300, #""status": "unknown""#),
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "100 StreamLoad"])
        let load = out.event(.streamLoad)
        XCTAssertEqual(load?[.trackerTarget], "AVPlayer")
        XCTAssertEqual(load?[.isAdsTracker], false)
        XCTAssertNotNil(load?[.streamId])
    }

    func testAVPlayerStatusFailedEmitsErrorWithThePlayersErrorOnce() throws {
        let out = try replay([
            T.observe(0, #""error": "Cannot Open", "status": "failed""#),
            T.action(100, "Error"),  // initEvent already consumed the stored error
            T.observe(200, #""itemStatus": "failed""#),  // the player's error is still set
            T.observe(300, #""error": null, "itemStatus": "failed""#),
            T.observe(400, #""itemStatus": "readyToPlay""#),
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 Error", "100 Error", "200 Error", "300 Error"])
        XCTAssertEqual(out.events(.error).map { $0[.errorDescription] }, ["Cannot Open", nil, "Cannot Open", nil])
        XCTAssertEqual(out.events(.error).map { $0[.countErrors] }, [1, 2, 3, 4])
    }

    func testAVPlayerStatusFailedKeepsThePingRunning() throws {
        let out = try replay(
            [
                T.observe(0, #""rate": 1"#),
                T.observe(1000, #""error": "boom", "status": "failed""#),
            ], settings: #""until": 31000"#)
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 Start", "1000 Error", "30000 Ping"])
    }

    func testAVPlayerFailedToPlayToEndEmitsErrorAndStopsPing() throws {
        let out = try replay(
            [
                T.observe(0, #""status": "readyToPlay", "rate": 1"#),
                T.observe(
                    10000, #""error": "The network connection was lost.", "notification": "failedToPlayToEndTime""#),
            ], settings: #""until": 70000"#)
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 StreamLoad", "0 Start", "10000 Error"], "no Ping at 30000 or 60000")
        XCTAssertEqual(out.event(.error)?[.errorDescription], "The network connection was lost.")
    }

    func testAVPlayerTimeControlStatusEmitsBufferBeginAndBufferFinish() throws {
        let out = try replay([
            T.observe(0, #""timeControlStatus": "waitingToPlayAtSpecifiedRate""#),
            T.observe(500, #""timeControlStatus": "waitingToPlayAtSpecifiedRate""#),
            T.observe(800, #""timeControlStatus": "playing""#),
            T.observe(900, #""timeControlStatus": "paused""#),  // BufferFinish while not buffering: blocked
            T.observe(1000, #""timeControlStatus": "waitingToPlayAtSpecifiedRate""#),
            T.observe(1200, #""timeControlStatus": "paused""#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 BufferBegin", "800 BufferFinish", "1000 BufferBegin", "1200 BufferFinish"])
        XCTAssertEqual(out.events(.bufferFinish).map { $0[.accumBufferTime] }, [800, 1000])
    }

    func testAVPlayerRateOneEmitsStartThenSeekFinishThenPauseFinish() throws {
        let out = try replay([
            T.observe(0, #""currentTime": 0"#),
            T.action(150, "SeekBegin"),  // a scripted seek before the first frame
            T.observe(200, #""rate": 1"#),  // Start, then SeekFinish in the same call
            T.observe(1000, #""rate": 0"#),  // PauseBegin at position 800
            T.observe(1500, #""currentTime": 30000, "playbackBufferEmpty": true"#),  // forward seek while paused
            T.observe(2000, #""rate": 1"#),  // Start already done: SeekFinish, then PauseFinish
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "150 SeekBegin", "200 Start", "200 SeekFinish", "1000 PauseBegin", "1500 SeekBegin",
                "2000 SeekFinish", "2000 PauseFinish",
            ])
        XCTAssertEqual(out.event(.pauseBegin)?[.position], 800)
        XCTAssertEqual(out.event(.pauseFinish)?[.accumPauseTime], 1000)
    }

    func testAVPlayerRateOtherThanZeroOrOneEmitsNothing() throws {
        let out = try replay([
            T.observe(0, #""rate": 1"#),
            T.observe(1000, #""rate": 2"#),
            T.observe(2000, #""rate": -1"#),
            T.observe(3000, #""rate": 0.5"#),
            T.observe(4000, #""rate": 0"#),
            T.observe(5000, #""rate": 0"#),  // unchanged: the observer is not called
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 Start", "4000 PauseBegin"])
    }

    func testAVPlayerRateZeroBeforeStartEmitsAPauseBeginTheHubBlocks() throws {
        let out = try replay([
            T.observe(0, #""rate": 0.5"#),
            T.observe(100, #""rate": 0"#),  // PauseBegin before Start: rejected by HubCore
            T.observe(200, #""rate": 1"#),
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "200 Start"])
    }

    func testAVPlayerPeriodicObserverTicksEvery500msWhilePlaying() throws {
        let out = try replay(
            [
                T.observe(0, #""presentationSize": {"width": 640, "height": 360}"#),
                T.observe(100, #""rate": 1"#),  // ticks at 600, 1100, 1600, …
                T.observe(1234, #""presentationSize": {"width": 1280, "height": 720}"#),  // seen at the 1600 tick
                T.observe(2000, #""rate": 0"#),  // no ticks while paused
                T.observe(2100, #""presentationSize": {"width": 640, "height": 360}"#),
                T.observe(5000, #""rate": 1"#),  // seen at once; ticks re-anchored: 5500, 6000, …
                T.observe(5600, #""presentationSize": {"width": 1920, "height": 1080}"#),  // seen at the 6000 tick
            ], settings: #""pingInterval": 0, "until": 6400"#)
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "100 Start", "1600 QualityChangeUp", "2000 PauseBegin", "5000 QualityChangeDown",
                "5000 PauseFinish", "6000 QualityChangeUp",
            ])
        XCTAssertEqual(out.events(.qualityChangeUp).map { $0[.resolutionHeight] }, [720, 1080])
    }

    /// `release` is the app letting the player go: the periodic observer is removed with the
    /// other listeners (upstream's endOfService), so a size seen later changes nothing, the
    /// playhead stops, and nothing is emitted for the release itself. The same timeline without
    /// it still ticks, reports the change and even starts a playback of its own.
    func testAVPlayerReleaseRemovesThePeriodicObserver() throws {
        func steps(release: Bool) -> [String] {
            [
                T.observe(0, #""presentationSize": {"width": 640, "height": 360}, "currentTime": 0, "rate": 1"#),
                T.action(1000, "Stop"),
            ] + (release ? [T.observe(1000, #""release": true"#)] : []) + [
                T.observe(3000, #""presentationSize": {"width": 1280, "height": 720}"#),
                T.action(4000, "Foo"),
            ]
        }
        let released = try replay(steps(release: true), settings: #""pingInterval": 0, "until": 4000"#)
        XCTAssertEqual(released.trace, ["0 TrackerInit", "0 Start", "1000 Stop", "4000 Foo"])
        XCTAssertEqual(released.event(Action("Foo"))?[.position], 1000)
        let kept = try replay(steps(release: false), settings: #""pingInterval": 0, "until": 4000"#)
        // Left running, the observer sees the size at its 3500 tick (the 3000 tick fires before
        // the step of the same instant) and, at rate 1 with no Start since the Stop, starts anew.
        XCTAssertEqual(
            kept.trace, ["0 TrackerInit", "0 Start", "1000 Stop", "3500 QualityChangeUp", "3500 Start", "4000 Foo"])
        XCTAssertEqual(kept.event(Action("Foo"))?[.position], 4000)
    }

    func testAVPlayerPositionAdvancesWithVirtualTime() throws {
        let out = try replay([
            T.observe(0, #""currentTime": 1000, "rate": 1"#),
            T.observe(2500, #""rate": 0"#),
            T.action(4000, "Foo"),
            // Waiting to play: the rate is 1 but the playhead stands still.
            T.observe(5000, #""timeControlStatus": "waitingToPlayAtSpecifiedRate", "rate": 1"#),
            T.observe(6000, #""timeControlStatus": "playing""#),
            T.observe(7000, #""rate": 2"#),
            T.observe(8000, #""rate": 0"#),
            T.observe(9000, #""currentTime": 9999.9"#),
            T.action(9000, "Foo"),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 Start", "2500 PauseBegin", "4000 Foo", "5000 BufferBegin", "5000 PauseFinish",
                "6000 BufferFinish", "8000 PauseBegin", "9000 Foo",
            ])
        XCTAssertEqual(out.events.map { $0[.position] }, [nil, 1000, 3500, 3500, 3500, 3500, 3500, 6500, 9999])
    }

    func testAVPlayerPresentationSizeIncreaseEmitsQualityChangeUp() throws {
        let out = try replay(
            [
                T.observe(0, #""presentationSize": {"width": 640, "height": 360}, "rate": 1"#),
                T.observe(200, #""presentationSize": {"width": 1280, "height": 720}"#),
                T.observe(700, #""presentationSize": {"width": 960, "height": 540}"#),
                T.observe(1200, #""presentationSize": {"width": 540, "height": 960}"#),  // same area: no change
            ], settings: #""pingInterval": 0, "until": 1600"#)
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 Start", "500 QualityChangeUp", "1000 QualityChangeDown"])
        let up = out.event(.qualityChangeUp)
        XCTAssertEqual(up?[.resolutionWidth], 1280)
        XCTAssertEqual(up?[.resolutionHeight], 720)
        XCTAssertEqual(out.event(.qualityChangeDown)?[.resolutionWidth], 960)
    }

    func testAVPlayerFirstPresentationSizeOnlySetsBaseline() throws {
        let out = try replay(
            [
                T.observe(0, #""presentationSize": {"width": 0, "height": 0}, "rate": 1"#),
                T.observe(200, #""presentationSize": {"width": 640, "height": 360}"#),  // first non-zero: baseline
                T.observe(700, #""presentationSize": {"width": 1280, "height": 720}"#),
            ], settings: #""pingInterval": 0, "until": 1100"#)
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 Start", "1000 QualityChangeUp"])
    }

    func testAVPlayerTimeJumpedRunsThePeriodicObserver() throws {
        let out = try replay([
            T.observe(0, #""presentationSize": {"width": 640, "height": 360}, "rate": 1"#),
            T.observe(1000, #""rate": 0"#),
            T.observe(2000, #""presentationSize": {"width": 1280, "height": 720}, "notification": "timeJumped""#),
            T.observe(3000, #""rate": 1"#),
            T.observe(3200, #""notification": "timeJumped""#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 Start", "1000 PauseBegin", "2000 QualityChangeUp", "3000 PauseFinish"])
    }

    func testAVPlayerPlaybackBufferEmptyWhilePausedAfterAForwardSeekEmitsSeekBegin() throws {
        let out = try replay([
            T.observe(0, #""currentTime": 0, "rate": 1"#),
            T.observe(1000, #""rate": 0"#),  // paused at 1000
            T.observe(1500, #""playbackBufferEmpty": true"#),  // same position: nothing
            T.observe(2000, #""currentTime": 500, "playbackBufferEmpty": false"#),  // backward: not detected
            T.observe(2500, #""currentTime": 5000, "playbackBufferEmpty": true"#),
            T.observe(2600, #""playbackBufferEmpty": false"#),  // SeekBegin again: blocked
            T.observe(3000, #""rate": 1"#),
            T.observe(3500, #""currentTime": 9000, "playbackBufferEmpty": true"#),  // not paused: nothing
        ])
        XCTAssertEqual(
            out.trace,
            ["0 TrackerInit", "0 Start", "1000 PauseBegin", "2500 SeekBegin", "3000 SeekFinish", "3000 PauseFinish"])
        XCTAssertEqual(out.event(.seekFinish)?[.accumSeekTime], 500)
    }

    func testAVPlayerDidPlayToEndEmitsEnd() throws {
        let out = try replay([
            T.observe(0, #""status": "readyToPlay", "rate": 1"#),
            T.observe(5000, #""notification": "didPlayToEndTime""#),
            T.observe(5000, #""rate": 0, "timeControlStatus": "paused""#),  // after End: blocked
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "0 StreamLoad", "0 Start", "5000 End"])
    }

    /// HubCoreAds would swallow the End too, so this runs HubCore with the ad-break flag set by
    /// hand: only the tracker's own check keeps the End from being emitted.
    func testAVPlayerDidPlayToEndInsideAdBreakIsIgnored() throws {
        let timeline = try TimelineDecoder.decode(
            Array(
                T.single(
                    kind: "avplayer", settings: #""hub": "core", "pingInterval": 0"#,
                    [
                        T.observe(0, #""rate": 1"#),
                        T.observe(1000, #""notification": "didPlayToEndTime""#),
                        T.observe(2000, #""notification": "didPlayToEndTime""#),
                    ]
                ).utf8), file: "t.json")
        let backend = TrackerRecordingBackend()
        let replayer = Replayer(
            settings: timeline.settings, backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        try replayer.play(timeline.steps[0])
        replayer.trackers[0].state.inAdBreak = true
        try replayer.play(timeline.steps[1])
        replayer.trackers[0].state.inAdBreak = false
        try replayer.play(timeline.steps[2])
        replayer.finish()
        XCTAssertEqual(backend.trace, ["0 TrackerInit", "0 Start", "2000 End"])
    }

    func testAVPlayerDidPlayToEndDuringAnAdBreakIsNotDelivered() throws {
        let text = T.document(
            trackers: [#"{"name": "content", "kind": "avplayer"}"#, #"{"name": "ads", "isAdsTracker": true}"#],
            settings: noPings,
            [
                T.observe(0, #""status": "readyToPlay", "rate": 1"#),
                T.action(1000, "AdBreakBegin", tracker: "ads"),
                T.observe(1100, #""notification": "didPlayToEndTime""#),
                T.action(2000, "AdBreakFinish", tracker: "ads"),
                T.observe(2100, #""notification": "didPlayToEndTime""#),
            ])
        let out = try T.replay(text)
        XCTAssertEqual(
            out.traceByTracker,
            [
                "0 0:TrackerInit", "0 0:StreamLoad", "0 0:Start", "1000 1:AdBreakBegin", "2000 1:AdBreakFinish",
                "2100 0:End",
            ])
    }

    func testAVPlayerNeverEmitsPlayerSetOrPlayerReady() throws {
        let out = try replay([
            T.observe(0, #""currentTime": 0, "duration": 60000"#),
            T.observe(100, #""status": "readyToPlay", "itemStatus": "readyToPlay""#),
            T.observe(200, #""rate": 1, "timeControlStatus": "playing""#),
            T.observe(60200, #""notification": "didPlayToEndTime""#),
        ])
        XCTAssertEqual(out.trace.first, "0 TrackerInit")
        XCTAssertEqual(out.trace, ["0 TrackerInit", "100 StreamLoad", "200 Start", "60200 End"])
        XCTAssertTrue(out.events(.playerSet).isEmpty)
        XCTAssertTrue(out.events(.playerReady).isEmpty)
    }

    func testAVPlayerGettersReportOpenAVTUnits() throws {
        let out = try replay([
            T.observe(
                0,
                #""currentTime": 0, "duration": 12345.9, "presentationSize": {"width": 1280.0, "height": 720.0}, "volume": 0.29, "isMuted": true, "fps": 29.97, "source": "https://example.com/a.m3u8", "observedBitrate": 2500000.7, "language": "en", "subtitles": "es""#
            ),
            T.observe(100, #""status": "readyToPlay""#),
            T.observe(200, #""duration": null, "source": null, "language": null, "volume": 1"#),
            T.action(200, "Foo"),
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "100 StreamLoad", "200 Foo"])
        let load = try XCTUnwrap(out.event(.streamLoad))
        XCTAssertEqual(load[.trackerTarget], "AVPlayer")
        XCTAssertEqual(load[.position], 0)
        XCTAssertEqual(load[.duration], 12345)
        XCTAssertEqual(load[.resolutionWidth], 1280)
        XCTAssertEqual(load[.resolutionHeight], 720)
        XCTAssertEqual(load[.volume], 29, "Int(volume × 100) in Float, as upstream")
        XCTAssertEqual(load[.isMuted], true)
        XCTAssertEqual(load[.fps], .double(29.97))
        XCTAssertEqual(load[.source], "https://example.com/a.m3u8")
        XCTAssertEqual(load[.bitrate], 2_500_000)
        XCTAssertEqual(load[.language], "en")
        XCTAssertEqual(load[.subtitles], "es")
        let foo = try XCTUnwrap(out.event(Action("Foo")))
        XCTAssertNil(foo[.duration])
        XCTAssertNil(foo[.source])
        XCTAssertNil(foo[.language])
        XCTAssertEqual(foo[.volume], 100)
        XCTAssertEqual(foo[.subtitles], "es")
    }

    func testAVPlayerGettersAreAbsentUntilObserved() throws {
        let out = try replay([T.observe(100, #""status": "readyToPlay""#)])
        let load = try XCTUnwrap(out.event(.streamLoad))
        for attribute: Attribute in [
            .position, .duration, .resolutionWidth, .resolutionHeight, .volume, .isMuted, .fps, .source, .bitrate,
            .language, .subtitles,
        ] {
            XCTAssertNil(load[attribute], attribute.name)
        }
    }

    // The periodic observer idles while its ticks have nothing to do (playing steadily, or
    // paused); whatever its block reads wakes it: an observation, or the hub changing the state.

    func testAVPlayerObserverIdlesWhilePlayingSteadilyAndAnObservationWakesIt() throws {
        let timeline = try TimelineDecoder.decode(
            Array(
                T.single(
                    kind: "avplayer", settings: noPings,
                    [
                        T.observe(0, #""presentationSize": {"width": 640, "height": 360}, "rate": 1"#),
                        T.observe(5000, #""volume": 1"#),
                        T.observe(7100, #""presentationSize": {"width": 1280, "height": 720}"#),
                        T.observe(9000, #""volume": 0.5"#),
                    ]
                ).utf8), file: "t.json")
        let backend = TrackerRecordingBackend()
        let replayer = Replayer(
            settings: timeline.settings, backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        let instrument = replayer.instrument
        replayer.start()
        // Whether the observer idles once the ticks before each step have fired.
        var idle: [Bool] = []
        for step in timeline.steps {
            instrument.advanceClock(to: step.t)
            idle.append(instrument.isTimerIdle(trackerId: 0, slot: 1))
            try replayer.play(step)
        }
        replayer.finish()
        // At 0 the rate change's own call of the block emits Start; a later tick finds nothing to
        // do and idles. The observation at 7100 wakes the timer: the tick at 7500 sees the bigger
        // picture, and the one at 8000 idles again.
        XCTAssertEqual(idle, [false, true, true, true])
        XCTAssertEqual(backend.trace, ["0 TrackerInit", "0 Start", "7500 QualityChangeUp"])
    }

    func testAVPlayerObserverIdlingHubStateChangesWakeIt() throws {
        // Playing steadily, the observer idles; a scripted SeekBegin (the hub sets seeking) and
        // PauseBegin (paused) are finished by the next tick, as a ticking observer would; End then
        // a custom action re-arm the finished playback (the hub clears started), and the next tick
        // starts it again.
        let out = try replay([
            T.observe(0, #""rate": 1"#),
            T.action(10_250, "SeekBegin"),
            T.action(20_100, "PauseBegin"),
            T.action(30_000, "End"),
            T.action(40_200, "Foo"),
            T.observe(45_000, #""volume": 1"#),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 Start", "10250 SeekBegin", "10500 SeekFinish", "20100 PauseBegin",
                "20500 PauseFinish", "30000 End", "40200 Foo", "40500 Start",
            ])
    }

    /// An AVPlayer tracker of the user's that watches each observation.
    private final class KeyRecordingAVPlayerTracker: AVPlayerTracker {
        var keys: [String] = []

        override func observe(_ observation: Observation) {
            keys.append(observation.key)
            super.observe(observation)
        }
    }

    func testAVPlayerSubclassSeesEachObservationOfAStepInOrder() {
        let backend = TrackerRecordingBackend()
        let instrument = Instrument(
            hub: HubCore(pingInterval: 0), backend: backend, clock: VirtualClock(now: 0),
            identifiers: SeededUUIDGenerator(seed: 0))
        let tracker = KeyRecordingAVPlayerTracker(spec: TrackerSpec(name: "content", kind: .avplayer))
        instrument.addTracker(tracker)
        instrument.ready()
        tracker.observe(step: [Observation("status", .string("readyToPlay")), Observation("rate", .int(1))])
        XCTAssertEqual(tracker.keys, ["status", "rate"])
        XCTAssertEqual(backend.trace, ["0 TrackerInit", "0 StreamLoad", "0 Start"])
    }
}
