import AVTJSON
import AVTReplay
import ArgumentParser
import Foundation

/// Options shared by `check` and `diff`.
struct CompareOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Attributes to leave out of the comparison (comma-separated, repeatable).", valueName: "attr,..."))
    var ignore: [String] = []

    @Option(help: ArgumentHelp(
        "Let t, time-valued attributes (timeSince*, accum*, deltaPlayTime) and metric values differ by up to this many ms.",
        valueName: "ms"))
    var tolerance: Int = 0

    @Flag(help: "Compare the records of one instant (same t) as a set: their order does not matter.")
    var ignoreOrder = false

    @Option(help: ArgumentHelp("Report format: text (default), json or junit (JUnit XML for CI servers).", valueName: "format"))
    var format: ReportFormat = .text

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the report to this file (atomically); - is standard output.", valueName: "file"))
    var output: String = "-"

    func validate() throws {
        if tolerance < 0 { throw ValidationError("--tolerance must be ≥ 0 ms.") }
    }

    var comparison: ComparisonOptions {
        var options = ComparisonOptions()
        options.ignore = Set(ignore.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        options.tolerance = tolerance
        options.ignoreOrder = ignoreOrder
        return options
    }

    /// Writes the report for these cases and returns the exit code: 0 all equal, 1 some differ,
    /// 2 some input unreadable.
    func report(_ cases: [CheckCase], single: Bool) throws -> ExitCode {
        var text = ""
        switch format {
        case .text:
            let color = output == "-" && Diagnostics.colorAllowed(fd: 1)
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
        case .json:
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
            text = String(decoding: w.bytes, as: UTF8.self)
        case .junit:
            text = JUnitReport.xml(cases, timestamp: ISO8601.format(epochMilliseconds: Int(Date().timeIntervalSince1970 * 1000)))
        }
        if let failure = write(text) { throw CommandFailure(message: failure.description, status: .failure) }
        if cases.contains(where: { if case .error = $0.outcome { return true } else { return false } }) { return .badInput }
        return cases.allSatisfy(\.passed) ? .success : .differs
    }
}

extension CompareOptions {
    /// Writes the report; returns the failure, if any (a closed pipe is not one).
    func write(_ text: String) -> OutputError? {
        do {
            let sink: ByteSink = output == "-" ? FileDescriptorSink() : try AtomicFileSink(path: output)
            try sink.write(Array(text.utf8))
            try sink.close()
            return nil
        } catch {
            return error.isBrokenPipe ? nil : error
        }
    }
}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit
}
