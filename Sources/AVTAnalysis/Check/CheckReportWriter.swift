import AVTJSON
import AVTOutput

/// Writes `check`'s report case by case, so a case can be released once it is reported and the
/// memory of a suite does not grow with its number of cases. Text goes straight to the sink.
/// JSON and JUnit begin with the totals, so their cases wait in an unlinked spool file (beside
/// the report when there is a directory to put it in) and follow the head at `finish()`.
package final class CheckReportWriter {
    private let format: CheckReport.Format
    private let sink: ByteSink
    private let color: Bool
    private let maxDifferences: Int
    private let spool: SpoolFile?
    private var spooled = 0
    package private(set) var totals = CheckTotals()

    /// `spoolDirectory`: where the JSON and JUnit cases wait (nil: `$TMPDIR`).
    package init(
        format: CheckReport.Format, to sink: ByteSink, spoolDirectory: String? = nil, color: Bool = false,
        maxDifferences: Int = CheckReport.defaultMaxDifferences
    ) throws(OutputError) {
        self.format = format
        self.sink = sink
        self.color = color
        self.maxDifferences = maxDifferences
        if format == .text {
            spool = nil
        } else if let spoolDirectory, let beside = try? SpoolFile(directory: spoolDirectory) {
            spool = beside
        } else {
            spool = try SpoolFile()
        }
    }

    /// Reports one case; the writer keeps only its counts.
    package func add(_ testCase: CheckCase) throws(OutputError) {
        totals.add(testCase)
        switch format {
        case .text:
            let text = CheckReport.caseText(testCase, single: false, color: color, maxDifferences: maxDifferences)
            try sink.write(Array(text.utf8))
        case .json:
            var w = JSONWriter()
            if spooled > 0 { w.raw(",") }
            CheckReport.caseJSON(testCase, into: &w)
            try spool?.write(w.bytes)
        case .junit:
            try spool?.write(Array(JUnitReport.testcase(testCase, maxDifferences: maxDifferences).utf8))
        }
        spooled += 1
    }

    /// Writes what follows the cases (the totals; for JSON and JUnit the head, the spooled
    /// cases and the end). The sink is left open: its owner closes it (an atomic file appears).
    package func finish(timestamp: () -> String) throws(OutputError) {
        switch format {
        case .text:
            try sink.write(Array((totals.line + "\n").utf8))
        case .json:
            var w = JSONWriter()
            CheckReport.jsonHead(totals, into: &w)
            try sink.write(w.bytes)
            try spool?.copy(to: sink)
            try sink.write(Array("\(CheckReport.jsonTail)".utf8))
        case .junit:
            try sink.write(Array(JUnitReport.head(totals, timestamp: timestamp()).utf8))
            try spool?.copy(to: sink)
            try sink.write(Array(JUnitReport.tail.utf8))
        }
    }
}
