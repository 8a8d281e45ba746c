import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTimeline

/// The state history is the data the KPIs come from: read back from `kpi --format json` into the
/// history model, it gives the printed time and count KPIs again, through the same `enter` and
/// `PlaybackFigures` the replay used, for every fixture and player log and every definition set.
final class StateHistoryRoundTripTests: XCTestCase {
    /// What `kpi --format json` prints for `path`: the sessions as the command reads them.
    private func kpiJSON(_ path: String, _ definitions: KPIDefinitions) throws -> JSONValue {
        var writer = KPIJSONWriter(definitions: definitions, aggregate: false)
        try KPISessions.forEach([path], fromEvents: false, keepSpans: true) { writer.add($0) }
        return try JSONParser.parse(writer.finish()).value
    }

    func testTheKPIsRecomputedFromTheJSONHistoryEqualThePrintedOnes() throws {
        let paths = try CSVTestSupport.fixtureInputs()
        XCTAssertGreaterThanOrEqual(paths.count, 20)
        var playbacks = 0
        var states = Set<String>()
        for path in paths {
            for definitions in KPIDefinitions.allCases {
                for playback in try Self.playbacks(try kpiJSON(path, definitions)) {
                    let entries = try Self.entries(playback["history"], path)
                    let switches = try Self.switches(playback["switchHistory"], path)
                    let firstFrame: Int?
                    switch playback["firstFrameAt"] {
                    case .int(let t)?: firstFrame = t
                    case .null?: firstFrame = nil
                    default: throw Failure.shape
                    }
                    let history = PlaybackHistory(
                        id: "read back", entries: entries, switches: switches, firstFrame: firstFrame)
                    let recomputed = KPICalculator.values(PlaybackFigures(history), definitions, flags: true)
                    // The switches are the renditions played, which every set but exoplayer weighs
                    // (PlaybackStats takes ExoPlayer's formats as events, docs/kpi.md).
                    let formats = definitions == .exoplayer ? [] : ["averageBitrate", "averageResolutionHeight"]
                    // The shaka set measures the element with a state history of its own (Shaka
                    // Player's, docs/kpi.md), which this one does not hold.
                    let names = definitions == .shaka ? [] : KPIName.fromStateHistory + formats
                    for name in names {
                        XCTAssertEqual(
                            recomputed[name: name].map(Self.json), playback[name],
                            "\(path) \(definitions) \(name)")
                    }
                    playbacks += 1
                    states.formUnion(entries.map(\.state.name))
                }
            }
        }
        // Not a vacuous pass: many playbacks, through every kind of state the fixtures reach.
        XCTAssertGreaterThanOrEqual(playbacks, 4 * paths.count)
        let reached = [
            "joining", "playing", "paused", "seeking", "buffering", "ended", "stopped", "failed", "in an ad",
        ]
        for state in reached {
            XCTAssertTrue(states.contains(state), state)
        }
    }

    /// Each state lasts until the next begins: the history covers the playback without a gap.
    func testTheHistoryHasNoGaps() throws {
        for path in try CSVTestSupport.fixtureInputs() {
            for playback in try Self.playbacks(try kpiJSON(path, .openavt)) {
                let entries = try Self.entries(playback["history"], path)
                XCTAssertEqual(entries.first?.state, .notStarted, path)
                for (a, b) in zip(entries, entries.dropFirst()) { XCTAssertEqual(a.t + a.durationMs, b.t, path) }
            }
        }
    }

    // MARK: Reading the JSON back

    private static func playbacks(_ document: JSONValue) throws -> [[String: JSONValue]] {
        var out: [[String: JSONValue]] = []
        for session in try XCTUnwrap(document["sessions"]?.elements) {
            for playback in try XCTUnwrap(session["playbacks"]?.elements) {
                guard case .object(let members) = playback else { throw Failure.shape }
                out.append(Dictionary(members.map { ($0.key, $0.node.value) }, uniquingKeysWith: { a, _ in a }))
            }
        }
        return out
    }

    private static func entries(_ history: JSONValue?, _ path: String) throws -> [PlaybackHistory.Entry] {
        try XCTUnwrap(history?.elements, path).map { entry in
            guard case .string(let name)? = entry["state"], let state = PlaybackState(name: name),
                case .int(let t)? = entry["t"], case .int(let duration)? = entry["durationMs"]
            else { throw Failure.shape }
            return PlaybackHistory.Entry(state: state, t: t, durationMs: duration)
        }
    }

    private static func switches(_ history: JSONValue?, _ path: String) throws -> [(t: Int, format: VideoFormat)] {
        try XCTUnwrap(history?.elements, path).map { entry in
            guard case .int(let t)? = entry["t"] else { throw Failure.shape }
            func number(_ key: String) -> Int? { if case .int(let v)? = entry[key] { v } else { nil } }
            return (t, VideoFormat(height: number("height"), bitrate: number("bitrate")))
        }
    }

    /// A KPI as the JSON reader gives it back.
    private static func json(_ value: KPIValue) -> JSONValue {
        switch value {
        case .int(let v): .int(v)
        case .double(let v): .double(v)
        case .bool(let v): .bool(v)
        }
    }

    private enum Failure: Error { case shape }
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.node.value
    }

    fileprivate var elements: [JSONValue]? {
        guard case .array(let nodes) = self else { return nil }
        return nodes.map(\.value)
    }
}
