import AVTReplayKit
import Foundation
import XCTest

// Only public API here (no @testable import), through the one import of docs/library.md: what a
// package depending on avtreplay's AVTReplayKit product can do.

/// A player tracker of our own: scripted steps drive it, and it reports its CDN on every event.
final class CDNTracker: ScriptableTracker {
    override func playerReady(_ instrument: Instrument) {
        instrument.registerGetter(Attribute("cdn"), AttributeGetter { .string("edge-3") }, tracker: self)
    }
}

/// A backend of our own: counts the events of each action.
final class ActionCounter: Backend {
    var counts: [String: Int] = [:]
    func sendEvent(_ event: Event) { counts[event.action.name, default: 0] += 1 }
    func sendMetric(_ metric: Metric) {}
}

/// docs/library.md's replay example, run as written, and the replayer's plug-in points.
final class LibraryUseTests: XCTestCase {
    func testLibraryPageExampleRunsAsDocumented() throws {
        let json = """
            {"trackers": [{"name": "content"}], "steps": [
              {"t": 0, "tracker": "content", "action": "StreamLoad"},
              {"t": 800, "tracker": "content", "action": "Start"},
              {"t": 5000, "tracker": "content", "action": "BufferBegin"},
              {"t": 6500, "tracker": "content", "action": "BufferFinish"},
              {"t": 61000, "tracker": "content", "action": "End"}]}
            """
        let timeline = try TimelineDecoder.decode(Array(json.utf8), file: "session.json")

        let counter = ActionCounter()
        let kpis = KPIBackend(session: "session.json")
        var components = ReplayComponents()
        components.makeTracker = { spec in CDNTracker(spec: spec) }
        try Replayer.replay(
            timeline, backend: FanOutBackend([counter, kpis]), identifiers: SeededUUIDGenerator(seed: 0),
            components: components)

        let playback = kpis.kpis.playback(kpis.kpis.playbackIds[0], definitions: .openavt)
        print(playback[.startupTime]!, playback[.rebufferTime]!)  // int(800) int(1500)
        // end of example

        // OpenAVT's StartTime: the Start's time since the StreamLoad; one rebuffer of 1.5 s.
        XCTAssertEqual(playback[name: "startupTime"], .int(800))
        XCTAssertEqual(playback[name: "rebufferTime"], .int(1500))
        XCTAssertEqual(playback[name: "rebufferCount"], .int(1))
        XCTAssertEqual(counter.counts["Start"], 1)
        XCTAssertEqual(counter.counts["Ping"], 2, "pings at 30800 and 60800")
    }

    /// The example's code block in docs/library.md is this test's code: a change to either shows.
    func testLibraryPageShowsThisExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = root.appendingPathComponent("docs/library.md")
        guard FileManager.default.fileExists(atPath: page.path) else {
            return XCTFail("docs/library.md is missing")
        }
        let doc = try String(contentsOf: page, encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        func squeezed(_ s: Substring) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let blocks = doc.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        guard let replay = blocks.first(where: { $0.contains("Replayer.replay(") }) else {
            return XCTFail("docs/library.md shows no Replayer.replay example")
        }
        // The page shows the example as top-level code; compare its lines, indentation aside.
        for line in replay.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            XCTAssertTrue(
                squeezed(Substring(source)).contains(squeezed(line)), "docs/library.md line not in this test: \(line)")
        }
    }

    /// A user's hub, metricalc and tracker factory replace OpenAVT's, and the instrument is made
    /// ready on the first step, so a component added before it is made ready with the rest.
    func testReplayerTakesTheUsersComponents() throws {
        final class CountingMetricalc: Metricalc {
            func processMetric(_ event: Event, tracker: Tracker) -> [Metric] {
                [Metric(name: "Seen", kind: .counter, value: .int(1), timestamp: event.timestamp)]
            }
        }
        final class NoQualityChanges: HubCore {
            override func processEvent(_ event: Event, tracker: Tracker) -> Event? {
                event.action == .qualityChangeUp ? nil : super.processEvent(event, tracker: tracker)
            }
        }
        final class ReadyCounter: Backend {
            var ready = 0
            var metrics: [String] = []
            var actions: [String] = []
            func instrumentReady(_ instrument: Instrument) { ready += 1 }
            func sendEvent(_ event: Event) { actions.append(event.action.name) }
            func sendMetric(_ metric: Metric) { metrics.append(metric.name) }
        }
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "content")]
        settings.pingInterval = 0
        let backend = ReadyCounter()
        let components = ReplayComponents(
            makeHub: { _ in NoQualityChanges() }, makeMetricalc: { _ in CountingMetricalc() },
            makeTracker: { CDNTracker(spec: $0) })
        let replayer = Replayer(
            settings: settings, backend: backend, identifiers: SeededUUIDGenerator(seed: 0), components: components)
        XCTAssertEqual(backend.ready, 0, "not ready before the first step")
        XCTAssertTrue(replayer.trackers[0] is CDNTracker)
        for (t, action) in [(0, Action.streamLoad), (500, .start), (900, .qualityChangeUp), (1000, .end)] {
            try replayer.play(Step(t: t, tracker: 0, action: action, origin: StepOrigin(index: t)))
        }
        replayer.finish()
        XCTAssertEqual(backend.ready, 1)
        XCTAssertEqual(backend.actions, ["StreamLoad", "Start", "End"], "the user's hub blocked the quality change")
        XCTAssertEqual(backend.metrics, ["Seen", "Seen", "Seen"], "the user's metricalc, not MetricalcCore")
    }

    /// The standard metricalc adds the pre-call window metrics only where a netstats tracker can
    /// make windows; every other replay runs plain MetricalcCore.
    func testStandardMetricalcHasPreCallMetricsOnlyWithNetstats() {
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "content", kind: .avplayer)]
        XCTAssertTrue(type(of: ReplayComponents.standardMetricalc(settings)!) == MetricalcCore.self)
        settings.trackers.append(TrackerSpec(name: "net", kind: .netstats))
        XCTAssertTrue(ReplayComponents.standardMetricalc(settings) is NetStatsMetricalc)
        settings.metrics = false
        XCTAssertNil(ReplayComponents.standardMetricalc(settings))
    }

    /// Any backend runs beside the record writers, e.g. the KPI calculator beside a user's backend.
    func testFanOutTakesAnyBackend() throws {
        let counter = ActionCounter()
        let kpis = KPIBackend(session: "s")
        let fanOut = FanOutBackend([counter, kpis])
        XCTAssertNil(fanOut.writeError)
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "content")]
        let replayer = Replayer(settings: settings, backend: fanOut, identifiers: SeededUUIDGenerator(seed: 0))
        try replayer.play(Step(t: 0, tracker: 0, action: .streamLoad, origin: StepOrigin(index: 0)))
        try replayer.play(Step(t: 700, tracker: 0, action: .start, origin: StepOrigin(index: 1)))
        replayer.finish()
        XCTAssertEqual(counter.counts, ["StreamLoad": 1, "Start": 1])
        XCTAssertEqual(kpis.kpis.totals(definitions: .openavt)[name: "startupTime"], .int(700))
    }
}
