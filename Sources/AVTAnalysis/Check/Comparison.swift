import AVTJSON

/// The result of comparing an expected output with an actual one.
package struct Comparison: Sendable, Equatable {
    package var entries: [DiffEntry]
    /// Where each entry stood in the whole comparison, when unchanged records far from any
    /// difference were left out (a streamed comparison keeps the differences and their
    /// context only); nil when `entries` is every record.
    package var positions: [Int]? = nil
    package var expectedCount: Int
    package var actualCount: Int
    /// Names given to `--ignore` that no record of either output has.
    package var unmatchedIgnores: Set<String> = []
    /// Metric names given to `--value-tolerance` that no metric of either output has.
    package var unmatchedMetricNames: Set<String> = []

    package var changed: Int { entries.filter { if case .changed = $0 { return true } else { return false } }.count }
    package var missing: Int { entries.filter { if case .missing = $0 { return true } else { return false } }.count }
    package var extra: Int { entries.filter { if case .extra = $0 { return true } else { return false } }.count }
    package var isEqual: Bool { !entries.contains { $0.isDifference } }

    /// An equal comparison without its record pairs: what every report says of it (the counts,
    /// the unmatched names) stays, and a suite of many equal cases does not keep every record
    /// of every case until the report is written.
    package var withoutRecords: Comparison {
        var copy = self
        if isEqual { (copy.entries, copy.positions) = ([], nil) }
        return copy
    }

    /// `equal: 42 records` or `3 differences: 1 changed, 1 missing, 1 extra (42 expected, 42 actual)`.
    package var summary: String {
        if isEqual { return "equal: \(expectedCount) records" }
        let total = changed + missing + extra
        return "\(total) difference\(total == 1 ? "" : "s"): \(changed) changed, \(missing) missing, \(extra) extra "
            + "(\(expectedCount) expected, \(actualCount) actual)"
    }
}
