import AVTCore
import XCTest

// Ports of the upstream OpenAVT-iOS unit tests, with exact virtual times instead
// of sleeps. Step sequences and times follow the conformance timelines up-*.json.

private typealias Flag = WritableKeyPath<TrackerState, Bool>

/// Core tests: HubCore + recording backend, no metricalc, one DummyTracker.
final class UpstreamCoreTests: XCTestCase {
    private func makeReplay() -> Replay { Replay(metrics: false) }

    // "the id returned by addTracker equals tracker.trackerId"
    func testTrackedIdIntegrity() {
        let instrument = Instrument(
            hub: HubCore(), backend: RecordingBackend(), identifiers: SeededUUIDGenerator(seed: 1))
        let first = DummyTracker()
        let second = DummyTracker()
        let firstId = instrument.addTracker(first)
        let secondId = instrument.addTracker(second)
        instrument.ready()
        XCTAssertEqual(firstId, 0)
        XCTAssertEqual(secondId, 1)
        XCTAssertEqual(first.trackerId, firstId)
        XCTAssertEqual(second.trackerId, secondId)
        XCTAssertTrue(instrument.tracker(id: secondId) === second)
        XCTAssertEqual(instrument.tracker(id: firstId)?.trackerId, firstId)
    }

    // "state flags after each step of a full playback; didFinish true at the end"
    func testPlayerState() {
        let r = makeReplay()
        let sequence: [(Action, Flag, Bool)] = [
            (.mediaRequest, \.didMediaRequest, true), (.playerSet, \.didPlayerSet, true),
            (.streamLoad, \.didStreamLoad, true), (.bufferBegin, \.isBuffering, true),
            (.bufferFinish, \.isBuffering, false), (.start, \.didStart, true), (.pauseBegin, \.isPaused, true),
            (.seekBegin, \.isSeeking, true), (.bufferBegin, \.isBuffering, true), (.bufferFinish, \.isBuffering, false),
            (.seekFinish, \.isSeeking, false), (.pauseFinish, \.isPaused, false), (.end, \.didFinish, true),
        ]
        var expected = TrackerState()
        for (action, flag, value) in sequence {
            r.step(0, action)
            expected[keyPath: flag] = value
            XCTAssertEqual(r.trackers[0].state, expected, "state after \(action)")
        }
    }

    // "every event of a full playback (plus an Error inside the pause+seek block) reaches the backend"
    func testEventWorkflow() {
        let r = makeReplay()
        let actions: [Action] = [
            .mediaRequest, .playerSet, .streamLoad, .bufferBegin, .bufferFinish, .start, .pauseBegin, .seekBegin,
            .bufferBegin, .bufferFinish, .error, .seekFinish, .pauseFinish, .end,
        ]
        for action in actions { r.expect(r.step(0, action), action) }
    }

    // "repeated MediaRequest/BufferBegin change nothing; missing SeekFinish/End leave flags set; Ping changes nothing"
    func testPlayerStateMistakes() {
        let r = makeReplay()
        let sequence: [(Action, Flag?, Bool)] = [
            (.mediaRequest, \.didMediaRequest, true), (.mediaRequest, nil, true),
            (.playerSet, \.didPlayerSet, true), (.streamLoad, \.didStreamLoad, true),
            (.bufferBegin, \.isBuffering, true), (.bufferBegin, nil, true), (.bufferFinish, \.isBuffering, false),
            (.start, \.didStart, true), (.pauseBegin, \.isPaused, true), (.seekBegin, \.isSeeking, true),
            (.bufferBegin, \.isBuffering, true), (.bufferFinish, \.isBuffering, false),
            (.ping, nil, true),  // missing SeekFinish
            (.pauseFinish, \.isPaused, false),
            (.ping, nil, true),  // missing End
        ]
        var expected = TrackerState()
        for (action, flag, value) in sequence {
            r.step(0, action)
            if let flag { expected[keyPath: flag] = value }
            XCTAssertEqual(r.trackers[0].state, expected, "state after \(action)")
        }
        XCTAssertTrue(r.trackers[0].state.isSeeking, "the missing SeekFinish leaves isSeeking set")
        XCTAssertFalse(r.trackers[0].state.didFinish, "the missing End leaves the playback open")
    }

