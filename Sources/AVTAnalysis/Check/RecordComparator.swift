import AVTJSON

/// Normalises and aligns two outputs, then reports each record as same, changed, missing or extra.
package enum RecordComparator {
    package static func compare(expected: [OutputRecord], actual: [OutputRecord], options: ComparisonOptions)
        -> Comparison
    {
        var left = normalize(expected, options: options)
        var right = normalize(actual, options: options)
        if options.ignoreOrder {
            left = sortedWithinInstants(left)
            right = sortedWithinInstants(right)
        }
        let script = SequenceAlignment.align(left.map(\.alignmentKey), right.map(\.alignmentKey))
        var entries: [DiffEntry] = []
        entries.reserveCapacity(max(left.count, right.count))
        for step in script {
            switch step {
            case .match(let i, let j):
                let changes = fieldChanges(left[i], right[j], tolerance: options.tolerance)
                entries.append(
                    changes.isEmpty
                        ? .same(expected: left[i], actual: right[j])
                        : .changed(expected: left[i], actual: right[j], changes: changes))
            case .delete(let i): entries.append(.missing(left[i]))
            case .insert(let j): entries.append(.extra(right[j]))
            }
        }
        return Comparison(entries: entries, expectedCount: expected.count, actualCount: actual.count)
    }

    /// Ids become P1, P2…, S1…, I-<tracker> by first appearance, so random ids compare equal.
    static func normalize(_ records: [OutputRecord], options: ComparisonOptions) -> [OutputRecord] {
        var playbacks: [String: String] = [:]
        var streams: [String: String] = [:]
        func label(_ id: String, _ prefix: String, _ table: inout [String: String]) -> String {
            if let known = table[id] { return known }
            let new = prefix + String(table.count + 1)
            table[id] = new
            return new
        }
        return records.map { record in
            var record = record
            record.attributes = record.attributes.compactMap { key, value in
                if options.ignore.contains(key) { return nil }
                guard case .string(let text) = value else { return (key, value) }
                switch key {
                case "playbackId": return (key, .string(label(text, "P", &playbacks)))
                case "streamId": return (key, .string(label(text, "S", &streams)))
                case "senderId": return (key, .string("I-" + (text.split(separator: "-").last.map(String.init) ?? "")))
                default: return (key, value)
                }
            }
            return record
        }
    }

    /// Within each run of records with the same `t` (and session), a canonical order.
    static func sortedWithinInstants(_ records: [OutputRecord]) -> [OutputRecord] {
        var result: [OutputRecord] = []
        var group: [OutputRecord] = []
        func flush() {
            result += group.sorted { canonicalText($0) < canonicalText($1) }
            group.removeAll()
        }
        for record in records {
            if let first = group.first, first.t != record.t || first.session != record.session { flush() }
            group.append(record)
        }
        flush()
        return result
    }

    static func canonicalText(_ r: OutputRecord) -> String {
        r.alignmentKey + "\u{2}" + (r.value.map(JSONDiffText.render) ?? "") + "\u{2}"
            + r.attributes.map { $0.key + "=" + JSONDiffText.render($0.value) }.joined(separator: "\u{3}")
    }

    static func isTimeValued(_ key: String) -> Bool {
        key.hasPrefix("timeSince") || key.hasPrefix("accum") || key == "deltaPlayTime"
    }

    static func fieldChanges(_ e: OutputRecord, _ a: OutputRecord, tolerance: Int) -> [FieldChange] {
        var changes: [FieldChange] = []
        if !within(e.t.map { JSONValue.int($0) }, a.t.map { JSONValue.int($0) }, tolerance) {
            changes.append(FieldChange(field: "t", expected: e.t.map { .int($0) }, actual: a.t.map { .int($0) }))
        }
        if !within(e.value, a.value, e.type == "metric" ? tolerance : 0) {
            changes.append(FieldChange(field: "value", expected: e.value, actual: a.value))
        }
        var i = 0
        var j = 0
        while i < e.attributes.count || j < a.attributes.count {
            let ek = i < e.attributes.count ? e.attributes[i].key : nil
            let ak = j < a.attributes.count ? a.attributes[j].key : nil
            if let ek, ak == nil || ek < ak! {
                changes.append(FieldChange(field: "attributes." + ek, expected: e.attributes[i].value, actual: nil))
                i += 1
            } else if let ak, ek == nil || ak < ek! {
                changes.append(FieldChange(field: "attributes." + ak, expected: nil, actual: a.attributes[j].value))
                j += 1
            } else if let key = ek {
                let ev = e.attributes[i].value
                let av = a.attributes[j].value
                if !within(ev, av, isTimeValued(key) ? tolerance : 0) {
                    changes.append(FieldChange(field: "attributes." + key, expected: ev, actual: av))
                }
                i += 1
                j += 1
            }
        }
        return changes
    }

    /// Equal by JSON type (true is not 1; 1 equals 1.0), numbers within `tolerance`.
    static func within(_ a: JSONValue?, _ b: JSONValue?, _ tolerance: Int) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?):
            if let p = number(x), let q = number(y) { return abs(p - q) <= Double(tolerance) }
            return x == y
        default: return false
        }
    }

    private static func number(_ v: JSONValue) -> Double? {
        switch v {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
}
