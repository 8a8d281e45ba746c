import AVTCore
import XCTest

/// The example of docs/library.md ("Using the engine as a library"), kept compiling and true.
final class CustomComponentsTests: XCTestCase {
    final class RecordingBackend: Backend {
        var lines: [String] = []
        func sendEvent(_ event: Event) {
            lines.append("\(event.timestamp) \(event.action) \(event[.playbackId] != nil)")
        }
        func sendMetric(_ metric: Metric) { lines.append("\(metric.timestamp) \(metric.name) \(metric.value)") }
    }

    final class MyPlayerTracker: Tracker {
        var trackerId: Int?
        var state = TrackerState()
        func instrumentReady(_ instrument: Instrument) {
            instrument.registerGetter(.trackerTarget, AttributeGetter { .string("MyPlayer") }, tracker: self)
            instrument.registerGetter(Attribute("cdn"), AttributeGetter { .string("edge-3") }, tracker: self)
        }
    }

    final class StrictHub: HubCore {
        override func processEvent(_ event: Event, tracker: Tracker) -> Event? {
            if event.action == .qualityChangeUp || event.action == .qualityChangeDown, tracker.state.isBuffering {
                return nil
            }
            return super.processEvent(event, tracker: tracker)
        }
    }

    final class EventsPerPlayback: Metricalc {
        func processMetric(_ event: Event, tracker: Tracker) -> [Metric] {
            event.action == .end
                ? [Metric(name: "Ended", kind: .counter, value: .int(1), timestamp: event.timestamp)] : []
        }
    }

    func testReadmeExampleRunsAsDocumented() {
        let backend = RecordingBackend()
        let instrument = Instrument(
            hub: StrictHub(), metricalc: MetricalcCore(), backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        let player = MyPlayerTracker()
        instrument.addTracker(player)
        instrument.ready()
        instrument.emit(.streamLoad, tracker: player)
        instrument.advanceClock(to: 800)
        instrument.emit(.start, tracker: player)
        instrument.advanceClock(to: 40_000)
        instrument.emit(Action("UserTap"), tracker: player)
        XCTAssertEqual(
            backend.lines,
            [
                "0 NumLoads 1", "0 StreamLoad true", "800 StartTime 800", "800 NumPlays 1", "800 Start true",
                "30800 PlayTime 30000", "30800 Ping true", "40000 PlayTime 9200", "40000 UserTap true",
            ])
    }

    func testCustomHubRuleAndCustomMetricalcPlugIn() {
        final class Capture: Backend {
            var events: [Event] = []
            var metrics: [Metric] = []
            func sendEvent(_ event: Event) { events.append(event) }
            func sendMetric(_ metric: Metric) { metrics.append(metric) }
        }
        let backend = Capture()
        let instrument = Instrument(
            hub: StrictHub(), metricalc: EventsPerPlayback(), backend: backend,
            identifiers: SeededUUIDGenerator(seed: 1))
        let player = MyPlayerTracker()
        instrument.addTracker(player)
        instrument.ready()
        instrument.emit(.start, tracker: player)
        instrument.emit(.bufferBegin, tracker: player)
        instrument.emit(.qualityChangeDown, tracker: player)  // blocked by the custom rule
        instrument.emit(.bufferFinish, tracker: player)
        instrument.emit(.qualityChangeDown, tracker: player)
        instrument.emit(.end, tracker: player)
        XCTAssertEqual(
            backend.events.map(\.action.name), ["Start", "BufferBegin", "BufferFinish", "QualityChangeDown", "End"])
        XCTAssertEqual(backend.events.first?[Attribute("cdn")], .string("edge-3"))
        XCTAssertEqual(backend.events.first?[.trackerTarget], .string("MyPlayer"))
        XCTAssertEqual(backend.metrics.map(\.name), ["Ended"])
    }
}
