import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline
@testable import AVTTrackers

/// Reads the player-log fixtures as `run` and `kpi` do, keeping the warnings.
enum PlayerLogTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/player-logs")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The derived timeline of a file (format detected), and what its reader warned.
    static func read(_ path: String, format: TimelineFormat? = nil) throws -> (
        settings: TimelineSettings, steps: [Step], warnings: [String]
    ) {
        let box = WarningBox()
        var source = try TimelineReader.open(path, format: format, csvTrackers: [], warn: box.add)
        var steps: [Step] = []
        while let step = try source.nextStep() { steps.append(step) }
        return (source.settings, steps, box.warnings)
    }

    /// The same from bytes in memory (a reader of standard input: one pass).
    static func read(bytes text: String, format: TimelineFormat?, name: String = "<stdin>") throws -> (
        settings: TimelineSettings, steps: [Step], warnings: [String]
    ) {
        let box = WarningBox()
        var source = try TimelineReader.open(
            ByteInput(bytes: Array(text.utf8), name: name), format: format, csvTrackers: [], warn: box.add)
        var steps: [Step] = []
        while let step = try source.nextStep() { steps.append(step) }
        return (source.settings, steps, box.warnings)
    }

    /// `kpi`'s KPIs (OpenAVT definitions) of each playback, in order.
    static func kpis(_ path: String) throws -> [[KPI]] {
        let session = try KPISessions.replay(path)
        return session.playbackIds.map { session.playback($0, definitions: .openavt) }
    }

    /// How many observations of the derived timeline have `key` (and `value`, when given).
    static func count(_ steps: [Step], _ key: String, _ value: JSONValue? = nil) -> Int {
        steps.reduce(0) { sum, step in
            sum + step.observe.filter { $0.key == key && (value == nil || $0.value == value) }.count
        }
    }

    /// The derived timeline as compact text: `t tracker key=value …` per step.
    static func lines(_ steps: [Step], _ settings: TimelineSettings) -> [String] {
        steps.map { step in
            var parts = ["\(step.t)", settings.trackers[step.tracker].name]
            for o in step.observe {
                var w = JSONWriter(capacity: 32)
                w.value(o.value)
                parts.append("\(o.key)=\(String(decoding: w.bytes, as: UTF8.self))")
            }
            if let action = step.action { parts.append("action=\(action.name)") }
            return parts.joined(separator: " ")
        }
    }
}

/// Collects warnings (the readers call it synchronously, on the reading thread).
final class WarningBox: @unchecked Sendable {
    private(set) var warnings: [String] = []
    func add(_ message: String) { warnings.append(message) }
}

extension Array where Element == KPI {
    func int(_ name: String) -> Int? {
        if case .int(let value)? = self[name: name] { return value }
        return nil
    }
}
