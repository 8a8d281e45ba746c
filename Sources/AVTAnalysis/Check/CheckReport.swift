import AVTFormats
import AVTJSON
import AVTReplay

/// What `check` and `diff` print about their comparisons, and how they end.
package enum CheckReport {
    package enum Format: String, Sendable, CaseIterable {
        case text, json, junit
    }

    /// The report of `cases`. `single` is `diff`'s: one comparison, no PASS/FAIL lines or totals.
    /// `timestamp` (ISO-8601) goes into JUnit XML only. `maxDifferences` caps each case's text
    /// and JUnit failure (`--max-differences`); the JSON report, for tools, lists them all.
    package static func render(
        _ cases: [CheckCase], format: Format, single: Bool, color: Bool, timestamp: @autoclosure () -> String,
        maxDifferences: Int = defaultMaxDifferences
    ) -> String {
        switch format {
        case .text: text(cases, single: single, color: color, maxDifferences: maxDifferences)
        case .json: json(cases)
        case .junit: JUnitReport.xml(cases, timestamp: timestamp(), maxDifferences: maxDifferences)
        }
    }

    /// Enough to see what changed; a 1 ms shift of a 3-hour session is 10^5 differences.
    package static let defaultMaxDifferences = 50

    /// 0 all equal, 1 some differ, 2 some input unreadable (which wins: the check did not run).
    /// Skipped timelines and orphaned golden files leave the status alone unless `--strict`
    /// made them failures.
    package static func status(_ cases: [CheckCase]) -> ExitStatus { CheckTotals(cases).status }

    /// `N passed, N failed, N errors`, then `N skipped` and `N orphaned` when there are any.
    package static func totals(_ cases: [CheckCase]) -> String { CheckTotals(cases).line }

    /// One line per case (`PASS`, `FAIL`, `ERROR`, `SKIP`, `ORPHAN`) and the totals, without
    /// the differences: the summary `check` also prints to standard error beside a JUnit file.
    package static func summary(_ cases: [CheckCase]) -> String {
        var text = ""
        for testCase in cases { text += line(testCase) + "\n" }
        return text + totals(cases) + "\n"
    }

    /// The case's one-line verdict, as `summary` lists it.
    package static func line(_ testCase: CheckCase) -> String {
        let tag =
            switch testCase.verdict {
            case .passed: "PASS"
            case .failed: "FAIL"
            case .error: "ERROR"
            case .skipped: "SKIP"
            case .orphaned: "ORPHAN"
            }
        // Names are paths and messages may quote input: no control character reaches a terminal.
        let name = TerminalText.escaped(testCase.name)
        switch testCase.outcome {
        case .compared(let comparison): return "\(tag) \(name): \(comparison.summary)"
        case .error(let message), .skipped(let message), .orphaned(let message):
            return "\(tag) \(name): \(TerminalText.escaped(message))"
        }
    }

    private static func text(_ cases: [CheckCase], single: Bool, color: Bool, maxDifferences: Int) -> String {
        var text = ""
        for testCase in cases {
            text += caseText(testCase, single: single, color: color, maxDifferences: maxDifferences)
        }
        if !single { text += totals(cases) + "\n" }
        return text
    }

    /// One case of the text report: its verdict line, or `FAIL` and its differences.
    package static func caseText(_ testCase: CheckCase, single: Bool, color: Bool, maxDifferences: Int) -> String {
        switch testCase.outcome {
        case .compared(let comparison):
            if single { return DiffReport.text(comparison, color: color, maxDifferences: maxDifferences) }
            if comparison.isEqual { return line(testCase) + "\n" }
            return "FAIL \(TerminalText.escaped(testCase.name))\n"
                + DiffReport.text(comparison, color: color, maxDifferences: maxDifferences)
        case .error, .skipped, .orphaned:
            return line(testCase) + "\n"
        }
    }

    private static func json(_ cases: [CheckCase]) -> String {
        var w = JSONWriter()
        jsonHead(CheckTotals(cases), into: &w)
        for (n, testCase) in cases.enumerated() {
            if n > 0 { w.raw(",") }
            caseJSON(testCase, into: &w)
        }
        w.raw(jsonTail)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The JSON report up to its first case: the counts come first, so a streamed report
    /// writes them once every case is known.
    package static func jsonHead(_ totals: CheckTotals, into w: inout JSONWriter) {
        w.raw("{\"passed\":")
        w.int(totals.passed)
        w.raw(",\"failed\":")
        w.int(totals.failed)
        w.raw(",\"errors\":")
        w.int(totals.errors)
        w.raw(",\"skipped\":")
        w.int(totals.skipped)
        w.raw(",\"orphaned\":")
        w.int(totals.orphaned)
        w.raw(",\"cases\":[")
    }

    package static let jsonTail: StaticString = "]}\n"

    /// One entry of the JSON report's `cases`.
    package static func caseJSON(_ testCase: CheckCase, into w: inout JSONWriter) {
        switch testCase.outcome {
        case .compared(let comparison):
            DiffReport.json(comparison, name: testCase.name, into: &w)
        case .error(let message), .skipped(let message), .orphaned(let message):
            w.raw("{\"name\":")
            w.string(testCase.name)
            w.raw(",")
            w.string(key(testCase.outcome))
            w.raw(":")
            w.string(message)
            if testCase.verdict == .failed { w.raw(",\"failed\":true") }
            w.raw("}")
        }
    }

    private static func key(_ outcome: CheckCase.Outcome) -> String {
        switch outcome {
        case .compared: "comparison"
        case .error: "error"
        case .skipped: "skipped"
        case .orphaned: "orphaned"
        }
    }
}
