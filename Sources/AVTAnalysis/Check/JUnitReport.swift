import AVTJSON

/// JUnit XML in the Ant/Jenkins shape (valid against Jenkins' junit-4.xsd) that GitLab, Jenkins
/// and the GitHub reporter actions read:
/// one `testcase` per timeline with `classname`, `name` and `time` (junit-4.xsd has no `file`);
/// a difference is a `failure` whose `message` is the first difference and whose text starts
/// with the differences (no context: reporters keep the first lines), capped; unreadable input
/// is an `error`; a timeline without a golden file or a golden file without a timeline is a
/// `failure`, or `skipped` (without attributes, which junit-4.xsd refuses) with `--allow-missing`.
package enum JUnitReport {
    /// A failure's text stops past this size whatever `maxDifferences` says: GitHub
    /// annotations stop at 64 KiB.
    package static let maxBytes = 60 * 1024

    package static func xml(
        _ cases: [CheckCase], suite: String = "avtreplay check", timestamp: String,
        maxDifferences: Int = CheckReport.defaultMaxDifferences
    ) -> String {
        var out = head(CheckTotals(cases), suite: suite, timestamp: timestamp)
        for testCase in cases { out += testcase(testCase, maxDifferences: maxDifferences) }
        return out + tail
    }

    /// The document up to the first `testcase`: it carries the totals, so a streamed report
    /// writes it once every case is known.
    package static func head(_ totals: CheckTotals, suite: String = "avtreplay check", timestamp: String) -> String {
        let (failures, errors) = (totals.failed, totals.errors)
        let (tests, skipped) = (totals.count, totals.skipped + totals.orphaned)
        let time = seconds(totals.seconds)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites name=\"avtreplay\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time)\">\n"
        out +=
            "  <testsuite name=\"\(escape(suite))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\" timestamp=\"\(timestamp)\">\n"
        return out
    }

    package static let tail = "  </testsuite>\n</testsuites>\n"

    /// One case's `testcase` element.
    package static func testcase(_ testCase: CheckCase, maxDifferences: Int = CheckReport.defaultMaxDifferences)
        -> String
    {
        var out = ""
        let head =
            "    <testcase classname=\"avtreplay.check\" name=\"\(escape(relative(testCase.name)))\" time=\"\(seconds(testCase.seconds))\""
        switch testCase.outcome {
        case .compared(let comparison) where comparison.isEqual:
            out += head + "/>\n"
        case .compared(let comparison):
            out += head + ">\n"
            let first = DiffReport.firstDifference(comparison).map { $0 + "; " } ?? ""
            let text = DiffReport.text(
                comparison, color: false, context: 0, maxDifferences: maxDifferences, maxBytes: maxBytes)
            out += "      <failure message=\"\(escape(first + comparison.summary))\" type=\"RecordsDiffer\">"
            out += escape(text) + "</failure>\n"
            out += "    </testcase>\n"
        case .error(let message):
            out += head + ">\n"
            out += "      <error message=\"\(escape(message))\" type=\"BadInput\">\(escape(message))</error>\n"
            out += "    </testcase>\n"
        case .skipped(let message), .orphaned(let message):
            let type = if case .skipped = testCase.outcome { "NoExpectedOutput" } else { "OrphanedExpectedOutput" }
            out += head + ">\n"
            out +=
                testCase.strict
                ? "      <failure message=\"\(escape(message))\" type=\"\(type)\">\(escape(message))</failure>\n"
                : "      <skipped>\(escape(message))</skipped>\n"
            out += "    </testcase>\n"
        }
        return out
    }

    /// A path as CI servers show and link it: relative to the folder given, without `./`.
    static func relative(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        return String(path)
    }

    static func seconds(_ s: Double) -> String {
        let ms = Int((s * 1000).rounded())
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)"
    }

    /// XML text and attribute escaping; characters XML 1.0 cannot carry become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else if scalar == "\u{1B}" {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
