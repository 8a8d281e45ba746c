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

    /// A tracker whose getters are fields it serves itself, as the AVPlayer tracker's are.
    private final class FieldTracker: Tracker, AttributeFields {
        var trackerId: Int?
        var state = TrackerState()
        var values: [AttributeValue?] = [.int(1), nil, .string("two")]
        var reads = 0

        func attributeValue(field: Int) -> AttributeValue? {
            reads += 1
            return values[field]
        }
    }

    /// Another object's fields, read through their getters.
    private final class OtherFields: AttributeFields {
        func attributeValue(field: Int) -> AttributeValue? { .int(100 + field) }
    }

    func testConstantAndFieldGettersGiveTheirValuesInRegistrationOrderAndCanBeReplaced() {
        let backend = RecordingBackend()
        let instrument = Instrument(backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        let tracker = FieldTracker()
        instrument.addTracker(tracker)
        instrument.setHub(HubCore())
        instrument.ready()
        let other = OtherFields()
        instrument.registerGetter(.title, AttributeGetter(constant: "Title"), tracker: tracker)
        instrument.registerGetter(.position, AttributeGetter(field: 0, of: tracker), tracker: tracker)
        instrument.registerGetter(.duration, AttributeGetter(field: 1, of: tracker), tracker: tracker)
        instrument.registerGetter(.bitrate, AttributeGetter(field: 7, of: other), tracker: tracker)
        instrument.registerGetter(.source, AttributeGetter(field: 2, of: tracker), tracker: tracker)
        instrument.registerGetter(.volume, AttributeGetter { .int(50) }, tracker: tracker)
        instrument.emit(.streamLoad, tracker: tracker)
        tracker.values = [.int(3), .int(4), nil]
        // Replaced in place: the title by a closure, the volume by a constant, the bitrate by a
        // field of the tracker's own.
        instrument.registerGetter(.title, AttributeGetter { "Other" }, tracker: tracker)
        instrument.registerGetter(.volume, AttributeGetter(constant: 60), tracker: tracker)
        instrument.registerGetter(.bitrate, AttributeGetter(field: 0, of: tracker), tracker: tracker)
        instrument.emit(.start, tracker: tracker)
        let events = backend.deliveries.compactMap { delivery -> Event? in
            if case .event(let event) = delivery { return event }
            return nil
        }
        let getters: [Attribute] = [.title, .position, .duration, .bitrate, .source, .volume]
        XCTAssertEqual(
            events.map { event in getters.map { event.attributes[$0] } },
            [
                [.string("Title"), .int(1), nil, .int(107), .string("two"), .int(50)],
                [.string("Other"), .int(3), .int(4), .int(3), nil, .int(60)],
            ])
        // In registration order, after the sender and the time-since attributes.
        XCTAssertEqual(
            events[0].attributes.keys.filter(getters.contains), [.title, .position, .bitrate, .source, .volume])
        XCTAssertEqual(instrument.callGetter(.volume, tracker: tracker), .int(60))
        XCTAssertEqual(instrument.callGetter(.duration, tracker: tracker), .int(4))
        XCTAssertEqual(AttributeGetter(field: 3, of: other).value(), .int(103))
        XCTAssertEqual(AttributeGetter(constant: true).value(), .bool(true))
        XCTAssertTrue(AttributeGetter(constant: 1).accepts(events[0], .volume), "a constant has no filter")
        instrument.unregisterGetter(.position, tracker: tracker)
        instrument.emit(.pauseBegin, tracker: tracker)
        XCTAssertEqual(
            backend.deliveries.compactMap { delivery -> AttributeValue?? in
                if case .event(let event) = delivery, event.action == .pauseBegin { return event.attributes[.position] }
                return nil
            }, [nil], "an unregistered field is not read")
    }
}
