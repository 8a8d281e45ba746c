import AVTCore
import XCTest

/// The HubCore conformance scenarios S00–S18 and S23, one test each, on the
/// scenario harness (HubCore + MetricalcCore + recording backend, DummyTracker T0).
final class ScenarioTests: XCTestCase {
    private let notStarted: [Attribute: AttributeValue] = [
        .countStarts: 0, .countErrors: 0, .accumPauseTime: 0, .accumBufferTime: 0, .accumSeekTime: 0,
        .inPauseBlock: false, .inSeekBlock: false, .inBufferBlock: false, .inPlaybackBlock: false,
    ]

    /// Two-step prologue used by most scenarios: 0 StreamLoad, `start` Start.
    private func loadAndStart(_ r: Replay, start: Int) {
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.streamId: "S1", .playbackId: "P1"])
        r.expect(
            r.step(start, .start), .start, metrics: [("StartTime", start), ("NumPlays", 1)],
            [.countStarts: 1, .inPlaybackBlock: true], absent: [.deltaPlayTime])
    }

    // "ready() at 0 → TrackerInit {trackerTarget=X, zeros, no ids, no timeSince*}; 500 StreamLoad → NumLoads, S1/P1, timeSinceTrackerInit=500"
    func testS00TrackerInit() {
        let r = Replay(trackers: [DummyTracker(trackerTarget: "X", emitsTrackerInit: true)])
        let initEvent = r.expect(
            r.drain(), .trackerInit, at: 0, tracker: 0, metrics: [],
            notStarted.merging([.trackerTarget: "X"]) { $1 }, absent: [.streamId, .playbackId])
        r.expectNoTimeSince(initEvent)

        r.expect(
            r.step(500, .streamLoad), .streamLoad, at: 500, metrics: [("NumLoads", 1)],
            [.streamId: "S1", .playbackId: "P1", ts(.trackerInit): 500, .trackerTarget: "X"])
    }

    // "Happy path: MediaRequest P1 … Start StartTime=1000 … End NumEnds, PlayTime=10000; ping cancelled; id → P2"
    func testS01HappyPathWithMediaRequest() {
        let r = Replay()
        let request = r.expect(
            r.step(0, .mediaRequest), .mediaRequest, metrics: [("NumRequests", 1)],
            [.playbackId: "P1", .inPlaybackBlock: false], absent: [.streamId])
        r.expectNoTimeSince(request)
        r.expect(
            r.step(100, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)],
            [.streamId: "S1", .playbackId: "P1", ts(.mediaRequest): 100])
        r.expect(r.step(150, .bufferBegin), .bufferBegin, [.inBufferBlock: true, ts(.streamLoad): 50])
        r.expect(
            r.step(900, .bufferFinish), .bufferFinish, metrics: [],
            [ts(.bufferBegin): 750, .accumBufferTime: 750, .inBufferBlock: false, .inPlaybackBlock: false])
        r.expect(
            r.step(1000, .start), .start, metrics: [("StartTime", 1000), ("NumPlays", 1)],
            [
                .countStarts: 1, .inPlaybackBlock: true, ts(.mediaRequest): 1000, ts(.streamLoad): 900,
                ts(.bufferFinish): 100,
            ],
            absent: [.deltaPlayTime])
        XCTAssertTrue(r.instrument.isPinging(trackerId: 0), "Start arms the ping")

        r.expect(
            r.step(11000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 10000)],
            [.deltaPlayTime: 10000, ts(.start): 10000, .inPlaybackBlock: false, .playbackId: "P1"])
        XCTAssertFalse(r.instrument.isPinging(trackerId: 0), "End cancels the ping")
        XCTAssertEqual(r.playbackName(r.hub.playbackId), "P2", "End rotates the playbackId")
        r.expectBlocked(r.advance(to: 70000))
    }

    // "StartTime from timeSinceStreamLoad; Pings at 30500 and 60500 carry PlayTime=30000; End at 70000 PlayTime=9500; no more pings"
    func testS02StartTimeFallbackAndPings() {
        let r = Replay()
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.streamId: "S1", .playbackId: "P1"])
        r.expect(r.step(500, .start), .start, metrics: [("StartTime", 500), ("NumPlays", 1)])

        r.expectBlocked(r.advance(to: 30499))
        r.expect(
            r.advance(to: 30500), .ping, at: 30500, tracker: 0, metrics: [("PlayTime", 30000)],
            [.deltaPlayTime: 30000, ts(.start): 30000, .inPlaybackBlock: true], absent: [ts(.ping)])
        r.expectBlocked(r.advance(to: 60499))
        r.expect(
            r.advance(to: 60500), .ping, at: 60500, metrics: [("PlayTime", 30000)],
            [.deltaPlayTime: 30000, ts(.ping): 30000])

        r.expect(
            r.step(70000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 9500)],
            [.deltaPlayTime: 9500, ts(.ping): 9500])
        r.expectBlocked(r.advance(to: 200000))
    }

    // "Pause block: PauseBegin PlayTime=4000; PauseFinish accumPauseTime=3000, no deltaPlayTime; End PlayTime=2000"
    func testS03PauseBlock() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(
            r.step(5000, .pauseBegin), .pauseBegin, metrics: [("PlayTime", 4000)],
            [.deltaPlayTime: 4000, .inPauseBlock: true])
        r.expect(
            r.step(8000, .pauseFinish), .pauseFinish, metrics: [],
            [ts(.pauseBegin): 3000, .accumPauseTime: 3000, .inPauseBlock: false], absent: [.deltaPlayTime])
        r.expect(
            r.step(10000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 2000)],
            [.deltaPlayTime: 2000, .accumPauseTime: 3000])
    }

    // "Blocked events do not touch time-since: QualityChangeUp at 600 has deltaPlayTime=300, timeSinceStart=300, timeSinceStreamLoad=500"
    func testS04BlockedEventsDoNotTouchTimeSince() {
        let r = Replay()
        r.expectBlocked(r.step(0, .stop))
        r.expectBlocked(r.step(10, .pauseBegin))
        r.expectBlocked(r.step(20, .bufferFinish))
        r.expectBlocked(r.step(30, .seekFinish))
        r.expect(r.step(100, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)])
        r.expectBlocked(r.step(200, .streamLoad))
        // The blocked StreamLoad at 200 did not move timeSinceStreamLoad: StartTime is 300 - 100.
        r.expect(r.step(300, .start), .start, metrics: [("StartTime", 200), ("NumPlays", 1)])
        r.expectBlocked(r.step(400, .start))
        r.expectBlocked(r.step(500, .pauseFinish))
        r.expect(
            r.step(600, .qualityChangeUp), .qualityChangeUp, metrics: [("PlayTime", 300)],
            [.deltaPlayTime: 300, ts(.start): 300, ts(.streamLoad): 500],
            absent: [ts(.stop), ts(.pauseBegin), ts(.bufferFinish), ts(.seekFinish), ts(.pauseFinish)])
    }

    // "Rebuffer: BufferBegin PlayTime=9000; BufferFinish RebufferTime=2000, NumRebuffers=1; End PlayTime=3000"
    func testS05RebufferDuringPlayback() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(
            r.step(10000, .bufferBegin), .bufferBegin, metrics: [("PlayTime", 9000)],
            [.deltaPlayTime: 9000, .inBufferBlock: true])
        r.expect(
            r.step(12000, .bufferFinish), .bufferFinish, metrics: [("RebufferTime", 2000), ("NumRebuffers", 1)],
            [
                ts(.bufferBegin): 2000, .accumBufferTime: 2000, .inPauseBlock: false, .inSeekBlock: false,
                .inPlaybackBlock: true,
            ],
            absent: [.deltaPlayTime])
        r.expect(r.step(15000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 3000)])
    }

    // "Initial buffering that ends after Start counts as a rebuffer: RebufferTime=800"
    func testS06InitialBufferingEndingAfterStartIsRebuffer() {
        let r = Replay()
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)])
        r.expect(r.step(100, .bufferBegin), .bufferBegin, metrics: [], [.inBufferBlock: true, .inPlaybackBlock: false])
        r.expect(
            r.step(600, .start), .start, metrics: [("StartTime", 600), ("NumPlays", 1)],
            [.inBufferBlock: true, .inPlaybackBlock: true], absent: [.deltaPlayTime])
        r.expect(
            r.step(900, .bufferFinish), .bufferFinish, metrics: [("RebufferTime", 800), ("NumRebuffers", 1)],
            [.accumBufferTime: 800], absent: [.deltaPlayTime])
        r.expect(r.step(2900, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 2000)])
    }

    // "Seek with buffering while paused: BufferFinish keeps inPauseBlock/inSeekBlock=true from its BufferBegin, no metrics"
    func testS07SeekWithBufferingWhilePaused() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(r.step(5000, .pauseBegin), .pauseBegin, metrics: [("PlayTime", 4000)])
        r.expect(
            r.step(6000, .seekBegin), .seekBegin, metrics: [], [.inPauseBlock: true, .inSeekBlock: true],
            absent: [.deltaPlayTime])
        r.expect(
            r.step(6100, .bufferBegin), .bufferBegin, metrics: [],
            [.inBufferBlock: true, .inPauseBlock: true, .inSeekBlock: true])
        r.expect(
            r.step(6500, .seekFinish), .seekFinish, metrics: [],
            [
                ts(.seekBegin): 500, .accumSeekTime: 500, .inSeekBlock: false, .inBufferBlock: true,
                .inPauseBlock: true,
            ])
        r.expect(
            r.step(7000, .pauseFinish), .pauseFinish, metrics: [],
            [ts(.pauseBegin): 2000, .accumPauseTime: 2000, .inPauseBlock: false, .inBufferBlock: true])
        r.expect(
            r.step(7200, .bufferFinish), .bufferFinish, metrics: [],
            [
                ts(.bufferBegin): 1100, .accumBufferTime: 1100, .inPauseBlock: true, .inSeekBlock: true,
                .inBufferBlock: false,
            ],
            absent: [.deltaPlayTime])
        r.expect(r.step(9200, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 2000)])
    }

    // "Seek while playing: SeekBegin PlayTime=4000; buffer inside the seek is no rebuffer; SeekFinish accumSeekTime=900; End PlayTime=2100"
    func testS08SeekWhilePlaying() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(
            r.step(5000, .seekBegin), .seekBegin, metrics: [("PlayTime", 4000)],
            [.deltaPlayTime: 4000, .inSeekBlock: true])
        r.expect(r.step(5050, .bufferBegin), .bufferBegin, metrics: [], [.inSeekBlock: true, .inBufferBlock: true])
        r.expect(
            r.step(5800, .bufferFinish), .bufferFinish, metrics: [],
            [.inSeekBlock: true, ts(.bufferBegin): 750])
        r.expect(
            r.step(5900, .seekFinish), .seekFinish, metrics: [],
            [ts(.seekBegin): 900, .accumSeekTime: 900], absent: [.deltaPlayTime])
        r.expect(r.step(8000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 2100)])
    }

    // "Counters and Error: countStarts/countErrors 0/0, 1/0, 1/1, 1/2, 2/2, 2/3; re-armed ping at 30700"
    func testS09CountersAndError() {
        let r = Replay()
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.countStarts: 0, .countErrors: 0])
        r.expect(
            r.step(100, .start), .start, metrics: [("StartTime", 100), ("NumPlays", 1)],
            [.countStarts: 1, .countErrors: 0])
        r.expect(
            r.step(200, .error), .error, metrics: [("PlayTime", 100)],
            [.countStarts: 1, .countErrors: 1, .deltaPlayTime: 100])
        r.expectBlocked(r.step(300, .start))
        r.expect(r.step(400, .ping), .ping, metrics: [("PlayTime", 200)], [.deltaPlayTime: 200])
        r.expect(
            r.step(500, .error), .error, metrics: [("PlayTime", 100)],
            [.countStarts: 1, .countErrors: 2, .deltaPlayTime: 100])
        r.expect(
            r.step(600, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 100)],
            [.deltaPlayTime: 100, .playbackId: "P1"])
        r.expect(
            r.step(700, .start), .start, metrics: [("StartTime", 700), ("NumPlays", 1)],
            [.countStarts: 2, .countErrors: 2, .playbackId: "P2", .streamId: "S1", ts(.end): 100],
            absent: [.deltaPlayTime])
        r.expect(
            r.step(800, .error), .error, metrics: [("PlayTime", 100)],
            [.countStarts: 2, .countErrors: 3, .deltaPlayTime: 100])

        r.expectBlocked(r.advance(to: 30699))
        let ping = r.advance(to: 31000)
        XCTAssertEqual(Replay.pings(ping), ["30700/0"], "ping re-armed by the Start at 700")
        r.expect(ping, .ping, at: 30700, metrics: [("PlayTime", 29900)], [.playbackId: "P2"])
    }

    // "Second playback on the same tracker: MediaRequest/StreamLoad blocked; Start StartTime=7000 from the first request, P2, S1"
    func testS10SecondPlaybackOnSameTracker() {
        let r = Replay()
        r.expect(r.step(0, .mediaRequest), .mediaRequest, metrics: [("NumRequests", 1)], [.playbackId: "P1"])
        r.expect(r.step(100, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.streamId: "S1"])
        r.expect(r.step(1000, .start), .start, metrics: [("StartTime", 1000), ("NumPlays", 1)])
        r.expect(r.step(5000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 4000)], [.playbackId: "P1"])
        r.expectBlocked(r.step(6000, .mediaRequest))
        r.expectBlocked(r.step(6100, .streamLoad))
        XCTAssertFalse(r.trackers[0].state.didStart, "the blocked MediaRequest re-armed the finished playback")
        r.expect(
            r.step(7000, .start), .start, metrics: [("StartTime", 7000), ("NumPlays", 1)],
            [
                .countStarts: 2, .playbackId: "P2", .streamId: "S1", ts(.end): 2000, ts(.streamLoad): 6900,
                ts(.mediaRequest): 7000,
            ])
    }

    // "End while paused: End has NumEnds only, inPauseBlock=true; PauseFinish after End blocked; Error carries P2, inPauseBlock=false"
    func testS11EndWhilePaused() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(r.step(3000, .pauseBegin), .pauseBegin, metrics: [("PlayTime", 2000)])
        r.expect(
            r.step(4000, .end), .end, metrics: [("NumEnds", 1)],
            [.inPauseBlock: true, .inPlaybackBlock: false, .accumPauseTime: 0, .playbackId: "P1"],
            absent: [.deltaPlayTime])
        r.expectBlocked(r.step(5000, .pauseFinish))
        r.expect(
            r.step(6000, .error), .error, metrics: [],
            [
                .countErrors: 1, .accumPauseTime: 0, .inPauseBlock: false, .inPlaybackBlock: false,
                .playbackId: "P2", ts(.end): 2000, ts(.pauseBegin): 3000,
            ],
            absent: [.deltaPlayTime])
    }

    // "Accumulated times: End carries accumBufferTime=1800, accumPauseTime=2500, accumSeekTime=1000; no RebufferTime; PlayTime=0 ×3"
    func testS12AccumulatedTimes() {
        let r = Replay()
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)])
        r.expect(r.step(0, .bufferBegin), .bufferBegin, metrics: [])
        r.expect(r.step(800, .bufferFinish), .bufferFinish, metrics: [], [.accumBufferTime: 800])
        r.expect(r.step(800, .start), .start, metrics: [("StartTime", 800), ("NumPlays", 1)])
        r.expect(r.step(800, .pauseBegin), .pauseBegin, metrics: [("PlayTime", 0)], [.deltaPlayTime: 0])
        r.expect(r.step(2300, .pauseFinish), .pauseFinish, metrics: [], [.accumPauseTime: 1500])
        r.expect(r.step(2300, .pauseBegin), .pauseBegin, metrics: [("PlayTime", 0)], [.deltaPlayTime: 0])
        r.expect(r.step(2300, .seekBegin), .seekBegin, metrics: [])
        r.expect(r.step(2300, .bufferBegin), .bufferBegin, metrics: [])
        r.expect(r.step(3300, .bufferFinish), .bufferFinish, metrics: [], [.accumBufferTime: 1800])
        r.expect(r.step(3300, .seekFinish), .seekFinish, metrics: [], [.accumSeekTime: 1000])
        r.expect(r.step(3300, .pauseFinish), .pauseFinish, metrics: [], [.accumPauseTime: 2500])
        r.expect(
            r.step(3300, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 0)],
            [.accumBufferTime: 1800, .accumPauseTime: 2500, .accumSeekTime: 1000, .deltaPlayTime: 0])
    }

    // "Pause during a rebuffer: BufferFinish is a rebuffer (inPauseBlock=false from BufferBegin); accumPauseTime=3500; End PlayTime=1000"
    func testS13PauseDuringRebuffer() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(r.step(5000, .bufferBegin), .bufferBegin, metrics: [("PlayTime", 4000)])
        r.expect(
            r.step(5500, .pauseBegin), .pauseBegin, metrics: [], [.inBufferBlock: true, .inPauseBlock: true],
            absent: [.deltaPlayTime])
        r.expect(
            r.step(6000, .bufferFinish), .bufferFinish, metrics: [("RebufferTime", 1000), ("NumRebuffers", 1)],
            [.inPauseBlock: false, .inSeekBlock: false])
        r.expect(
            r.step(9000, .pauseFinish), .pauseFinish, metrics: [],
            [ts(.pauseBegin): 3500, .accumPauseTime: 3500])
        r.expect(r.step(10000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 1000)])
    }

    // "Same-action time-since: QualityChangeUp carries the time since the previous one; custom Foo passes, later events carry timeSinceFoo"
    func testS14SameActionTimeSinceAndCustomActions() {
        let r = Replay()
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)])
        r.expect(r.step(200, .qualityChangeUp), .qualityChangeUp, metrics: [], absent: [.deltaPlayTime])
        r.expect(r.step(1000, .start), .start, metrics: [("StartTime", 1000), ("NumPlays", 1)])
        r.expect(
            r.step(2000, .qualityChangeUp), .qualityChangeUp, metrics: [("PlayTime", 1000)],
            [ts(.qualityChangeUp): 1800])
        r.expect(
            r.step(2500, .qualityChangeUp), .qualityChangeUp, metrics: [("PlayTime", 500)],
            [ts(.qualityChangeUp): 500])
        r.expect(
            r.step(3000, .qualityChangeDown), .qualityChangeDown, metrics: [("PlayTime", 500)],
            [ts(.qualityChangeUp): 500], absent: [ts(.qualityChangeDown)])
        r.expect(r.step(3100, Action("Foo")), Action("Foo"), metrics: [("PlayTime", 100)], absent: ["timeSinceFoo"])
        r.expect(
            r.step(3300, .qualityChangeDown), .qualityChangeDown, metrics: [("PlayTime", 200)],
            ["timeSinceFoo": 200, ts(.qualityChangeDown): 300])
    }

    // "Pings during a pause: Ping@31000 has no deltaPlayTime/metrics; Ping@61000 PlayTime=20000, timeSincePing=30000"
    func testS15PingsDuringPause() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(r.step(21000, .pauseBegin), .pauseBegin, metrics: [("PlayTime", 20000)])
        r.expectBlocked(r.advance(to: 30999))
        r.expect(
            r.advance(to: 31000), .ping, at: 31000, metrics: [],
            [.inPauseBlock: true, ts(.start): 30000, ts(.pauseBegin): 10000], absent: [.deltaPlayTime])
        r.expect(
            r.step(41000, .pauseFinish), .pauseFinish, metrics: [],
            [ts(.pauseBegin): 20000, .accumPauseTime: 20000])
        r.expectBlocked(r.advance(to: 60999))
        r.expect(
            r.advance(to: 61000), .ping, at: 61000, metrics: [("PlayTime", 20000)],
            [.deltaPlayTime: 20000, ts(.ping): 30000])
    }

    // "Stop and Next behave like End: Stop P1; Next blocked before a new Start; Start P2, countStarts=2; Next P2, id → P3"
    func testS16StopAndNextBehaveLikeEnd() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(r.step(2000, .stop), .stop, metrics: [("NumEnds", 1), ("PlayTime", 1000)], [.playbackId: "P1"])
        XCTAssertFalse(r.instrument.isPinging(trackerId: 0), "Stop cancels the ping")
        r.expectBlocked(r.step(3000, .next))
        r.expect(
            r.step(3500, .start), .start, metrics: [("StartTime", 3500), ("NumPlays", 1)],
            [.countStarts: 2, .playbackId: "P2"])
        r.expect(r.step(4000, .next), .next, metrics: [("NumEnds", 1), ("PlayTime", 500)], [.playbackId: "P2"])
        XCTAssertFalse(r.instrument.isPinging(trackerId: 0), "Next cancels the ping")
        XCTAssertEqual(r.playbackName(r.hub.playbackId), "P3")
    }

    // "Error before Start: accepted, countErrors=1, no metrics; End and Stop blocked; no pings ever"
    func testS17ErrorBeforeStart() {
        let r = Replay()
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)])
        r.expect(r.step(500, .error), .error, metrics: [], [.countErrors: 1, .inPlaybackBlock: false])
        r.expectBlocked(r.step(600, .end))
        r.expectBlocked(r.step(700, .stop))
        XCTAssertFalse(r.instrument.isPinging(trackerId: 0))
        r.expectBlocked(r.advance(to: 100000))
    }

    // "Duplicate BufferBegin blocked; BufferFinish RebufferTime=1000 measured from the first one"
    func testS18DuplicateBufferBegin() {
        let r = Replay()
        loadAndStart(r, start: 1000)
        r.expect(r.step(5000, .bufferBegin), .bufferBegin, metrics: [("PlayTime", 4000)])
        r.expectBlocked(r.step(5200, .bufferBegin))
        r.expect(
            r.step(6000, .bufferFinish), .bufferFinish, metrics: [("RebufferTime", 1000), ("NumRebuffers", 1)],
            [.accumBufferTime: 1000, ts(.bufferBegin): 1000])
    }

    // "Two content trackers share hub state: streamId S2 from T1, StartTime from T1's load, PlayTime clock reset by T1's Start"
    func testS23TwoContentTrackersShareHubState() {
        let r = Replay(trackers: [DummyTracker(), DummyTracker()])
        r.expect(
            r.step(0, .streamLoad, tracker: 0), .streamLoad, tracker: 0, metrics: [("NumLoads", 1)],
            [.streamId: "S1", .playbackId: "P1"])
        r.expect(
            r.step(100, .streamLoad, tracker: 1), .streamLoad, tracker: 1, metrics: [("NumLoads", 1)],
            [.streamId: "S2", .playbackId: "P1", .senderId: r.sender(1)])
        r.expect(
            r.step(200, .start, tracker: 0), .start, tracker: 0, metrics: [("StartTime", 100), ("NumPlays", 1)],
            [.countStarts: 1, .streamId: "S2", .senderId: r.sender(0)])
        r.expect(
            r.step(300, .start, tracker: 1), .start, tracker: 1, metrics: [("StartTime", 200), ("NumPlays", 1)],
            [.countStarts: 2, ts(.start): 100], absent: [.deltaPlayTime])
        r.expect(
            r.step(400, .pauseBegin, tracker: 0), .pauseBegin, tracker: 0, metrics: [("PlayTime", 100)],
            [.deltaPlayTime: 100])
    }
}
