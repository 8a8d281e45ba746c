import AVTReplay

/// What a report says after its cases: the counts by verdict, the time they took, and the
/// `--ignore` and `--value-tolerance` names no compared output had. Kept as the cases go by, so a
/// report can be written case by case and each case released before the next.
package struct CheckTotals: Sendable, Equatable {
    package var passed = 0
    package var failed = 0
    package var errors = 0
    package var skipped = 0
    package var orphaned = 0
    package var seconds = 0.0
    /// nil until a compared case: a name is unmatched only if no compared output has it.
    package var unmatchedIgnores: Set<String>?
    package var unmatchedMetricNames: Set<String>?

    package init() {}

    package init(_ cases: [CheckCase]) {
        for testCase in cases { add(testCase) }
    }

    package var count: Int { passed + failed + errors + skipped + orphaned }

    package mutating func add(_ testCase: CheckCase) {
        switch testCase.verdict {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: errors += 1
        case .skipped: skipped += 1
        case .orphaned: orphaned += 1
        }
        seconds += testCase.seconds
        guard case .compared(let comparison) = testCase.outcome else { return }
        unmatchedIgnores =
            unmatchedIgnores.map { $0.intersection(comparison.unmatchedIgnores) }
            ?? comparison.unmatchedIgnores
        unmatchedMetricNames =
            unmatchedMetricNames.map { $0.intersection(comparison.unmatchedMetricNames) }
            ?? comparison.unmatchedMetricNames
    }

    /// 0 all equal, 1 some differ, 2 some input unreadable (which wins: the check did not run).
    package var status: ExitStatus {
        if errors > 0 { return .badInput }
        return failed > 0 ? .differs : .ok
    }

    /// `N passed, N failed, N errors`, then `N skipped` and `N orphaned` when there are any: CI
    /// log scrapers read the first two.
    package var line: String {
        var line = "\(passed) passed, \(failed) failed, \(errors) errors"
        if skipped > 0 { line += ", \(skipped) skipped" }
        if orphaned > 0 { line += ", \(orphaned) orphaned" }
        return line
    }
}
