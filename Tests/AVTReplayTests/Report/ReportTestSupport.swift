import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// The hand-worked session the report tests check against, and a small tag scanner for the HTML.
enum ReportFixture {
    /// A generic content tracker and an ads tracker on a 40 s session:
    /// initial load 0–2000 (Start at 2000), a pre-roll ad break 500–1500 holding one ad 500–1500,
    /// a pause 12000–15000, a rebuffer 20000–21500, a seek 25000–26000, an Error at 30000, the
    /// hub's Ping at 32000 (30 s after Start) and End at 40000.
    static let timeline = #"""
        {
          "startTime": "2026-03-01T12:00:00Z",
          "trackers": [{"name": "content"}, {"name": "ads", "isAdsTracker": true}],
          "steps": [
            {"t": 0,     "tracker": "content", "action": "StreamLoad"},
            {"t": 0,     "tracker": "content", "action": "BufferBegin"},
            {"t": 500,   "tracker": "ads", "action": "AdBreakBegin"},
            {"t": 500,   "tracker": "ads", "action": "AdBegin"},
            {"t": 1500,  "tracker": "ads", "action": "AdFinish"},
            {"t": 1500,  "tracker": "ads", "action": "AdBreakFinish"},
            {"t": 2000,  "tracker": "content", "action": "BufferFinish"},
            {"t": 2000,  "tracker": "content", "action": "Start"},
            {"t": 12000, "tracker": "content", "action": "PauseBegin"},
            {"t": 15000, "tracker": "content", "action": "PauseFinish"},
            {"t": 20000, "tracker": "content", "action": "BufferBegin"},
            {"t": 21500, "tracker": "content", "action": "BufferFinish"},
            {"t": 25000, "tracker": "content", "action": "SeekBegin"},
            {"t": 26000, "tracker": "content", "action": "SeekFinish"},
            {"t": 30000, "tracker": "content", "action": "Error", "attributes": {"errorDescription": "HTTP 404 </script><b>"}},
            {"t": 40000, "tracker": "content", "action": "End"}
          ]
        }
        """#

    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The part of a page that comes from the delivered records alone: every tracker's lane and
    /// the metrics lane of each timeline, and the data islands (the playback lanes and the KPIs
    /// come from the state history, which a log and a timeline know differently).
    static func trackerLanes(_ page: String) -> String {
        var parts: [Substring] = []
        var rest = page[...]
        while let from = rest.range(of: "<g class=\"lane tracker\""),
            let to = rest.range(of: "</svg>", range: from.upperBound..<rest.endIndex)
        {
            parts.append(rest[from.lowerBound..<to.lowerBound])
            rest = rest[to.upperBound...]
        }
        rest = page[...]
        while let from = rest.range(of: "<script type=\"application/json\""),
            let to = rest.range(of: "</script>", range: from.upperBound..<rest.endIndex)
        {
            parts.append(rest[from.lowerBound..<to.lowerBound])
            rest = rest[to.upperBound...]
        }
        return parts.joined(separator: "\n")
    }

    /// Writes the timeline to `walkthrough.json` in a fresh directory and loads it as a report would.
    static func session(in dir: URL? = nil) throws -> ReportSession {
        let dir = try dir ?? directory()
        let path = dir.appendingPathComponent("walkthrough.json").path
        try timeline.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try ReportInput.load([path], fromEvents: false, csvTrackers: [])
        XCTAssertEqual(loaded.count, 1)
        return ReportSession(loaded[0])
    }
}

/// Start tags of an HTML text as (name, attributes), with entities in values decoded: enough to
/// check structure without a browser.
struct HTMLTag {
    var name: String
    var attributes: [String: String]
    /// Offset of the tag's `<` in the text's UTF-8, to read what follows it.
    var offset: Int

    subscript(_ key: String) -> String? { attributes[key] }
    var classes: Set<String> { Set((attributes["class"] ?? "").split(separator: " ").map(String.init)) }

    static func scan(_ html: String) -> [HTMLTag] {
        let bytes = Array(html.utf8)
        var tags: [HTMLTag] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count, isNameByte(bytes[i + 1]) else {
                i += 1
                continue
            }
            let start = i
            i += 1
            var name = ""
            while i < bytes.count, isNameByte(bytes[i]) || (bytes[i] >= 0x30 && bytes[i] <= 0x39) {
                name.unicodeScalars.append(UnicodeScalar(bytes[i]))
                i += 1
            }
            var attributes: [String: String] = [:]
            while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
                if bytes[i] == 0x20 || bytes[i] == UInt8(ascii: "/") {
                    i += 1
                    continue
                }
                var key = ""
                while i < bytes.count, bytes[i] != UInt8(ascii: "="), bytes[i] != 0x20, bytes[i] != UInt8(ascii: ">") {
                    key.unicodeScalars.append(UnicodeScalar(bytes[i]))
                    i += 1
                }
                var value = ""
                if i < bytes.count, bytes[i] == UInt8(ascii: "="), i + 1 < bytes.count,
                    bytes[i + 1] == UInt8(ascii: "\"")
                {
                    i += 2
                    let valueStart = i
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                    value = decode(String(decoding: bytes[valueStart..<i], as: UTF8.self))
                    i += 1
                }
                attributes[key] = value
            }
            tags.append(HTMLTag(name: name.lowercased(), attributes: attributes, offset: start))
            // Raw text elements: skip to their end tag so JSON and script are not read as markup.
            if name == "script" || name == "style" {
                let end = Array("</\(name)>".utf8)
                while i < bytes.count, !bytes[i...].starts(with: end) { i += 1 }
            }
        }
        return tags
    }

    static func decode(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == UInt8(ascii: "!")
    }

    /// The text between `<script type="application/json" id=ID>` and its `</script>`.
    static func island(_ html: String, id: String) -> String? {
        guard let open = html.range(of: "<script type=\"application/json\" id=\"\(id)\">"),
            let close = html.range(of: "</script>", range: open.upperBound..<html.endIndex)
        else { return nil }
        return String(html[open.upperBound..<close.lowerBound])
    }
}

/// The data island decoded back into records: t, lane name (nil for metrics), label, the full
/// attributes rebuilt from the per-lane diffs, and a metric's value.
struct IslandRecord: Equatable {
    var t: Int
    var lane: String?
    var label: String
    var attributes: [String: JSONValue]
    var value: JSONValue?

    /// Reads the island a line at a time (the writer puts each record on its own line): the
    /// tables from the first line, then each record.
    static func decode(_ text: String) throws -> [IslandRecord] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, lines[0].hasSuffix("\"records\":["), lines[lines.count - 1] == "]}" else {
            throw Failure("not a record per line")
        }
        guard case .object(let members) = try JSONParser.parse(lines[0] + "]}").value else {
            throw Failure("island is not an object")
        }
        func strings(_ key: String) throws -> [String] {
            guard case .array(let nodes)? = members.first(where: { $0.key == key })?.node.value else {
                throw Failure("no \(key)")
            }
            return try nodes.map {
                if case .string(let s) = $0.value { return s } else { throw Failure("\(key) holds a non-string") }
            }
        }
        let lanes = try strings("lanes")
        let labels = try strings("labels")
        let keys = try strings("keys")
        var state = [[String: JSONValue]](repeating: [:], count: lanes.count)
        var records: [IslandRecord] = []
        for line in lines.dropFirst().dropLast() {
            let value = try JSONParser.parse(line.hasSuffix(",") ? String(line.dropLast()) : line).value
            guard case .array(let fields) = value, fields.count == 4, case .int(let t) = fields[0].value,
                case .int(let lane) = fields[1].value, case .int(let label) = fields[2].value
            else { throw Failure("malformed record \(line)") }
            if lane < 0 {
                records.append(
                    IslandRecord(t: t, lane: nil, label: labels[label], attributes: [:], value: fields[3].value))
                continue
            }
            guard case .array(let diff) = fields[3].value else { throw Failure("no diff in \(line)") }
            for n in stride(from: 0, to: diff.count, by: 2) {
                guard case .int(let key) = diff[n].value else { throw Failure("bad key in \(line)") }
                if diff[n + 1].value == .null {
                    state[lane][keys[key]] = nil
                } else {
                    state[lane][keys[key]] = diff[n + 1].value
                }
            }
            records.append(
                IslandRecord(t: t, lane: lanes[lane], label: labels[label], attributes: state[lane], value: nil))
        }
        return records
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}