    // "Stop first, repeated MediaRequest, SeekFinish without SeekBegin, End after End, PauseBegin after End: blocked"
    func testEventWorkflowMistakes() {
        let r = makeReplay()
        let sequence: [(Action, Bool)] = [
            (.stop, false), (.mediaRequest, true), (.mediaRequest, false), (.playerSet, true), (.streamLoad, true),
            (.bufferBegin, true), (.bufferFinish, true), (.start, true), (.pauseBegin, true), (.seekBegin, true),
            (.bufferBegin, true), (.bufferFinish, true), (.seekFinish, true), (.pauseFinish, true), (.ping, true),
            (.seekFinish, false), (.end, true), (.end, false), (.pauseBegin, false),
        ]
        for (index, (action, delivered)) in sequence.enumerated() {
            let d = r.step(0, action)
            if delivered {
                r.expect(d, action)
            } else {
                XCTAssertTrue(d.isEmpty, "step \(index) \(action) must be blocked, got \(d)")
            }
        }
    }

    // "BufferFinish.timeSinceBufferBegin=800, Start.timeSinceMediaRequest=1100, SeekFinish/PauseFinish time-since=600"
    func testTimeSinceAttributes() {
        let r = makeReplay()
        r.expect(r.step(0, .mediaRequest), .mediaRequest)
        r.expect(r.step(300, .playerSet), .playerSet)
        r.expect(r.step(300, .streamLoad), .streamLoad)
        r.expect(r.step(300, .bufferBegin), .bufferBegin)
        r.expect(r.step(1100, .bufferFinish), .bufferFinish, [ts(.bufferBegin): 800])
        r.expect(r.step(1100, .start), .start, [ts(.mediaRequest): 1100])
        r.expect(r.step(1100, .pauseBegin), .pauseBegin)
        r.expect(r.step(1100, .seekBegin), .seekBegin)
        r.expect(r.step(1100, .bufferBegin), .bufferBegin)
        r.expect(r.step(1700, .bufferFinish), .bufferFinish, [ts(.bufferBegin): 600])
        r.expect(r.step(1700, .seekFinish), .seekFinish, [ts(.seekBegin): 600])
        r.expect(r.step(1700, .pauseFinish), .pauseFinish, [ts(.pauseBegin): 600])
        r.expect(r.step(1700, .end), .end)
    }

    // "countStarts/countErrors 0/0, 1/0, 1/1, (repeated Start ignored) 1/2, after End + Start 2/2, 2/3"
    func testCounters() {
        let r = makeReplay()
        r.expect(r.step(0, .streamLoad), .streamLoad, [.countStarts: 0, .countErrors: 0])
        r.expect(r.step(0, .start), .start, [.countStarts: 1, .countErrors: 0])
        r.expect(r.step(0, .error), .error, [.countStarts: 1, .countErrors: 1])
        r.expectBlocked(r.step(0, .start))
        r.expect(r.step(0, .ping), .ping, [.countStarts: 1, .countErrors: 1])
        r.expect(r.step(0, .error), .error, [.countStarts: 1, .countErrors: 2])
        r.expect(r.step(0, .end), .end, [.countStarts: 1, .countErrors: 2])
        r.expect(r.step(0, .start), .start, [.countStarts: 2, .countErrors: 2])
        r.expect(r.step(0, .error), .error, [.countStarts: 2, .countErrors: 3])
    }

