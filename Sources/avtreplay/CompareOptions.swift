import AVTAnalysis
import AVTFormats
import ArgumentParser
import Foundation

/// Options shared by `check` and `diff`.
struct CompareOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Attributes to leave out of the comparison (comma-separated, repeatable).", valueName: "attr,..."))
    var ignore: [String] = []

    @Option(
        help: ArgumentHelp(
            "Let t, time-valued attributes (timeSince*, accum*, deltaPlayTime) and metric values differ by up to this many ms.",
            valueName: "ms"))
    var tolerance: Int = 0

    @Flag(help: "Compare the records of one instant (same t) as a set: their order does not matter.")
    var ignoreOrder = false

    @Option(
        help: ArgumentHelp(
            "Report format: text (default), json or junit (JUnit XML for CI servers).", valueName: "format"))
    var format: CheckReport.Format = .text

    @OptionGroup var output: OutputOptions<ComparisonReportOutput>

    func validate() throws {
        if tolerance < 0 { throw ValidationError("--tolerance must be ≥ 0 ms.") }
    }

    var comparison: ComparisonOptions {
        var options = ComparisonOptions()
        options.ignore = Set(
            ignore.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        options.tolerance = tolerance
        options.ignoreOrder = ignoreOrder
        return options
    }

    /// Writes the report for these cases; throws unless every case passed.
    func report(_ cases: [CheckCase], single: Bool) throws {
        let color = output.output == "-" && Diagnostics.colorAllowed(fd: 1)
        let text = CheckReport.render(
            cases, format: format, single: single, color: color,
            timestamp: ISO8601.format(epochMilliseconds: Int(Date().timeIntervalSince1970 * 1000)))
        try output.write(text)
        let status = CheckReport.status(cases)
        // The report said why; only the exit code is left to give.
        if status != .ok { throw ExitCode(status.code) }
    }
}

/// `check` and `diff`.
enum ComparisonReportOutput: OutputFlag {
    static let help = "Write the report to this file (atomically); - is standard output."
    static let defaultPath = "-"
}
