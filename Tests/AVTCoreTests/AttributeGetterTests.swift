import XCTest

@testable import AVTCore

/// Getters made with `AttributeGetter(reading:)` hold what they read strongly; nothing else
/// keeps a tracker or its instrument alive once the caller lets go of them.
final class AttributeGetterTests: XCTestCase {
    /// A tracker whose getters read it through their argument, as the player trackers' do.
    private final class ReadingTracker: Tracker {
        var trackerId: Int?
        var state = TrackerState()
        var position = 0
        private(set) weak var instrument: Instrument?

        func instrumentReady(_ instrument: Instrument) {
            self.instrument = instrument
            instrument.registerGetter(.position, AttributeGetter(reading: self) { .int($0.position) }, tracker: self)
            instrument.registerGetter(
                .bitrate,
                AttributeGetter(reading: self, filter: { event, _ in event.action == .start }) {
                    .int($0.position * 2)
                },
                tracker: self)
        }
    }

    func testAReadingGetterIsHandedItsSubjectAndHonoursItsFilter() {
        let backend = RecordingBackend()
        let instrument = Instrument(hub: HubCore(), backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        let tracker = ReadingTracker()
        instrument.addTracker(tracker)
        instrument.ready()
        tracker.position = 7
        instrument.emit(.streamLoad, tracker: tracker)
        tracker.position = 9
        instrument.emit(.start, tracker: tracker)
        let events = backend.deliveries.compactMap { delivery -> Event? in
            if case .event(let event) = delivery { return event }
            return nil
        }
        XCTAssertEqual(events.map { $0.attributes[.position] }, [.int(7), .int(9)])
        XCTAssertEqual(events.map { $0.attributes[.bitrate] }, [nil, .int(18)])
        XCTAssertEqual(instrument.callGetter(.position, tracker: tracker), .int(9))
    }

    func testTrackerAndInstrumentAreFreedAfterAReplay() {
        weak var weakTracker: ReadingTracker?
        weak var weakInstrument: Instrument?
        weak var weakHub: HubCore?
        do {
            let hub = HubCore(pingInterval: 1_000)
            let instrument = Instrument(
                hub: hub, metricalc: MetricalcCore(), backend: RecordingBackend(),
                identifiers: SeededUUIDGenerator(seed: 0))
            let tracker = ReadingTracker()
            instrument.addTracker(tracker)
            instrument.ready()
            instrument.emit(.streamLoad, tracker: tracker)
            instrument.emit(.start, tracker: tracker)  // starts a ping timer
            instrument.advanceClock(to: 2_500)
            instrument.shutdown()
            (weakTracker, weakInstrument, weakHub) = (tracker, instrument, hub)
            XCTAssertNotNil(weakTracker)
        }
        XCTAssertNil(weakTracker, "a getter or the instrument kept the tracker alive")
        XCTAssertNil(weakInstrument, "a tracker, hub or timer kept the instrument alive")
        XCTAssertNil(weakHub)
    }

    func testTrackerAndInstrumentAreFreedWithoutShutdown() {
        weak var weakTracker: ReadingTracker?
        weak var weakInstrument: Instrument?
        do {
            let instrument = Instrument(
                hub: HubCore(), backend: RecordingBackend(), identifiers: SeededUUIDGenerator(seed: 0))
            let tracker = ReadingTracker()
            instrument.addTracker(tracker)
            instrument.ready()
            instrument.emit(.streamLoad, tracker: tracker)
            instrument.emit(.start, tracker: tracker)
            (weakTracker, weakInstrument) = (tracker, instrument)
        }
        XCTAssertNil(weakTracker)
        XCTAssertNil(weakInstrument)
    }
}
