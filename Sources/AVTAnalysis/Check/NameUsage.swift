import AVTKPI
import AVTOutput

/// The `--ignore` names and `--value-tolerance` metric names that no record seen so far has:
/// likely typos, which would otherwise loosen nothing, silently. Fed one record at a time, so a
/// streamed comparison finds them as a whole one does.
struct NameUsage {
    private(set) var unmatchedIgnores: Set<String>
    private(set) var unmatchedMetricNames: Set<String>

    init(_ options: ComparisonOptions) {
        unmatchedIgnores = options.ignore
        unmatchedMetricNames = Set(
            options.valueTolerances.compactMap { if case .name(let name) = $0.selector { name } else { nil } })
    }

    /// Takes the record's names off the lists (before normalising: `--ignore` drops them).
    mutating func see(_ record: OutputRecord) {
        if record.type == "metric", !unmatchedMetricNames.isEmpty { unmatchedMetricNames.remove(record.label) }
        guard !unmatchedIgnores.isEmpty else { return }
        if record.t != nil { unmatchedIgnores.remove("t") }
        if record.value != nil { unmatchedIgnores.remove("value") }
        if record.metricType != nil { unmatchedIgnores.remove("metricType") }
        for attribute in record.attributes { unmatchedIgnores.remove(attribute.key) }
        for member in record.members { unmatchedIgnores.remove(member.key) }
    }
}