    // "End carries accumBufferTime=1800, accumPauseTime=2500, accumSeekTime=1000"
    func testAccumulatedTimes() {
        let r = makeReplay()
        let delivered = r.run([
            Step(0, 0, .streamLoad), Step(0, 0, .bufferBegin), Step(800, 0, .bufferFinish), Step(800, 0, .start),
            Step(800, 0, .pauseBegin), Step(2300, 0, .pauseFinish), Step(2300, 0, .pauseBegin),
            Step(2300, 0, .seekBegin), Step(2300, 0, .bufferBegin), Step(3300, 0, .bufferFinish),
            Step(3300, 0, .seekFinish), Step(3300, 0, .pauseFinish),
        ])
        XCTAssertEqual(delivered.count, 12, "every step is accepted")
        r.expect(r.step(3300, .end), .end, [.accumBufferTime: 1800, .accumPauseTime: 2500, .accumSeekTime: 1000])
    }

    // "in-block flags on StreamLoad, BufferBegin, Start, PauseBegin, BufferBegin inside pause+seek, PauseFinish, End"
    func testInBlocks() {
        let r = makeReplay()
        func flags(_ playback: Bool, _ pause: Bool, _ buffer: Bool, _ seek: Bool) -> [Attribute: AttributeValue] {
            [
                .inPlaybackBlock: .bool(playback), .inPauseBlock: .bool(pause), .inBufferBlock: .bool(buffer),
                .inSeekBlock: .bool(seek),
            ]
        }
        r.expect(r.step(0, .streamLoad), .streamLoad, flags(false, false, false, false))
        r.expect(r.step(0, .bufferBegin), .bufferBegin, flags(false, false, true, false))
        r.step(0, .bufferFinish)
        r.expect(r.step(0, .start), .start, flags(true, false, false, false))
        r.expect(r.step(0, .pauseBegin), .pauseBegin, flags(true, true, false, false))
        r.step(0, .pauseFinish)
        r.step(0, .pauseBegin)
        r.step(0, .seekBegin)
        r.expect(r.step(0, .bufferBegin), .bufferBegin, flags(true, true, true, true))
        r.step(0, .bufferFinish)
        r.step(0, .seekFinish)
        r.expect(r.step(0, .pauseFinish), .pauseFinish, flags(true, false, false, false))
        r.expect(r.step(0, .end), .end, flags(false, false, false, false))
    }

    // "Buffer(4): 4 puts succeed, the 5th fails, set(0) works, retrieveInOrder sorts by timestamp"
    func testBuffers() {
        func sample(_ action: Action, _ t: Int) -> Sample { .event(Event(action: action, timestamp: t)) }
        var buffer = SampleBuffer(size: 4)
        XCTAssertTrue(buffer.put(sample(.start, 0)))
        XCTAssertTrue(buffer.put(sample(.bufferBegin, 50)))
        XCTAssertTrue(buffer.put(sample(.bufferFinish, 100)))
        XCTAssertTrue(buffer.put(sample(.end, 150)))
        XCTAssertEqual(buffer.remaining, 0)
        XCTAssertFalse(buffer.put(sample(.ping, 200)), "a full buffer refuses the sample")
        XCTAssertEqual(buffer.count, 4)
        XCTAssertTrue(buffer.set(sample(.error, 250), at: 0))
        XCTAssertFalse(buffer.set(sample(.error, 300), at: 4), "set only replaces an existing index")

        let ordered = buffer.retrieveInOrder().map { $0.timestamp }
        XCTAssertEqual(ordered, [50, 100, 150, 250])
        XCTAssertEqual(buffer.count, 0, "retrieve empties the buffer")
        XCTAssertEqual(buffer.remaining, 4)
    }
}

/// Ads tests: HubCoreAds + recording backend, no metricalc, DummyTracker C (0) and DummyAdsTracker A (1).
final class UpstreamAdsTests: XCTestCase {
    // C and A are the content and ads trackers of the upstream test scenarios.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    private let C = 0
    // swift-format-ignore: AlwaysUseLowerCamelCase
    private let A = 1

    private enum Change {
        case none
        /// Only the emitting content tracker's flag.
        case content(Flag, Bool)
        /// An ad flag, set on every tracker.
        case both(Flag, Bool)
    }

