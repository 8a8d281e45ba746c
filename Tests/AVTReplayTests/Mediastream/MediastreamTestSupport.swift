import AVTCore
import Foundation
import XCTest

@testable import AVTFormats
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Replays small one-tracker timelines (startTime 0, HubCore, no pings unless asked) through
/// `--format mediastream` and reads the lines back.
enum MediastreamRun {
    struct Line {
        let text: String
        let fields: [String: Any]
        /// Epoch ms of the timeline's t=0.
        let origin: Int

        var event: String { fields["event"] as? String ?? "?" }
        /// Virtual ms: the timestamp less the timeline's startTime.
        var t: Int { (ISO8601.parse(fields["timestamp"] as? String ?? "") ?? -1) - origin }
        func int(_ key: String) -> Int? { fields[key] as? Int }
        func string(_ key: String) -> String? { fields[key] as? String }
        func isNull(_ key: String) -> Bool { fields[key] is NSNull }
    }

    static func lines(
        _ steps: [String], until: Int? = nil, pingInterval: Int = 0, options: MediastreamOptions = MediastreamOptions(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [Line] {
        let untilMember = until.map { #""until": \#($0), "# } ?? ""
        let document = """
            {"startTime": 0, "hub": "core", "pingInterval": \(pingInterval), \(untilMember)"trackers": [{"name": "content"}],
             "steps": [\(steps.map { step in step.replacingOccurrences(of: "{", with: #"{"tracker": "content", "#, options: [], range: step.range(of: "{")) }.joined(separator: ",\n"))]}
            """
        return try lines(document: document, options: options, file: file, line: line)
    }

    /// A whole timeline document (text) through `--format mediastream`.
    static func lines(
        document: String, options: MediastreamOptions = MediastreamOptions(), file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [Line] {
        let timeline = try TimelineDecoder.decode(Array(document.utf8), file: "test.json")
        var options = options
        options.startTime = timeline.settings.startTime
        let sink = MemorySink()
        let backend = MediastreamLineBackend(sink: sink, options: options)
        try Replayer.replay(timeline, backend: backend, identifiers: SeededUUIDGenerator(seed: 0))
        XCTAssertNil(backend.writeError, file: file, line: line)
        return try sink.text.split(separator: "\n").map { text in
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            return Line(
                text: String(text), fields: try XCTUnwrap(object as? [String: Any], file: file, line: line),
                origin: options.startTime)
        }
    }

    /// `"<t> <event>"` plus the named fields that are present and not null, e.g.
    /// `"12000 playing relative_streamed_time=10000"`.
    static func trace(_ lines: [Line], _ keys: [String]) -> [String] {
        lines.map { line in
            ([String(line.t), line.event]
                + keys.compactMap { key in
                    guard let value = line.fields[key], !(value is NSNull) else { return nil }
                    return "\(key)=\(value)"
                }).joined(separator: " ")
        }
    }
}
