import AVTFormats
import AVTJSON
import AVTKPI
import AVTOutput

/// Renders comparisons for people (text), tools (JSON) and CI servers (JUnit XML).
package enum DiffReport {
    /// Records of unchanged context shown around each difference.
    package static let context = 2

    /// A unified-diff-like report: `~` changed (with each field, expected → actual), `-` missing,
    /// `+` extra, two-space context lines, `…` between hunks, then the one-line summary.
    ///
    /// `context` records are shown around each difference; after `maxDifferences` differences, or
    /// once the report passes `maxBytes`, a line says how many more there are and the report ends
    /// with the summary: a one-millisecond shift of a long session stays a readable report.
    package static func text(
        _ comparison: Comparison, color: Bool, context: Int = context, maxDifferences: Int = .max,
        maxBytes: Int = .max
    ) -> String {
        // Everything printed passes through here, so no byte of a record reaches the terminal raw.
        func paint(_ code: String, _ text: String) -> String {
            let safe = TerminalText.escaped(text)
            return color ? "\u{1B}[\(code)m\(safe)\u{1B}[0m" : safe
        }
        var lines: [String] = []
        let entries = comparison.entries
        // Where an entry stood among all the records: neighbours in `entries` may be far apart
        // when a streamed comparison kept only the context of its differences.
        let position = { (index: Int) in comparison.positions?[index] ?? index }
        let interesting = entries.indices.filter { entries[$0].isDifference }
        var shown = Set<Int>()
        for index in interesting {
            for near in max(0, index - context)...min(entries.count - 1, index + context)
            where abs(position(near) - position(index)) <= context {
                shown.insert(near)
            }
        }
        var previous: Int?
        var (differences, bytes, counted) = (0, 0, 0)
        for index in shown.sorted() {
            for line in lines[counted...] { bytes += line.utf8.count + 1 }
            counted = lines.count
            if entries[index].isDifference {
                if differences == maxDifferences || bytes > maxBytes {
                    let more = interesting.count - differences
                    lines.append("… \(more) more difference\(more == 1 ? "" : "s")")
                    break
                }
                differences += 1
            }
            if let previous, position(index) > position(previous) + 1 { lines.append(paint("2", "  …")) }
            previous = index
            switch entries[index] {
            case .same(let e, _):
                lines.append("  " + TerminalText.escaped(e.summary))
            case .changed(let e, let a, let changes):
                lines.append(
                    paint("33", "~ " + e.summary + "   (expected line \(e.line), actual line \(a.line)\(ids(e)))"))
                for change in changes {
                    lines.append(
                        paint(
                            "33",
                            "    \(change.field): \(render(change.expected, change.expectedOriginal)) → "
                                + render(change.actual, change.actualOriginal)))
                }
            case .missing(let e):
                lines.append(paint("31", "- " + e.summary + "   (expected line \(e.line), missing\(ids(e)))"))
            case .extra(let a):
                lines.append(paint("32", "+ " + a.summary + "   (actual line \(a.line), extra\(ids(a)))"))
            }
        }
        lines.append(comparison.summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first difference on one line, for a JUnit `message` that reporters show alone:
    /// `t=1400 metric StartTime value 1399 → 1400`, `missing t=… event Start (content)`.
    package static func firstDifference(_ comparison: Comparison) -> String? {
        for entry in comparison.entries {
            switch entry {
            case .same: continue
            case .changed(let e, _, let changes):
                var head = "t=\(e.t.map(String.init) ?? "?") \(e.type) \(e.label)"
                if let tracker = e.tracker { head += " (\(tracker))" }
                guard let change = changes.first else { return TerminalText.escaped(head) }
                let more = changes.count > 1 ? " (and \(changes.count - 1) more fields)" : ""
                return TerminalText.escaped(
                    "\(head) \(change.field) \(render(change.expected)) → \(render(change.actual))\(more)")
            case .missing(let e): return TerminalText.escaped("missing " + e.summary)
            case .extra(let a): return TerminalText.escaped("extra " + a.summary)
            }
        }
        return nil
    }

    /// A differing record's playback (else stream) id, normalised and as the file holds it:
    /// `; playbackId "P1" ("1B0C…" in the file)`, so a reviewer can find the record in the file.
    /// One id is enough to search for; senderId's normalised form names no record.
    static func ids(_ record: OutputRecord) -> String {
        guard let key = ["playbackId", "streamId"].first(where: { record.originalIds[$0] != nil }) else { return "" }
        return "; \(key) " + render(record.attribute(key), record.originalIds[key])
    }

    static func render(_ value: JSONValue?) -> String {
        value.map(JSONDiffText.render) ?? "(absent)"
    }

    /// A normalised id with the one the file holds: `"P2" ("1B0C…" in the file)`.
    static func render(_ value: JSONValue?, _ original: String?) -> String {
        guard let original, value != .string(original) else { return render(value) }
        return render(value) + " (" + JSONDiffText.render(.string(original)) + " in the file)"
    }

    /// One case's differences as a JSON object (the `--format json` contract).
    package static func json(_ comparison: Comparison, name: String?, into w: inout JSONWriter) {
        w.raw("{")
        if let name {
            w.raw("\"name\":")
            w.string(name)
            w.raw(",")
        }
        w.raw("\"equal\":")
        w.bool(comparison.isEqual)
        w.raw(",\"expected\":")
        w.int(comparison.expectedCount)
        w.raw(",\"actual\":")
        w.int(comparison.actualCount)
        w.raw(",\"changed\":")
        w.int(comparison.changed)
        w.raw(",\"missing\":")
        w.int(comparison.missing)
        w.raw(",\"extra\":")
        w.int(comparison.extra)
        w.raw(",\"summary\":")
        w.string(comparison.summary)
        w.raw(",\"differences\":[")
        var first = true
        for entry in comparison.entries where entry.isDifference {
            if !first { w.raw(",") }
            first = false
            switch entry {
            case .same: break
            case .changed(let e, let a, let changes):
                recordHead("changed", e, expectedLine: e.line, actualLine: a.line, into: &w)
                w.raw(",\"changes\":[")
                for (n, change) in changes.enumerated() {
                    if n > 0 { w.raw(",") }
                    w.raw("{\"field\":")
                    w.string(change.field)
                    w.raw(",\"expected\":")
                    w.value(change.expected ?? .null)
                    w.raw(",\"actual\":")
                    w.value(change.actual ?? .null)
                    w.raw("}")
                }
                w.raw("]}")
            case .missing(let e):
                recordHead("missing", e, expectedLine: e.line, actualLine: nil, into: &w)
                w.raw("}")
            case .extra(let a):
                recordHead("extra", a, expectedLine: nil, actualLine: a.line, into: &w)
                w.raw("}")
            }
        }
        w.raw("]}")
    }

    private static func recordHead(
        _ kind: String, _ r: OutputRecord, expectedLine: Int?, actualLine: Int?, into w: inout JSONWriter
    ) {
        w.raw("{\"kind\":")
        w.string(kind)
        w.raw(",\"type\":")
        w.string(r.type)
        w.raw(",\"t\":")
        if let t = r.t { w.int(t) } else { w.null() }
        w.raw(r.type == "event" ? ",\"action\":" : ",\"name\":")
        w.string(r.label)
        if let tracker = r.tracker {
            w.raw(",\"tracker\":")
            w.string(tracker)
        }
        if let expectedLine {
            w.raw(",\"expectedLine\":")
            w.int(expectedLine)
        }
        if let actualLine {
            w.raw(",\"actualLine\":")
            w.int(actualLine)
        }
    }
}
