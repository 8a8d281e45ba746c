import AVTCore
import AVTJSON
import XCTest

@testable import AVTReplay
@testable import AVTTimeline

/// Records what reaches the backend, in delivery order.
final class TrackerRecordingBackend: Backend {
    private(set) var events: [Event] = []
    private(set) var metrics: [Metric] = []

    func sendEvent(_ event: Event) { events.append(event) }
    func sendMetric(_ metric: Metric) { metrics.append(metric) }

    /// `"<t> <Action>"` per delivered event, e.g. `"500 Start"`.
    var trace: [String] { events.map { "\($0.timestamp) \($0.action.name)" } }

    /// `"<t> <trackerId>:<Action>"` per delivered event, for timelines with several trackers.
    var traceByTracker: [String] { events.map { "\($0.timestamp) \($0.trackerId ?? -1):\($0.action.name)" } }

    /// `"<t> <Metric>=<value>"` per delivered metric.
    var metricTrace: [String] { metrics.map { "\($0.timestamp) \($0.name)=\($0.value)" } }

    /// The delivered events of an action, in order.
    func events(_ action: Action) -> [Event] { events.filter { $0.action == action } }

    /// The only delivered event of an action (fails the test if there are none or several).
    func event(_ action: Action, file: StaticString = #filePath, line: UInt = #line) -> Event? {
        let found = events(action)
        XCTAssertEqual(found.count, 1, "deliveries of \(action.name)", file: file, line: line)
        return found.first
    }
}

/// Builders for small timelines: one tracker per entry of `trackers` (name → kind).
enum TrackerTimeline {
    /// A one-tracker timeline; the tracker is called "content" unless it is an ima tracker ("ads").
    static func single(kind: String, settings: String = "", _ steps: [String]) -> String {
        let name = kind == "ima" ? "ads" : "content"
        return document(trackers: [#"{"name": "\#(name)", "kind": "\#(kind)"}"#], settings: settings, steps)
    }

    static func document(trackers: [String], settings: String = "", _ steps: [String]) -> String {
        let prefix = settings.isEmpty ? "" : settings + ", "
        return "{" + prefix + "\"trackers\": [" + trackers.joined(separator: ", ") + "], \"steps\": [\n"
            + steps.joined(separator: ",\n") + "\n]}"
    }

    /// An `observe` step (the observation object's members in source order).
    static func observe(_ t: Int, _ members: String, tracker: String = "content") -> String {
        #"{"t": \#(t), "tracker": "\#(tracker)", "observe": {\#(members)}}"#
    }

    /// A scripted-action step.
    static func action(_ t: Int, _ name: String, tracker: String = "content") -> String {
        #"{"t": \#(t), "tracker": "\#(tracker)", "action": "\#(name)"}"#
    }

    /// Decodes and replays through the real path (decoder → Replayer → instrument chain).
    static func replay(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> TrackerRecordingBackend
    {
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
        let backend = TrackerRecordingBackend()
        try Replayer.replay(timeline, backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        return backend
    }

    /// The decoder's error for a timeline that must not decode.
    static func decodeError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> TimelineError? {
        do {
            _ = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
            XCTFail("decoded without error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}
