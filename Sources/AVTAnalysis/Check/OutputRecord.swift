import AVTJSON
import AVTTimeline

/// One record of an avtreplay output (or any OpenAVT-style JSONL event log), as compared by
/// `check` and `diff`: the fields that matter, attributes sorted by name.
package struct OutputRecord: Sendable, Equatable {
    /// 1-based line in its file.
    package var line: Int
    /// `event` or `metric`.
    package var type: String
    package var session: String?
    package var t: Int?
    /// The action of an event or the name of a metric.
    package var label: String
    package var tracker: String?
    /// A metric's value.
    package var value: JSONValue?
    package var attributes: [(key: String, value: JSONValue)]

    package static func == (a: OutputRecord, b: OutputRecord) -> Bool {
        a.line == b.line && a.type == b.type && a.session == b.session && a.t == b.t && a.label == b.label
            && a.tracker == b.tracker && a.value == b.value
            && a.attributes.elementsEqual(b.attributes) { $0.key == $1.key && $0.value == $1.value }
    }

    /// What alignment matches records on: the same kind of thing from the same place. Time and
    /// attributes are compared afterwards, so a shifted or changed record is reported as changed.
    var alignmentKey: String {
        type + "\u{1}" + label + "\u{1}" + (tracker ?? "") + "\u{1}" + (session ?? "")
    }

    package func attribute(_ key: String) -> JSONValue? {
        attributes.first { $0.key == key }?.value
    }

    /// `t=1000 event Start (content)` / `t=1000 metric StartTime = 1000`, for reports.
    package var summary: String {
        var text = "t=\(t.map(String.init) ?? "?") \(type) \(label)"
        if type == "metric", let value { text += " = " + JSONDiffText.render(value) }
        if let tracker { text += " (\(tracker))" }
        if let session { text += " [\(session)]" }
        return text
    }
}

/// Reads JSON Lines output records, one per non-blank line.
package enum OutputLog {
    package static func read(_ input: ByteInput) throws(TimelineError) -> [OutputRecord] {
        var lines = LineReader(input)
        var records: [OutputRecord] = []
        let file = input.name
        while let record = try lines.nextNonBlankLine({ (bytes, line) throws(TimelineError) in
            try parse(bytes, line: line, file: file)
        }) {
            records.append(record)
        }
        return records
    }

    package static func read(path: String) throws(TimelineError) -> [OutputRecord] {
        try read(ByteInput(path: path))
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, file: String) throws(TimelineError) -> OutputRecord {
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes, firstLine: line)
        } catch {
            throw TimelineError(file: file, location: error.location, message: error.message)
        }
        guard case .object(let members) = node.value else {
            throw TimelineError(file: file, location: node.location, message: "expected a record object, found \(node.value.typeName)")
        }
        func field(_ name: String) -> JSONNode? { members.first { $0.key == name }?.node }
        func string(_ name: String) -> String? {
            if case .string(let s)? = field(name)?.value { return s }
            return nil
        }
        guard let type = string("type"), type == "event" || type == "metric" else {
            throw TimelineError(
                file: file, location: node.location, message: "expected a record with \"type\": \"event\" or \"metric\"")
        }
        let labelKey = type == "event" ? "action" : "name"
        guard let label = string(labelKey) else {
            throw TimelineError(file: file, location: node.location, message: "expected a string \"\(labelKey)\" in a \(type) record")
        }
        var t: Int?
        if let tNode = field("t") {
            guard case .int(let value) = tNode.value else {
                throw TimelineError(file: file, location: tNode.location, message: "expected an integer \"t\"")
            }
            t = value
        }
        var attributes: [(key: String, value: JSONValue)] = []
        if let node = field("attributes") {
            guard case .object(let items) = node.value else {
                throw TimelineError(file: file, location: node.location, message: "expected an object of attributes")
            }
            attributes = items.map { ($0.key, $0.node.value) }.sorted { $0.0 < $1.0 }
        }
        return OutputRecord(
            line: line, type: type, session: string("session"), t: t, label: label, tracker: string("tracker"),
            value: field("value")?.value, attributes: attributes)
    }
}

/// Compact JSON text of a value, for reports.
package enum JSONDiffText {
    static func render(_ value: JSONValue) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.value(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
