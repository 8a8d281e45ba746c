import AVTFormats
import AVTJSON
import AVTKPI
import AVTOutput

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
        var comparison = Comparison(
            entries: inTimeOrder(aligned(left, right, options: options)), expectedCount: expected.count,
            actualCount: actual.count)
        var usage = NameUsage(options)
        for record in expected { usage.see(record) }
        for record in actual { usage.see(record) }
        comparison.unmatchedIgnores = usage.unmatchedIgnores
        comparison.unmatchedMetricNames = usage.unmatchedMetricNames
        return comparison
    }

    /// How far apart in time two records may be and still be one record that changed (beyond
    /// `--tolerance`): a record 36 s away is another record, reported as missing and extra, not
    /// as a "changed" one that makes the report jump back in time.
    package static let pairingWindow = 5_000

    /// Aligns two normalised outputs (in the order they hold) into one entry per record.
    static func aligned(_ left: [OutputRecord], _ right: [OutputRecord], options: ComparisonOptions) -> [DiffEntry] {
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
        let window = pairingWindow + options.tolerance
        for step in script {
            switch step {
            case .match(let i, let j):
                if let p = left[i].t, let q = right[j].t, abs(p - q) > window {
                    entries.append(.missing(left[i]))
                    entries.append(.extra(right[j]))
                    continue
                }
                let changes = fieldChanges(left[i], right[j], options: options)
                entries.append(
                    changes.isEmpty
                        ? .same(expected: left[i], actual: right[j])
                        : .changed(expected: left[i], actual: right[j], changes: changes))
            case .delete(let i): entries.append(.missing(left[i]))
            case .insert(let j): entries.append(.extra(right[j]))
            }
        }
        return entries
    }

    /// The entries by time (the expected record's, or the extra one's), stably: an extra
    /// record the alignment placed among earlier ones is reported where it happened. A record
    /// without `t` keeps the time of the one before it.
    static func inTimeOrder(_ entries: [DiffEntry]) -> [DiffEntry] {
        var last = Int.min
        var sorted = true
        let keyed = entries.map { entry -> Int in
            let t: Int?
            switch entry {
            case .same(let e, _), .changed(let e, _, _), .missing(let e): t = e.t
            case .extra(let a): t = a.t
            }
            let key = t ?? last
            if key < last { sorted = false }
            last = key
            return key
        }
        if sorted { return entries }
        return entries.indices.sorted { (keyed[$0], $0) < (keyed[$1], $1) }.map { entries[$0] }
    }

    /// Ids become P1, P2…, S1…, I-<tracker> by first appearance, so random ids compare equal.
    static func normalize(_ records: [OutputRecord], options: ComparisonOptions) -> [OutputRecord] {
        var normalizer = IdNormalizer(ignore: options.ignore)
        return records.map { normalizer($0) }
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
        r.alignmentKey + "\u{2}" + (r.value.map(JSONDiffText.render) ?? "") + "\u{2}" + (r.metricType ?? "")
            + "\u{2}" + r.attributes.map { $0.key + "=" + JSONDiffText.render($0.value) }.joined(separator: "\u{3}")
            + "\u{2}" + r.members.map { $0.key + "=" + JSONDiffText.render($0.value) }.joined(separator: "\u{3}")
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
        if !options.ignore.contains("metricType"), e.metricType != a.metricType {
            changes.append(
                FieldChange(
                    field: "metricType", expected: e.metricType.map { .string($0) },
                    actual: a.metricType.map { .string($0) }))
        }
        changes += memberChanges(e.members, a.members, prefix: "") { key, ev, av in
            key == "time" ? sameTime(ev, av, tolerance) : within(ev, av, 0)
        }
        changes += memberChanges(e.attributes, a.attributes, prefix: "attributes.") { key, ev, av in
            within(ev, av, isTimeValued(key) ? Double(tolerance) : 0)
        }.map { change in
            let key = String(change.field.dropFirst("attributes.".count))
            var change = change
            (change.expectedOriginal, change.actualOriginal) = (e.originalIds[key], a.originalIds[key])
            return change
        }
        return changes
    }

    /// The changes between two member lists sorted by name: absent on one side, or not `agree`.
    static func memberChanges(
        _ e: [(key: String, value: JSONValue)], _ a: [(key: String, value: JSONValue)], prefix: String,
        agree: (String, JSONValue, JSONValue) -> Bool
    ) -> [FieldChange] {
        var changes: [FieldChange] = []
        var i = 0
        var j = 0
        while i < e.count || j < a.count {
            let ek = i < e.count ? e[i].key : nil
            let ak = j < a.count ? a[j].key : nil
            if let ek, ak == nil || ek < ak! {
                changes.append(FieldChange(field: prefix + ek, expected: e[i].value, actual: nil))
                i += 1
            } else if let ak, ek == nil || ak < ek! {
                changes.append(FieldChange(field: prefix + ak, expected: nil, actual: a[j].value))
                j += 1
            } else if let key = ek {
                if !agree(key, e[i].value, a[j].value) {
                    changes.append(FieldChange(field: prefix + key, expected: e[i].value, actual: a[j].value))
                }
                i += 1
                j += 1
            }
        }
        return changes
    }

    /// `time` is the record's wall-clock time (ISO-8601): equal text, or, under `--tolerance`,
    /// two readable times at most that many milliseconds apart, as `t` is.
    static func sameTime(_ e: JSONValue, _ a: JSONValue, _ tolerance: Int) -> Bool {
        if e == a { return true }
        guard tolerance > 0, case .string(let x) = e, case .string(let y) = a, let p = ISO8601.parse(x),
            let q = ISO8601.parse(y)
        else { return false }
        return abs(p - q) <= tolerance
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
        guard let rule = byName ?? selecting.last, let p = e.value.flatMap(number), let q = a.value.flatMap(number),
            sameKind(e.value, a.value)
        else { return false }
        return rule.allows(expected: p, actual: q)
    }

    /// Equal by JSON type (true is not 1), and by the kind of number: `1` is not `1.0`, because
    /// backends type a field by it (InfluxDB's `1i` and `1.0`). Numbers of one kind within
    /// `tolerance`.
    static func within(_ a: JSONValue?, _ b: JSONValue?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?):
            switch (x, y) {
            case (.int, .int), (.double, .double):
                if let p = number(x), let q = number(y) { return abs(p - q) <= tolerance }
            case (.int, .double), (.double, .int): return false
            default: break
            }
            return x == y
        default: return false
        }
    }

    private static func sameKind(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (.int?, .int?), (.double?, .double?): true
        default: false
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
