import AVTJSON
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// The OpenAVT conformance cases: the copy kept under `Tests/Conformance` (or
/// `AVTREPLAY_CONFORMANCE_DIR`), and how they are compared: only
/// type/t/name/value/action/tracker/attributes count; playbackId, streamId and the instrument
/// part of senderId are normalised by first appearance; numbers by value.
enum Conformance {
    static var root: URL {
        if let dir = ProcessInfo.processInfo.environment["AVTREPLAY_CONFORMANCE_DIR"] {
            return URL(fileURLWithPath: dir)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Conformance")
    }

    /// Every `NAME.json` with a `NAME.expected.jsonl` beside it, in one suite folder. The cases
    /// are part of the repository: a missing folder is a failure, never a skip.
    static func cases(in suite: String) throws -> [URL] {
        let dir = root.appendingPathComponent(suite)
        let found = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".json") }
            .filter { FileManager.default.fileExists(atPath: expectedURL(for: $0).path) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        XCTAssertFalse(found.isEmpty, "no conformance cases in \(dir.path)")
        return found
    }

    static func expectedURL(for timeline: URL) -> URL {
        URL(fileURLWithPath: String(timeline.path.dropLast(".json".count)) + ".expected.jsonl")
    }

    /// Parses JSON Lines into values, skipping blank lines.
    static func records(_ text: String) throws -> [JSONValue] {
        var out: [JSONValue] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            out.append(try JSONParser.parse(String(line), firstLine: n + 1).value)
        }
        return out
    }

    /// A canonical, comparable rendering of records after the README's normalisation.
    static func normalized(_ records: [JSONValue]) -> [String] {
        var playbacks: [String: String] = [:]
        var streams: [String: String] = [:]
        let kept: Set<String> = ["type", "t", "name", "value", "action", "tracker", "attributes"]
        return records.map { record in
            guard case .object(let members) = record else { return canonical(record) }
            var fields: [(String, String)] = []
            for member in members where kept.contains(member.key) {
                guard member.key == "attributes", case .object(let attributes) = member.node.value else {
                    fields.append((member.key, canonical(member.node.value)))
                    continue
                }
                var normalizedAttributes: [(String, String)] = []
                for attribute in attributes {
                    var value = attribute.node.value
                    if case .string(let s) = value {
                        switch attribute.key {
                        case "playbackId": value = .string(label(s, prefix: "P", in: &playbacks))
                        case "streamId": value = .string(label(s, prefix: "S", in: &streams))
                        case "senderId": value = .string("I-" + (s.split(separator: "-").last.map(String.init) ?? ""))
                        default: break
                        }
                    }
                    normalizedAttributes.append((attribute.key, canonical(value)))
                }
                fields.append(
                    (
                        "attributes",
                        "{"
                            + normalizedAttributes.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(
                                separator: ",") + "}"
                    ))
            }
            return fields.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        }
    }

    /// P1, P2, … (or S1, …) by order of first appearance.
    private static func label(_ id: String, prefix: String, in labels: inout [String: String]) -> String {
        if let known = labels[id] { return known }
        let new = prefix + String(labels.count + 1)
        labels[id] = new
        return new
    }

    /// Type-strict rendering: a boolean is never a number, and 1 equals 1.0.
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "bool:\(b)"
        case .int(let i): return "num:\(i)"
        case .double(let d): return d.rounded() == d && abs(d) < 1e18 ? "num:\(Int(d))" : "num:\(d)"
        case .string(let s): return "str:\(s.debugDescription)"
        case .array(let items): return "[" + items.map { canonical($0.value) }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { "\($0.key)=\(canonical($0.node.value))" }.sorted().joined(separator: ",") + "}"
        }
    }

    /// Replays a timeline file in-process, exactly as `avtreplay run FILE` does.
    static func replay(_ url: URL, options: RunOptions = RunOptions()) throws -> String {
        let bytes = Array(try Data(contentsOf: url))
        let timeline = try TimelineDecoder.decode(bytes, file: url.lastPathComponent)
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: options, sink: sink)
        return sink.text
    }
}
