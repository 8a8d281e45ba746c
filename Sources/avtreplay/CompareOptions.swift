import AVTAnalysis
import AVTFormats
import ArgumentParser
import Foundation

/// Options shared by `check` and `diff`.
struct CompareOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Attributes (position or attributes.position) or members (t, time, value, metricType, any other) to leave out of the comparison (comma-separated, repeatable).",
            valueName: "name,..."))
    var ignore: [String] = []

    @Option(
        help: ArgumentHelp(
            "Time tolerance: let t, time, time-valued attributes (timeSince*, accum*, deltaPlayTime) and the ms-valued metrics (StartTime, PlayTime, RebufferTime) differ by up to this many ms. Nothing else.",
            valueName: "ms"))
    var tolerance: Int = 0

    @Option(
        help: ArgumentHelp(
            "Let metric values differ: [selector=]amount, amount absolute in the metric's unit or N% of the expected value; selector a metric name, gauge (the default; not ratios), counter or ratio (VideoPacketLoss, AudioPacketLoss). Comma-separated, repeatable; a name beats a kind. Unselected metrics compare exactly.",
            valueName: "spec,..."))
    var valueTolerance: [String] = []

    @Flag(help: "Compare the records of one instant (same t) as a set: their order does not matter.")
    var ignoreOrder = false

    @Option(
        help: ArgumentHelp(
            "Report format (junit: JUnit XML for CI servers).", valueName: "format"))
    var format: CheckReport.Format = .text

    @Option(
        help: ArgumentHelp(
            "Differences shown per case in the text and JUnit reports, then the count of the others (0: all; JSON lists all).",
            valueName: "n"))
    var maxDifferences: Int = CheckReport.defaultMaxDifferences

    func validate() throws {
        if tolerance < 0 { throw ValidationError("--tolerance must be ≥ 0 ms.") }
        if maxDifferences < 0 { throw ValidationError("--max-differences must be ≥ 0 (0 shows all).") }
        for spec in valueToleranceSpecs where ValueTolerance(spec) == nil {
            throw ValidationError(
                "--value-tolerance '\(spec)': expected [name|gauge|counter|ratio=]amount[%], amount ≥ 0.")
        }
    }

    private static func list(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
    }

    private var valueToleranceSpecs: [String] { Self.list(valueTolerance) }

    /// `--ignore` names as the comparison knows them: `attributes.position`, as reports print it,
    /// is the attribute `position`.
    private var ignoredNames: [String] {
        Self.list(ignore).map(ComparisonOptions.ignoredName)
    }

    /// Valid once `validate` passed.
    var comparison: ComparisonOptions {
        ComparisonOptions(
            ignore: Self.list(ignore), tolerance: tolerance, valueTolerances: valueToleranceSpecs,
            ignoreOrder: ignoreOrder) ?? ComparisonOptions()
    }

    /// Writes the report for these cases to `output` (the command's sibling group: nested groups
    /// cost debug builds a re-validation per level); throws unless every case passed.
    func report(_ cases: [CheckCase], single: Bool, to output: OutputOptions<ComparisonReportOutput>) throws {
        warnAboutUnmatchedNames(CheckTotals(cases))
        let color = output.output == "-" && Diagnostics.colorAllowed(fd: 1)
        let text = CheckReport.render(
            cases, format: format, single: single, color: color,
            timestamp: ISO8601.format(epochMilliseconds: Int(Date().timeIntervalSince1970 * 1000)),
            maxDifferences: maxDifferences == 0 ? .max : maxDifferences)
        try output.write(text)
        let status = CheckReport.status(cases)
        // The report said why; only the exit code is left to give.
        if status != .ok { throw ExitCode(status.code) }
    }
}

extension CompareOptions {
    /// One warning per `--ignore` name that matched nothing in any compared output, and per
    /// `--value-tolerance` metric name that no compared output has.
    func warnAboutUnmatchedNames(_ totals: CheckTotals) {
        var unmatched = totals.unmatchedIgnores
        for name in ignoredNames where unmatched?.remove(name) != nil {
            Diagnostics.warning("--ignore \(name) matches no attribute or field in the compared outputs")
        }
        var metrics = totals.unmatchedMetricNames
        for tolerance in comparison.valueTolerances {
            guard case .name(let name) = tolerance.selector, metrics?.remove(name) != nil else { continue }
            Diagnostics.warning("--value-tolerance \(name) names no metric in the compared outputs")
        }
    }
}

/// `check` and `diff`.
enum ComparisonReportOutput: OutputFlag {
    static let help = "Write the report to this file (atomically); - is standard output."
    static let defaultPath = "-"
}
