import AVTJSON
import AVTReplay

/// What `check` and `diff` print about their comparisons, and how they end.
package enum CheckReport {
    package enum Format: String, Sendable, CaseIterable {
        case text, json, junit
    }

    /// The report of `cases`. `single` is `diff`'s: one comparison, no PASS/FAIL lines or totals.
    /// `timestamp` (ISO-8601) goes into JUnit XML only.
    package static func render(
        _ cases: [CheckCase], format: Format, single: Bool, color: Bool, timestamp: @autoclosure () -> String
    ) -> String {
        switch format {
        case .text: text(cases, single: single, color: color)
        case .json: json(cases)
        case .junit: JUnitReport.xml(cases, timestamp: timestamp())
        }
    }

    /// 0 all equal, 1 some differ, 2 some input unreadable (which wins: the check did not run).
    package static func status(_ cases: [CheckCase]) -> ExitStatus {
        if cases.contains(where: { if case .error = $0.outcome { true } else { false } }) { return .badInput }
        return cases.allSatisfy(\.passed) ? .ok : .differs
    }

    private static func text(_ cases: [CheckCase], single: Bool, color: Bool) -> String {
        var text = ""
        for testCase in cases {
            switch testCase.outcome {
            case .compared(let comparison):
                if single {
                    text += DiffReport.text(comparison, color: color)
                } else if comparison.isEqual {
                    text += "PASS \(testCase.name): \(comparison.summary)\n"
                } else {
                    text += "FAIL \(testCase.name)\n" + DiffReport.text(comparison, color: color)
                }
            case .error(let message):
                text += "ERROR \(testCase.name): \(message)\n"
            }
        }
        if !single {
            let passed = cases.filter(\.passed).count
            text += "\(passed) passed, \(cases.count - passed) failed\n"
        }
        return text
    }

    private static func json(_ cases: [CheckCase]) -> String {
        var w = JSONWriter()
        w.raw("{\"passed\":")
        w.int(cases.filter(\.passed).count)
        w.raw(",\"failed\":")
        w.int(cases.filter { !$0.passed }.count)
        w.raw(",\"cases\":[")
        for (n, testCase) in cases.enumerated() {
            if n > 0 { w.raw(",") }
            switch testCase.outcome {
            case .compared(let comparison):
                DiffReport.json(comparison, name: testCase.name, into: &w)
            case .error(let message):
                w.raw("{\"name\":")
                w.string(testCase.name)
                w.raw(",\"error\":")
                w.string(message)
                w.raw("}")
            }
        }
        w.raw("]}\n")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
