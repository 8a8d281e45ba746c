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
        // Keys as numbers: one string per distinct key instead of one per record.
        var keys: [String: Int] = [:]
        func key(_ record: OutputRecord) -> Int {
            let text = record.alignmentKey
            if let known = keys[text] { return known }
            keys[text] = keys.count
            return keys.count - 1
        }
        let script = SequenceAlignment.align(left.map(key), right.map(key), times: left.map(\.t), right.map(\.t))
        var entries: [DiffEntry] = []
        entries.reserveCapacity(max(left.count, right.count))
        for step in script {
            switch step {
            case .match(let i, let j):
                let changes = fieldChanges(left[i], right[j], options: options)
                entries.append(
                    changes.isEmpty
                        ? .same(expected: left[i], actual: right[j])
                        : .changed(expected: left[i], actual: right[j], changes: changes))
            case .delete(let i): entries.append(.missing(left[i]))
            case .insert(let j): entries.append(.extra(right[j]))
            }
        }
        var comparison = Comparison(entries: entries, expectedCount: expected.count, actualCount: actual.count)
        comparison.unmatchedIgnores = unmatched(options.ignore, in: [expected, actual])
        return comparison
    }

    /// The `--ignore` names that name nothing in these records: likely a typo, which would
    /// otherwise silently ignore nothing.
    static func unmatched(_ ignore: Set<String>, in outputs: [[OutputRecord]]) -> Set<String> {
        var left = ignore
        for records in outputs {
            for record in records {
                if left.isEmpty { return left }
                if record.t != nil { left.remove("t") }
                if record.value != nil { left.remove("value") }
                for attribute in record.attributes { left.remove(attribute.key) }
            }
        }
        return left
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

    /// Metrics whose values are milliseconds (MetricalcCore's gauges), so `--tolerance` covers
    /// them like any other time. Named one by one: a metric not listed here is not a time.
    package static let millisecondMetrics: Set<String> = ["StartTime", "PlayTime", "RebufferTime"]

    static func fieldChanges(_ e: OutputRecord, _ a: OutputRecord, options: ComparisonOptions) -> [FieldChange] {
        var changes: [FieldChange] = []
        let tolerance = options.tolerance
        if !options.ignore.contains("t"),
            !within(e.t.map { JSONValue.int($0) }, a.t.map { JSONValue.int($0) }, Double(tolerance))
        {
            changes.append(FieldChange(field: "t", expected: e.t.map { .int($0) }, actual: a.t.map { .int($0) }))
        }
        if !options.ignore.contains("value"), !valuesAgree(e, a, options: options) {
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
                if !within(ev, av, isTimeValued(key) ? Double(tolerance) : 0) {
                    changes.append(FieldChange(field: "attributes." + key, expected: ev, actual: av))
                }
                i += 1
                j += 1
            }
        }
        return changes
    }

    /// A metric's value within the time tolerance (for millisecond metrics) or within the most
    /// specific value tolerance that selects it; exact otherwise, and always for events.
    static func valuesAgree(_ e: OutputRecord, _ a: OutputRecord, options: ComparisonOptions) -> Bool {
        if within(e.value, a.value, 0) { return true }
        guard e.type == "metric" else { return false }
        if millisecondMetrics.contains(e.label), within(e.value, a.value, Double(options.tolerance)) { return true }
        let metricType = e.metricType ?? a.metricType
        let selecting = options.valueTolerances.filter { $0.selects(name: e.label, metricType: metricType) }
        let byName = selecting.last { if case .name = $0.selector { return true } else { return false } }
        guard let rule = byName ?? selecting.last, let p = e.value.flatMap(number), let q = a.value.flatMap(number)
        else { return false }
        return rule.allows(expected: p, actual: q)
    }

    /// Equal by JSON type (true is not 1; 1 equals 1.0), numbers within `tolerance`.
    static func within(_ a: JSONValue?, _ b: JSONValue?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?):
            if let p = number(x), let q = number(y) { return abs(p - q) <= tolerance }
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
