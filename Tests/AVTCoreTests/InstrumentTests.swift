import AVTCore
import XCTest

/// Instrument chain, getter, hub, metricalc and component rules not covered by a scenario.
final class InstrumentTests: XCTestCase {

    // "ready() calls backend, metricalc, hub, then trackers; shutdown() ends trackers, hub, metricalc, backend"
    func testReadyAndShutdownOrder() {
        let log = CallLog()
        let instrument = Instrument(
            hub: LoggingHub(log), metricalc: LoggingMetricalc(log), backend: LoggingBackend(log),
            identifiers: SeededUUIDGenerator(seed: 0))
        instrument.addTracker(LoggingTracker(log, "tracker0"))
        instrument.addTracker(LoggingTracker(log, "tracker1"))
        instrument.ready()
        XCTAssertEqual(
            log.calls, ["ready backend", "ready metricalc", "ready hub", "ready tracker0", "ready tracker1"])
        log.calls = []
        instrument.shutdown()
        XCTAssertEqual(log.calls, ["end tracker0", "end tracker1", "end hub", "end metricalc", "end backend"])
        XCTAssertEqual(instrument.trackers.count, 2, "shutdown does not remove trackers")
    }

    // "setHub / setMetricalc / setBackend end the replaced component's service first"
    func testSettersEndReplacedComponents() {
        let log = CallLog()
        let instrument = Instrument(
            hub: LoggingHub(log), metricalc: LoggingMetricalc(log), backend: LoggingBackend(log),
            identifiers: SeededUUIDGenerator(seed: 0))
        instrument.setHub(HubCore())
        instrument.setMetricalc(MetricalcCore())
        instrument.setBackend(RecordingBackend())
        XCTAssertEqual(log.calls, ["end hub", "end metricalc", "end backend"])
    }

    // Not upstream (which calls no instrumentReady from the setters): a component set after
    // ready() is made ready at once, so a replaced hub does not drop every later event silently.
    func testComponentsSetAfterReadyAreMadeReady() {
        let log = CallLog()
        let instrument = Instrument(identifiers: SeededUUIDGenerator(seed: 0))
        instrument.setHub(LoggingHub(log))
        XCTAssertEqual(log.calls, [], "before ready(), the setters leave readiness to ready()")
        instrument.ready()
        XCTAssertEqual(log.calls, ["ready hub"])
        log.calls = []
        instrument.setHub(LoggingHub(log))
        instrument.setMetricalc(LoggingMetricalc(log))
        instrument.setBackend(LoggingBackend(log))
        XCTAssertEqual(log.calls, ["end hub", "ready hub", "ready metricalc", "ready backend"])
    }

