import AVTFormats
import AVTReplay
import AVTTimeline
import AVTTrackers
import Foundation

/// `avtreplay check` from Swift: replays each timeline and compares what it produces with its
/// golden file, with the command's id normalisation, alignment, tolerances and ignored names.
/// The command line runs its checks through this type.
///
/// ```swift
/// var checker = GoldenChecker()
/// checker.comparison.ignore = ["position"]
/// let results = try checker.check(["tests/player/"])
/// XCTAssert(results.allSatisfy(\.passed), GoldenChecker.report(results, format: .text))
/// ```
public struct GoldenChecker: Sendable {
    /// How outputs compare (`--ignore`, `--tolerance`, `--value-tolerance`, `--ignore-order`).
    public var comparison = ComparisonOptions()
    /// Trackers for CSV timelines that declare none.
    public var csvTrackers: [TrackerSpec] = []
    /// Every timeline's format; nil detects each one's, as `run` does.
    public var inputFormat: TimelineFormat?
    /// A timeline without its golden file, and a golden file without its timeline, are listed
    /// (skipped, orphaned) instead of failing. Off by default: a gate whose goldens were never
    /// committed guards nothing.
    public var allowMissing = false
    /// Timelines replayed at once; results keep the plan's order.
    public var jobs = 1
    /// How each timeline is replayed (`run`'s defaults).
    public var options = RunOptions()
    /// Where a player log's warnings go; nil keeps the options' handler (none unless the
    /// command line set its own).
    public var warn: (@Sendable (String) -> Void)?
    /// Ctrl-C: see `GoldenCheck.stop`.
    package var stop: StopRequest?
    /// Counts the steps replayed, for a progress line.
    package var steps: StepCounter?

    /// How many differences a case's text shows by default (`--max-differences`): enough to see
    /// what changed, where a 1 ms shift of a 3-hour session is 10^5 differences.
    public static let defaultMaxDifferences = 50

    /// A checker with the command's defaults.
    public init() {}

    /// The timelines of `paths` (files or directories) with their golden files; `expect` names
    /// the golden file of a single timeline. `update` lists timelines without a golden file as
    /// ones to write.
    public func plan(_ paths: [String], expect: String? = nil, update: Bool = false) throws(TimelineError)
        -> GoldenPlan
    {
        try plan(paths, expect: expect, update: update, shard: nil, outputs: [])
    }

    /// The same, for the command line: `--shard`'s share of the suite, and the files it writes
    /// (refused when the suite reads them).
    package func plan(
        _ paths: [String], expect: String?, update: Bool, shard: Shard?, outputs: [String]
    ) throws(TimelineError) -> GoldenPlan {
        GoldenPlan(
            try GoldenSuite(
                paths, expect: expect, update: update, shard: shard, outputs: outputs,
                warn: warn ?? options.warnings.warn))
    }

    /// Checks the plan, giving each result to `each` as soon as it and those before it are done,
    /// in plan order. An error thrown by `each` stops the check.
    public func check(_ plan: GoldenPlan, each: (CheckResult) throws -> Void) throws {
        try engine.check(plan.suite) { try each(CheckResult($0)) }
    }

    /// Every result of checking `paths` (see `plan`). A timeline that cannot be read or
    /// replayed is an `.error` result, not a thrown error; a plan that cannot be made throws.
    public func check(_ paths: [String], expect: String? = nil) throws -> [CheckResult] {
        var results: [CheckResult] = []
        try check(try plan(paths, expect: expect)) { results.append($0) }
        return results
    }

    /// The check the command line runs (and updates golden files with).
    package var engine: GoldenCheck {
        var check = GoldenCheck()
        (check.comparison, check.csvTrackers, check.inputFormat) = (comparison, csvTrackers, inputFormat)
        (check.allowMissing, check.jobs, check.options) = (allowMissing, jobs, options)
        (check.stop, check.steps) = (stop, steps)
        if let warn { check.options.warnings = WarningHandler(warn) }
        return check
    }

    /// The report `check --format FORMAT` prints for these results (JUnit with the current time).
    public static func report(
        _ results: [CheckResult], format: CheckReportFormat, maxDifferences: Int = GoldenChecker.defaultMaxDifferences
    ) -> String {
        let format: CheckReport.Format =
            switch format {
            case .text: .text
            case .json: .json
            case .junit: .junit
            }
        return CheckReport.render(
            results.map(\.testCase), format: format, single: false, color: false,
            timestamp: ISO8601.format(epochMilliseconds: Int(Date().timeIntervalSince1970 * 1000)),
            maxDifferences: maxDifferences)
    }

    /// `N passed, N failed, N errors` (and skipped, orphaned when there are any).
    public static func totals(_ results: [CheckResult]) -> String { CheckReport.totals(results.map(\.testCase)) }
}
