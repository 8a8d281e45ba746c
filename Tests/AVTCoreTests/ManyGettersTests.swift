import XCTest

@testable import AVTCore

/// A timeline can give a tracker any number of getters (one per attribute it sets). Past a few
/// dozen, an event's getters are applied by looking up only the attributes the event had before
/// them; the event must read exactly as when each was set one by one.
final class ManyGettersTests: XCTestCase {
    /// A tracker with `count` custom getters `many0`, `many1`, …, and getters for two attributes
    /// the instrument sets before the getters run (the sender and a time-since attribute).
    private final class ManyTracker: Tracker {
        var trackerId: Int?
        var state = TrackerState()
        let count: Int
        var value = 1

        init(count: Int) { self.count = count }

        func instrumentReady(_ instrument: Instrument) {
            for i in 0..<count {
                instrument.registerGetter(
                    Attribute("many\(i)"), AttributeGetter(reading: self) { .int($0.value * 1000 + i) }, tracker: self)
            }
            instrument.registerGetter(.senderId, AttributeGetter { .string("mine") }, tracker: self)
            instrument.registerGetter(
                Action.start.timeAttribute, AttributeGetter(reading: self) { .int(-$0.value) }, tracker: self)
            instrument.registerGetter(.bitrate, AttributeGetter { .int(500) }, tracker: self)
        }
    }

    private func events(_ backend: RecordingBackend) -> [Event] {
        backend.deliveries.compactMap { delivery -> Event? in
            if case .event(let event) = delivery { return event }
            return nil
        }
    }

    func testManyGettersSetTheirValuesAndReplaceEarlierAttributesInPlace() {
        for count in [3, 200] {
            let backend = RecordingBackend()
            let instrument = Instrument(hub: HubCore(), backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
            let tracker = ManyTracker(count: count)
            instrument.addTracker(tracker)
            instrument.ready()
            instrument.emit(.start, tracker: tracker)
            tracker.value = 2
            instrument.emit(.ping, tracker: tracker)
            let ping = events(backend).last!
            // The sender comes first (the instrument's), holding the getter's value; the
            // time-since attribute the Start delivery made is replaced where it was.
            XCTAssertEqual(ping.attributes.entry(at: 0).key, .senderId, "\(count)")
            XCTAssertEqual(ping[.senderId], .string("mine"), "\(count)")
            XCTAssertEqual(ping.attributes.entry(at: 1).key, Action.start.timeAttribute, "\(count)")
            XCTAssertEqual(ping[Action.start.timeAttribute], .int(-2), "\(count)")
            XCTAssertEqual(ping[.bitrate], .int(500))
            for i in 0..<count { XCTAssertEqual(ping[Attribute("many\(i)")], .int(2000 + i)) }
            XCTAssertEqual(ping.attributes.keys.count, Set(ping.attributes.keys).count, "no attribute twice")
        }
    }

    func testOmittedCustomAttributesLeaveEventsButStayWithTheirGetters() {
        let backend = RecordingBackend()
        let instrument = Instrument(hub: HubCore(), backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        let tracker = ManyTracker(count: 100)
        instrument.addTracker(tracker)
        instrument.ready()
        instrument.omitCustomAttributes()
        instrument.emit(.start, tracker: tracker)
        let late = Attribute("registeredLater")
        instrument.registerGetter(late, AttributeGetter { .int(7) }, tracker: tracker)
        instrument.emit(.ping, tracker: tracker)
        for event in events(backend) {
            XCTAssertNil(event[Attribute("many0")])
            XCTAssertNil(event[late])
            XCTAssertEqual(event[.bitrate], .int(500), "built-in getters still apply")
        }
        XCTAssertEqual(events(backend).count, 2)
        XCTAssertEqual(instrument.callGetter(Attribute("many5"), tracker: tracker), .int(1005))
        XCTAssertEqual(instrument.callGetter(late, tracker: tracker), .int(7))
        instrument.unregisterGetter(late, tracker: tracker)
        XCTAssertNil(instrument.callGetter(late, tracker: tracker))
    }
}