    // A hub replaced mid-playback keeps accepting events: it learnt its instrument.
    func testReplacedHubKeepsDeliveringEvents() {
        let tracker = DummyTracker()
        let backend = RecordingBackend()
        let instrument = Instrument(hub: HubCore(), backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        instrument.addTracker(tracker)
        instrument.ready()
        instrument.setHub(HubCore())
        instrument.emit(.streamLoad, tracker: tracker)
        instrument.emit(.start, tracker: tracker)
        XCTAssertEqual(backend.deliveries.compactMap(\.event).map(\.action), [.streamLoad, .start])
    }

    // Not upstream: removeTracker stops the tracker's own timers (slot ≥ 1), which would call
    // into a tracker the instrument no longer has; its ping timer runs on, as upstream's.
    func testRemoveTrackerStopsItsOwnTimers() {
        let tracker = DummyTracker()
        let instrument = Instrument(
            hub: HubCore(), backend: RecordingBackend(), identifiers: SeededUUIDGenerator(seed: 0))
        let id = instrument.addTracker(tracker)
        instrument.ready()
        var fired = 0
        instrument.startTimer(trackerId: id, slot: 1, interval: 1000) { fired += 1 }
        instrument.startPing(trackerId: id, interval: 30_000)
        instrument.advanceClock(to: 2500)
        XCTAssertEqual(fired, 2)
        XCTAssertTrue(instrument.removeTracker(id))
        instrument.advanceClock(to: 10_000)
        XCTAssertEqual(fired, 2, "the removed tracker's own timer no longer fires")
        XCTAssertTrue(instrument.isPinging(trackerId: id), "the ping timer runs on, as upstream's")
    }

    // "Without a backend the hub still runs (state changes) but time-since is not recorded"
    func testHubRunsWithoutBackendButTimeSinceIsNotRecorded() {
        let clock = VirtualClock()
        let tracker = DummyTracker()
        let instrument = Instrument(
            hub: HubCore(), metricalc: MetricalcCore(), backend: nil, clock: clock,
            identifiers: SeededUUIDGenerator(seed: 0))
        instrument.addTracker(tracker)
        instrument.ready()
        instrument.emit(.streamLoad, tracker: tracker)
        XCTAssertTrue(tracker.state.didStreamLoad, "the hub accepted the StreamLoad")

        let backend = RecordingBackend()
        instrument.setBackend(backend)
        instrument.advanceClock(to: 500)
        instrument.emit(.streamLoad, tracker: tracker)
        XCTAssertTrue(backend.deliveries.isEmpty, "second StreamLoad blocked by the state set without a backend")
        instrument.emit(.start, tracker: tracker)
        XCTAssertEqual(
            backend.deliveries.compactMap(\.metric).map(\.name), ["NumPlays"],
            "no StartTime: the StreamLoad's time-since was never recorded")
        let start = backend.deliveries.last?.event
        XCTAssertEqual(start?.action, .start)
        XCTAssertNil(start?[ts(.streamLoad)])
        XCTAssertNotNil(start?[.streamId], "the hub made the streamId while no backend was set")
    }

    // Not upstream: the instrument reuses the storage of a delivered event's attributes for the
    // next event. A backend that keeps events must see each one exactly as it was delivered.
    func testEventsABackendKeepsAreNotChangedByLaterEvents() {
        let clock = VirtualClock()
        let tracker = DummyTracker(position: 0, hasPositionGetter: true)
        let backend = RecordingBackend()
        let instrument = Instrument(
            hub: HubCore(), metricalc: nil, backend: backend, clock: clock,
            identifiers: SeededUUIDGenerator(seed: 0))
        instrument.addTracker(tracker)
        instrument.ready()
        var expected: [[String]] = []
        for (t, action) in [
            (0, Action.streamLoad), (100, .start), (200, .pauseBegin), (300, .pauseFinish), (400, .end),
        ] {
            tracker.position = t * 2
            instrument.advanceClock(to: t)
            instrument.emit(action, tracker: tracker)
            let delivered = backend.deliveries.last?.event
            XCTAssertEqual(delivered?.action, action)
            expected.append(delivered.map { $0.attributes.map { "\($0.key.name)=\($0.value)" } } ?? [])
        }
        let kept = backend.deliveries.compactMap(\.event).map { $0.attributes.map { "\($0.key.name)=\($0.value)" } }
        XCTAssertEqual(kept, expected)
        XCTAssertEqual(
            backend.deliveries.compactMap(\.event).map { $0[.position] }, [0, 200, 400, 600, 800].map { .int($0) })
    }

    // "Getter attributes are added subject to their filter; callGetter ignores the filter; unregisterGetter removes it"
    func testGetterFilterAndUnregister() {
        let r = Replay()
        let tracker = r.trackers[0]
        r.instrument.registerGetter(
            .bitrate, AttributeGetter(filter: { event, _ in event.action != .ping }) { .int(5000) }, tracker: tracker)
        r.run([Step(0, 0, .streamLoad)])
        r.expect(r.step(0, .start), .start, metrics: [("StartTime", 0), ("NumPlays", 1)], [.bitrate: 5000])
        r.expect(r.advance(to: 30000), .ping, metrics: [("PlayTime", 30000)], absent: [.bitrate])
        XCTAssertEqual(r.instrument.callGetter(.bitrate, tracker: tracker), .int(5000))
        r.instrument.unregisterGetter(.bitrate, tracker: tracker)
        r.expect(r.step(31000, .error), .error, metrics: [("PlayTime", 1000)], absent: [.bitrate])
        XCTAssertNil(r.instrument.callGetter(.bitrate, tracker: tracker))
    }

    /// Not upstream's: a getter that changes its tracker's getters while the event is being
    /// built (replacing itself, adding another, removing one) changes them from the next event,
    /// and the getters of the event under way all still run.
    func testGettersChangedByAGetterTakeEffectFromTheNextEvent() {
        let r = Replay()
        let tracker = r.trackers[0]
        let instrument = r.instrument
        var calls = 0
        instrument.registerGetter(.title, AttributeGetter { .string("kept") }, tracker: tracker)
        instrument.registerGetter(
            .bitrate,
            AttributeGetter {
                calls += 1
                if calls == 1 {
                    instrument.registerGetter(.bitrate, AttributeGetter { .int(2) }, tracker: tracker)
                    instrument.registerGetter(.fps, AttributeGetter { .int(25) }, tracker: tracker)
                    instrument.unregisterGetter(.title, tracker: tracker)
                }
                return .int(1)
            }, tracker: tracker)
        r.expect(
            r.step(0, .streamLoad), .streamLoad, metrics: [("NumLoads", 1)], [.bitrate: 1, .title: "kept"],
            absent: [.fps])
        r.expect(
            r.step(10, .start), .start, metrics: [("StartTime", 10), ("NumPlays", 1)], [.bitrate: 2, .fps: 25],
            absent: [.title])
        XCTAssertEqual(calls, 1)
    }

    // "Actions are equal by name: a custom action named Start behaves as the built-in Start"
    func testCustomActionWithBuiltInNameBehavesAsBuiltIn() {
        let r = Replay()
        r.run([Step(0, 0, .streamLoad)])
        r.expect(
            r.step(100, Action("Start")), .start, metrics: [("StartTime", 100), ("NumPlays", 1)],
            [.countStarts: 1, .inPlaybackBlock: true])
        XCTAssertTrue(r.instrument.isPinging(trackerId: 0))
        XCTAssertEqual(Action("Start"), .start)
        XCTAssertEqual(Action("Foo").timeAttribute, "timeSinceFoo")
    }

    // "A custom time attribute replaces timeSince<name> on later events"
    func testCustomTimeAttribute() {
        let r = Replay()
        let foo = Action("Foo", timeAttribute: "fooAge")
        r.expect(r.step(100, foo), foo, metrics: [], absent: ["fooAge"])
        r.expect(r.step(350, .error), .error, metrics: [], ["fooAge": 250], absent: ["timeSinceFoo"])
    }

    // "MetricalcCore: Start without any MediaRequest/StreamLoad gives NumPlays only"
    func testStartWithoutLoadHasNoStartTime() {
        let r = Replay()
        r.expect(r.step(100, .start), .start, metrics: [("NumPlays", 1)], absent: [.playbackId, .streamId])
    }

    // "Under HubCoreAds an event rejected by the ads pre-checks does not re-arm a finished playback (and sees the old isPaused)"
    func testAdsPrecheckRejectionDoesNotRearmFinishedPlayback() {
        let r = Replay.ads()
        r.run([Step(0, 0, .streamLoad), Step(1000, 0, .start), Step(2000, 0, .pauseBegin), Step(3000, 0, .end)])
        let content = r.trackers[0]
        XCTAssertTrue(content.state.didFinish)
        r.expectBlocked(r.step(3100, .adBegin, tracker: 0))  // not in an ad break
        XCTAssertTrue(content.state.didFinish && content.state.didStart && content.state.isPaused, "not re-armed")

        r.run([Step(3200, 1, .adBreakBegin), Step(3300, 1, .adBegin)])
        r.expectBlocked(r.step(3400, .adPauseBegin, tracker: 0))  // pre-check sees the old isPaused
        r.expect(r.step(3500, .qualityChangeUp, tracker: 0), .qualityChangeUp, [.inPlaybackBlock: false])
        XCTAssertFalse(
            content.state.didFinish || content.state.didStart || content.state.isPaused, "re-armed by HubCore")
        r.expect(r.step(3600, .adPauseBegin, tracker: 0), .adPauseBegin, [.inPauseBlock: true])
    }

    // "ReservoirBuffer (iOS Algorithm R): when full, j is drawn in [0, samplingIndex); retrieve resets samplingIndex"
    func testReservoirBufferDrawBoundsAndReset() {
        func sample(_ t: Int) -> Sample { .event(Event(action: .ping, timestamp: t)) }
        // Always the largest draw: j = samplingIndex - 1.
        var reservoir = ReservoirBuffer(size: 3, random: MaxRandom())
        for t in 0..<3 { XCTAssertTrue(reservoir.put(sample(t))) }
        XCTAssertTrue(reservoir.put(sample(3)), "j = 2 < size replaces slot 2")
        XCTAssertFalse(reservoir.put(sample(4)), "j = 3 is outside the buffer")
        XCTAssertFalse(reservoir.put(sample(5)), "j = 4 is outside the buffer")
        XCTAssertEqual(reservoir.retrieve().map(\.timestamp), [0, 1, 3])
        XCTAssertEqual(reservoir.count, 0)

        for t in 10..<13 { XCTAssertTrue(reservoir.put(sample(t))) }
        XCTAssertTrue(reservoir.put(sample(13)), "samplingIndex was reset by retrieve")
        XCTAssertEqual(reservoir.retrieveInOrder().map(\.timestamp), [10, 11, 13])
    }

    // "retrieveInOrder sorts by timestamp and keeps delivery order for ties (metrics before their event)"
    func testSampleBufferStableOrderForTies() {
        var buffer = SampleBuffer(size: 5)
        buffer.put(.event(Event(action: .end, timestamp: 20)))
        buffer.put(.metric(.numEnds(at: 10)))
        buffer.put(.metric(.playTime(5, at: 10)))
        buffer.put(.event(Event(action: .error, timestamp: 10)))
        let order = buffer.retrieveInOrder().map { sample -> String in
            switch sample {
            case .metric(let m): return m.name
            case .event(let e): return e.action.name
            }
        }
        XCTAssertEqual(order, ["NumEnds", "PlayTime", "Error", "End"])
    }
}

// MARK: Logging components

private final class CallLog {
    var calls: [String] = []
}

private final class LoggingHub: HubCore {
    let log: CallLog
    init(_ log: CallLog) {
        self.log = log
        super.init()
    }
    override func instrumentReady(_ instrument: Instrument) {
        log.calls.append("ready hub")
        super.instrumentReady(instrument)
    }
    override func endOfService() { log.calls.append("end hub") }
}

private final class LoggingMetricalc: MetricalcCore {
    let log: CallLog
    init(_ log: CallLog) {
        self.log = log
        super.init()
    }
    override func instrumentReady(_ instrument: Instrument) { log.calls.append("ready metricalc") }
    override func endOfService() { log.calls.append("end metricalc") }
}

private final class LoggingBackend: Backend {
    let log: CallLog
    init(_ log: CallLog) { self.log = log }
    func instrumentReady(_ instrument: Instrument) { log.calls.append("ready backend") }
    func sendEvent(_ event: Event) {}
    func sendMetric(_ metric: Metric) {}
    func endOfService() { log.calls.append("end backend") }
}

private final class LoggingTracker: Tracker {
    var trackerId: Int?
    var state = TrackerState()
    let log: CallLog
    let name: String
    init(_ log: CallLog, _ name: String) {
        self.log = log
        self.name = name
    }
    func instrumentReady(_ instrument: Instrument) { log.calls.append("ready " + name) }
    func endOfService() { log.calls.append("end " + name) }
}

/// A generator whose every draw is the largest value, so `Int.random(in: 0..<n)` returns n - 1.
private struct MaxRandom: RandomNumberGenerator {
    mutating func next() -> UInt64 { .max }
}