    /// Runs the steps at t=0 and checks both trackers' states after each one.
    private func runStates(_ steps: [(Int, Action, Change)], file: StaticString = #filePath, line: UInt = #line) {
        let r = Replay.ads(metrics: false)
        var content = TrackerState()
        var ads = TrackerState()
        for (index, (tracker, action, change)) in steps.enumerated() {
            r.step(0, action, tracker: tracker)
            switch change {
            case .none: break
            case .content(let flag, let value): content[keyPath: flag] = value
            case .both(let flag, let value):
                content[keyPath: flag] = value
                ads[keyPath: flag] = value
            }
            XCTAssertEqual(
                r.trackers[C].state, content, "content state after step \(index) \(action)", file: file, line: line)
            XCTAssertEqual(r.trackers[A].state, ads, "ads state after step \(index) \(action)", file: file, line: line)
        }
    }

    /// Runs the steps at t=0 and checks which are delivered.
    private func runWorkflow(_ steps: [(Int, Action, Bool)], file: StaticString = #filePath, line: UInt = #line) {
        let r = Replay.ads(metrics: false)
        for (index, (tracker, action, delivered)) in steps.enumerated() {
            let d = r.step(0, action, tracker: tracker)
            if delivered {
                r.expect(d, action, tracker: tracker, file: file, line: line)
            } else {
                XCTAssertTrue(d.isEmpty, "step \(index) \(action) must be blocked, got \(d)", file: file, line: line)
            }
        }
    }

    // "inAdBreak/inAd propagate to both trackers for a pre-roll, a 2-ad mid-roll and a post-roll"
    func testAdsState() {
        runStates([
            (C, .mediaRequest, .content(\.didMediaRequest, true)), (C, .playerSet, .content(\.didPlayerSet, true)),
            (C, .streamLoad, .content(\.didStreamLoad, true)), (C, .bufferBegin, .content(\.isBuffering, true)),
            (A, .adBreakBegin, .both(\.inAdBreak, true)), (A, .adBegin, .both(\.inAd, true)),
            (A, .adFinish, .both(\.inAd, false)), (A, .adBreakFinish, .both(\.inAdBreak, false)),
            (C, .bufferFinish, .content(\.isBuffering, false)), (C, .start, .content(\.didStart, true)),
            (A, .adBreakBegin, .both(\.inAdBreak, true)), (A, .adBegin, .both(\.inAd, true)),
            (A, .adFinish, .both(\.inAd, false)), (A, .adBegin, .both(\.inAd, true)),
            (A, .adFinish, .both(\.inAd, false)), (A, .adBreakFinish, .both(\.inAdBreak, false)),
            (C, .end, .content(\.didFinish, true)),
            (A, .adBreakBegin, .both(\.inAdBreak, true)), (A, .adBegin, .both(\.inAd, true)),
            (A, .adFinish, .both(\.inAd, false)), (A, .adBreakFinish, .both(\.inAdBreak, false)),
        ])
    }

    // "all ad events reach the backend, including AdPauseBegin/AdPauseFinish"
    func testAdEventWorkflow() {
        runWorkflow([
            (C, .streamLoad, true), (C, .bufferBegin, true),
            (A, .adBreakBegin, true), (A, .adBegin, true), (A, .adFinish, true), (A, .adBreakFinish, true),
            (C, .bufferFinish, true), (C, .start, true),
            (A, .adBreakBegin, true), (A, .adBegin, true), (A, .adPauseBegin, true), (A, .adPauseFinish, true),
            (A, .adFinish, true), (A, .adBegin, true), (A, .adFinish, true), (A, .adBreakFinish, true),
            (C, .end, true),
            (A, .adBreakBegin, true), (A, .adBegin, true), (A, .adFinish, true), (A, .adBreakFinish, true),
        ])
    }

