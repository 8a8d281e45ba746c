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
    /// A metric's `metricType` (`counter` or `gauge`), when the record says.
    package var metricType: String? = nil
    /// Every other top-level member (`time`, and anything a golden file adds, such as `unit`),
    /// sorted by name: a backend sees them, so the comparison does too.
    package var members: [(key: String, value: JSONValue)] = []
    /// The ids normalising renamed, by attribute (`playbackId` → its UUID), for reports only.
    package var originalIds: [String: String] = [:]

    package static func == (a: OutputRecord, b: OutputRecord) -> Bool {
        a.line == b.line && a.type == b.type && a.session == b.session && a.t == b.t && a.label == b.label
            && a.tracker == b.tracker && a.value == b.value && a.metricType == b.metricType
            && a.attributes.elementsEqual(b.attributes) { $0.key == $1.key && $0.value == $1.value }
            && a.members.elementsEqual(b.members) { $0.key == $1.key && $0.value == $1.value }
    }

    /// What alignment matches records on: the same kind of thing from the same place. Time and
    /// attributes are compared afterwards, so a shifted or changed record is reported as changed.
    package var alignmentKey: String {
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
