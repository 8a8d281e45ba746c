import AVTJSON

/// Every record of a session in a compact JSON form, embedded in the page as
/// `<script type="application/json" id="data-N">`, so that every event is in the document even
/// where ticks are aggregated, and the script can show any event's attributes on hover or focus.
///
/// `{"lanes":[names],"labels":[actions and metric names],"keys":[attribute names],"records":[…]}`
/// with one record per line, where an event is `[t, lane, label, diff]` and a metric is `[t, -1, label, value]`. `diff` is
/// a flat `[key, value, key, value, …]` list of the attributes that differ from the previous event
/// of the same lane (`null` value: the attribute is gone). Labels and keys are indices into their
/// tables, in order of first appearance. Most attributes repeat from one event to the next, so
/// this keeps a 100,000-event session to a few megabytes. A value longer than
/// `ReportText.dataExcerptLength` characters (a string, or an array or object as JSON text) is
/// held as a string excerpt ending in `…`, so one huge attribute cannot make a huge page.
package enum EventDataIsland {
    static func render(_ session: ReportSession) -> String {
        var labels: [String] = []
        var labelIndex: [String: Int] = [:]
        var keys: [String] = []
        var keyIndex: [String: Int] = [:]
        var previous = [[String: JSONValue]](repeating: [:], count: session.lanes.count)
        var body = JSONWriter(capacity: session.records.count * 64)
        body.raw("[")
        for (index, record) in session.records.enumerated() {
            // A record per line: readable in the page source, and a reader can take it line by line.
            body.raw(index > 0 ? ",\n[" : "\n[")
            body.int(record.t ?? 0)
            body.raw(",")
            let lane = session.laneOfRecord[index]
            body.int(lane ?? -1)
            body.raw(",")
            if labelIndex[record.label] == nil {
                labelIndex[record.label] = labels.count
                labels.append(record.label)
            }
            body.int(labelIndex[record.label]!)
            body.raw(",")
            guard let lane else {
                body.value(bounded(record.value ?? .null))
                body.raw("]")
                continue
            }
            body.raw("[")
            var first = true
            func put(_ key: String, _ value: JSONValue) {
                if keyIndex[key] == nil {
                    keyIndex[key] = keys.count
                    keys.append(key)
                }
                if !first { body.raw(",") }
                first = false
                body.int(keyIndex[key]!)
                body.raw(",")
                body.value(bounded(value))
            }
            var current: [String: JSONValue] = [:]
            current.reserveCapacity(record.attributes.count)
            for (key, value) in record.attributes {
                current[key] = value
                if previous[lane][key] != value { put(key, value) }
            }
            for key in previous[lane].keys.sorted() where current[key] == nil { put(key, .null) }
            previous[lane] = current
            body.raw("]]")
        }
        body.raw("\n]")
        var w = JSONWriter(capacity: body.bytes.count + 4096)
        w.raw("{\"lanes\":")
        strings(session.lanes, into: &w)
        w.raw(",\"labels\":")
        strings(labels, into: &w)
        w.raw(",\"keys\":")
        strings(keys, into: &w)
        w.raw(",\"records\":")
        w.bytes += body.bytes
        w.raw("}")
        // `<` only occurs inside JSON strings; escaping it keeps `</script>` in a value harmless.
        var out = [UInt8]()
        out.reserveCapacity(w.bytes.count)
        for byte in w.bytes {
            if byte == UInt8(ascii: "<") { out += Array("\\u003c".utf8) } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value as the page holds it: itself, or an excerpt of a long one with `…`.
    static func bounded(_ value: JSONValue) -> JSONValue {
        let limit = ReportText.dataExcerptLength
        switch value {
        case .string(let s): return .string(ReportText.excerpt(s, length: limit))
        case .array, .object:
            var w = JSONWriter(capacity: 64)
            w.value(value)
            guard w.bytes.count > limit else { return value }
            return .string(ReportText.excerpt(String(decoding: w.bytes, as: UTF8.self), length: limit))
        default: return value
        }
    }

    private static func strings(_ list: [String], into w: inout JSONWriter) {
        w.raw("[")
        for (n, s) in list.enumerated() {
            if n > 0 { w.raw(",") }
            w.string(s)
        }
        w.raw("]")
    }
}