    // "repeated AdBreakBegin/AdFinish ignored; AdBreakFinish without AdFinish clears inAdBreak but leaves inAd true"
    func testAdStateMistakes() {
        runStates([
            (C, .mediaRequest, .content(\.didMediaRequest, true)), (C, .playerSet, .content(\.didPlayerSet, true)),
            (C, .streamLoad, .content(\.didStreamLoad, true)), (C, .bufferBegin, .content(\.isBuffering, true)),
            (A, .adBreakBegin, .both(\.inAdBreak, true)), (A, .adBreakBegin, .none),
            (A, .adBegin, .both(\.inAd, true)), (A, .adFinish, .both(\.inAd, false)), (A, .adFinish, .none),
            (A, .adBreakFinish, .both(\.inAdBreak, false)),
            (C, .bufferFinish, .content(\.isBuffering, false)), (C, .start, .content(\.didStart, true)),
            (A, .adBreakBegin, .both(\.inAdBreak, true)), (A, .adBegin, .both(\.inAd, true)),
            (A, .adFinish, .both(\.inAd, false)), (A, .adBegin, .both(\.inAd, true)),
            (A, .adFinish, .both(\.inAd, false)), (A, .adBreakFinish, .both(\.inAdBreak, false)),
            (C, .end, .content(\.didFinish, true)),
            (A, .adBreakBegin, .both(\.inAdBreak, true)), (A, .adBegin, .both(\.inAd, true)),
            // Missing AdFinish: inAd stays true on both trackers.
            (A, .adBreakFinish, .both(\.inAdBreak, false)),
        ])
    }

    // "AdBreakBegin inside an ad, repeated AdFinish/AdBreakFinish, AdPause outside an ad, ad events after End without a break: blocked"
    func testAdEventWorkflowMistake() {
        runWorkflow([
            (C, .streamLoad, true), (C, .bufferBegin, true),
            (A, .adBreakBegin, true), (A, .adBegin, true), (A, .adBreakBegin, false), (A, .adFinish, true),
            (A, .adFinish, false), (A, .adBreakFinish, true),
            (C, .bufferFinish, true), (C, .start, true),
            (A, .adBreakBegin, true), (A, .adBegin, true), (A, .adFinish, true), (A, .adBegin, true),
            (A, .adFinish, true), (A, .adPauseBegin, false), (A, .adPauseFinish, false), (A, .adBreakFinish, true),
            (A, .adBreakFinish, false),
            (C, .end, true),
            (A, .adBegin, false), (A, .adFinish, false), (A, .adBreakFinish, false),
        ])
    }

    // "AdBegin.timeSinceAdBreakBegin=500, AdPauseFinish.timeSinceAdPauseBegin=600, AdFinish.timeSinceAdBegin=1600, AdBreakFinish.timeSinceAdBreakBegin=2400"
    func testAdTimeSinceAttributes() {
        let r = Replay.ads(metrics: false)
        r.expect(r.step(0, .streamLoad, tracker: C), .streamLoad)
        r.expect(r.step(0, .bufferBegin, tracker: C), .bufferBegin)
        r.expect(r.step(0, .adBreakBegin, tracker: A), .adBreakBegin)
        r.expect(r.step(500, .adBegin, tracker: A), .adBegin, [ts(.adBreakBegin): 500])
        r.expect(r.step(1500, .adPauseBegin, tracker: A), .adPauseBegin)
        r.expect(r.step(2100, .adPauseFinish, tracker: A), .adPauseFinish, [ts(.adPauseBegin): 600])
        r.expect(r.step(2100, .adFinish, tracker: A), .adFinish, [ts(.adBegin): 1600])
        r.expect(r.step(2400, .adBreakFinish, tracker: A), .adBreakFinish, [ts(.adBreakBegin): 2400])
        r.expect(r.step(2400, .bufferFinish, tracker: C), .bufferFinish)
        r.expect(r.step(2400, .start, tracker: C), .start)
        r.expect(r.step(2400, .end, tracker: C), .end)
    }

