/// The formats of `check`'s report.
public enum CheckReportFormat: String, Sendable, CaseIterable {
    /// For people: a verdict line per timeline, the differences of each failure, the totals.
    case text
    /// For tools: the counts, then every case with all its differences.
    case json
    /// JUnit XML, for CI test reports.
    case junit
}
