/// One checked timeline (or orphaned golden file), as a value: its verdict, the counts of the
/// comparison and the text `check` prints for it.
public struct CheckResult: Sendable {
    /// The case as the reports know it.
    package let testCase: CheckCase

    package init(_ testCase: CheckCase) { self.testCase = testCase }

    /// The timeline's path (the golden file's, for an orphaned one).
    public var name: String { testCase.name }

    /// What it came to.
    public var verdict: CheckVerdict {
        switch testCase.verdict {
        case .passed: .passed
        case .failed: .failed
        case .error: .error
        case .skipped: .skipped
        case .orphaned: .orphaned
        }
    }

    /// Whether the output equals the golden file.
    public var passed: Bool { testCase.passed }

    /// Records that differ in place, records only the golden file has, records only the
    /// output has; all 0 when nothing was compared.
    public var differences: (changed: Int, missing: Int, extra: Int) {
        guard case .compared(let comparison) = testCase.outcome else { return (0, 0, 0) }
        return (comparison.changed, comparison.missing, comparison.extra)
    }

    /// The records of the golden file and of the output, when they were compared.
    public var recordCounts: (expected: Int, actual: Int)? {
        guard case .compared(let comparison) = testCase.outcome else { return nil }
        return (comparison.expectedCount, comparison.actualCount)
    }

    /// The one-line verdict `check` prints: `PASS session.json: equal: 42 records`,
    /// `ERROR …: why`.
    public var line: String { CheckReport.line(testCase) }

    /// The verdict line, or `FAIL` and the differences (at most `maxDifferences`), as the text
    /// report has it.
    public func text(maxDifferences: Int = GoldenChecker.defaultMaxDifferences) -> String {
        CheckReport.caseText(testCase, single: false, color: false, maxDifferences: maxDifferences)
    }
}