    // "countAds 0 on StreamLoad, 1 after the pre-roll, 3 after a 2-ad mid-roll, 4 after the post-roll"
    func testAdCounters() {
        let r = Replay.ads(metrics: false)
        r.expect(r.step(0, .streamLoad, tracker: C), .streamLoad, [.countAds: 0])
        let preroll: [Step] = [
            Step(0, C, .bufferBegin), Step(0, A, .adBreakBegin), Step(0, A, .adBegin),
            Step(0, A, .adFinish),
        ]
        r.run(preroll)
        r.expect(r.step(0, .adBreakFinish, tracker: A), .adBreakFinish, [.countAds: 1])
        r.run([
            Step(0, C, .bufferFinish), Step(0, C, .start), Step(0, A, .adBreakBegin), Step(0, A, .adBegin),
            Step(0, A, .adPauseBegin), Step(0, A, .adPauseFinish), Step(0, A, .adFinish), Step(0, A, .adBegin),
            Step(0, A, .adFinish),
        ])
        r.expect(r.step(0, .adBreakFinish, tracker: A), .adBreakFinish, [.countAds: 3])
        r.run([Step(0, C, .end), Step(0, A, .adBreakBegin), Step(0, A, .adBegin), Step(0, A, .adFinish)])
        r.expect(r.step(0, .adBreakFinish, tracker: A), .adBreakFinish, [.countAds: 4])
    }

    // "inAdBreakBlock/inAdBlock on StreamLoad, AdBreakBegin, AdBegin, AdFinish, AdBreakFinish"
    func testInBlocks() {
        let r = Replay.ads(metrics: false)
        func flags(_ adBreak: Bool, _ ad: Bool) -> [Attribute: AttributeValue] {
            [.inAdBreakBlock: .bool(adBreak), .inAdBlock: .bool(ad)]
        }
        r.expect(r.step(0, .streamLoad, tracker: C), .streamLoad, flags(false, false))
        r.step(0, .bufferBegin, tracker: C)
        r.expect(r.step(0, .adBreakBegin, tracker: A), .adBreakBegin, flags(true, false))
        r.expect(r.step(0, .adBegin, tracker: A), .adBegin, flags(true, true))
        r.expect(r.step(0, .adFinish, tracker: A), .adFinish, flags(true, false))
        r.expect(r.step(0, .adBreakFinish, tracker: A), .adBreakFinish, flags(false, false))
        r.expect(r.step(0, .bufferFinish, tracker: C), .bufferFinish)
        r.expect(r.step(0, .start, tracker: C), .start, flags(false, false))
        r.expect(r.step(0, .end, tracker: C), .end, flags(false, false))
    }
}

/// Metrics test: HubCore + MetricalcCore + recording backend, one DummyTracker.
final class UpstreamMetricsTests: XCTestCase {
    // "NumRequests, NumLoads, no metric for pre-Start buffering, StartTime=700 + NumPlays, RebufferTime=500 + NumRebuffers, Error PlayTime=800, End NumEnds + PlayTime"
    func testMetricsWorkflow() {
        let r = Replay()
        r.expect(r.step(0, .mediaRequest), .mediaRequest, metrics: [("NumRequests", 1)])
        r.expect(r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)])
        r.expect(r.step(0, .bufferBegin), .bufferBegin, metrics: [])
        r.expect(r.step(0, .bufferFinish), .bufferFinish, metrics: [])
        r.expect(r.step(700, .start), .start, metrics: [("StartTime", 700), ("NumPlays", 1)])
        r.expect(r.step(700, .bufferBegin), .bufferBegin, metrics: [("PlayTime", 0)])
        r.expect(r.step(1200, .bufferFinish), .bufferFinish, metrics: [("RebufferTime", 500), ("NumRebuffers", 1)])
        r.expect(r.step(2000, .error), .error, metrics: [("PlayTime", 800)])
        r.expect(r.step(2000, .end), .end, metrics: [("NumEnds", 1), ("PlayTime", 0)])
    }
}
