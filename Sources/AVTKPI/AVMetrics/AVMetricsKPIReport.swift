import AVTFormats
import AVTJSON
import AVTTrackers

/// The AVMetrics part of `kpi`: startup breakdown, slowest and failed requests, and the cross-check
/// against the playback summary, as JSON (inside the session object) and as table text.
package enum AVMetricsKPIReport {
    // MARK: JSON

    static func json(_ log: AVMetricsSessionLog, totals: [KPI], into w: inout JSONWriter) {
        w.value(value(log, totals: totals))
    }

    /// The `avmetrics` object of a session (docs/kpi.md).
    package static func value(_ log: AVMetricsSessionLog, totals: [KPI]) -> JSONValue {
        var breakdownValue = JSONValue.null
        if let b = StartupBreakdown(log: log) {
            var members: [(String, JSONValue?)] = [
                ("start", .int(b.start)), ("end", .int(b.end)), ("total", .int(b.total)),
            ]
            members += StartupBreakdown.Part.allCases.map { ($0.rawValue, .int(b.time($0))) }
            members.append(
                (
                    "spans",
                    array(
                        b.spans.map {
                            object([
                                ("part", .string($0.part.rawValue)), ("start", .int($0.start)), ("end", .int($0.end)),
                            ])
                        })
                ))
            members.append(("requests", array(b.requests.map(request))))
            breakdownValue = object(members)
        }
        let failed = AVMetricsRequestFindings.failed(log).map { failure -> JSONValue in
            let switches = failure.switches.map { s in
                object([
                    ("start", .int(s.start)), ("end", .int(s.end)), ("fromBitrate", s.fromBitrate.map(number)),
                    ("toBitrate", s.toBitrate.map(number)), ("didSucceed", .bool(s.didSucceed)),
                ])
            }
            return object(requestMembers(failure.request) + [("variantSwitches", array(switches))])
        }
        let check = AVMetricsCrossCheck(log: log, totals: totals)
        let rows = check.rows.map { row in
            object([
                ("summary", .string(row.name)), ("ours", .string(row.ours)),
                ("summaryValue", row.summaryValue.map(JSONValue.int)),
                ("ourValue", row.ourValue.map(JSONValue.int)), ("tolerance", .int(row.tolerance)),
                ("agrees", row.agrees.map(JSONValue.bool)),
            ])
        }
        return object([
            ("startupBreakdown", breakdownValue),
            ("slowestRequests", array(AVMetricsRequestFindings.slowest(log.requests).map(request))),
            ("failedRequests", array(failed)),
            ("summaryCrossCheck", array(rows)),
            ("disagreements", .int(check.rows.filter { $0.agrees == false }.count)),
        ])
    }

    private static func request(_ r: AVMetricsRequest) -> JSONValue { object(requestMembers(r)) }

    private static func requestMembers(_ r: AVMetricsRequest) -> [(String, JSONValue?)] {
        [
            ("category", .string(r.category.rawValue)), ("url", r.url.map(JSONValue.string)),
            ("mediaType", r.mediaType.map(JSONValue.string)),
            ("isMultivariantPlaylist", r.isMultivariantPlaylist.map(JSONValue.bool)),
            ("start", r.start.map(JSONValue.int)),
            ("end", r.end.map(JSONValue.int)), ("duration", r.duration.map(JSONValue.int)),
            ("serverAddress", r.serverAddress.map(JSONValue.string)),
            ("wasReadFromCache", r.wasReadFromCache.map(JSONValue.bool)),
            ("httpStatus", r.httpStatus.map(JSONValue.int)), ("error", r.errorDescription.map(JSONValue.string)),
        ]
    }

    /// Members in order; nil values are left out.
    private static func object(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(members.compactMap { key, value in value.map { JSONMember(key: key, node: JSONNode($0, at: origin)) } })
    }

    private static func array(_ values: [JSONValue]) -> JSONValue { .array(values.map { JSONNode($0, at: origin) }) }

    /// Whole numbers as integers (bitrates), others as doubles.
    private static func number(_ v: Double) -> JSONValue {
        v.rounded() == v && abs(v) < 9e15 ? .int(Int(v)) : .double(v)
    }

    private static let origin = SourceLocation(line: 1, column: 1)

    // MARK: Table

    static func table(_ log: AVMetricsSessionLog, totals: [KPI]) -> String {
        var out = ""
        if let b = StartupBreakdown(log: log) {
            out +=
                "AVMetrics startup breakdown: \(b.total) ms to the initial likely-to-keep-up (t \(b.start)–\(b.end) ms)\n"
            for part in StartupBreakdown.Part.allCases {
                let ms = b.time(part)
                // Percent with one decimal, rounded half up: 400 of 1200 → 33.3.
                let share =
                    b.total > 0
                    ? pad(String((Double(ms) * 1000 / Double(b.total)).rounded() / 10), 5, right: true) + " %" : "    –"
                out += "  " + pad(part.rawValue, 14) + pad("\(ms) ms", 10, right: true) + "  " + share + "\n"
            }
            out +=
                "  critical path: "
                + b.spans.map { "\($0.start)–\($0.end) \($0.part.rawValue)" }.joined(separator: ", ") + "\n"
        } else {
            out += "AVMetrics startup breakdown: no initial likely-to-keep-up event\n"
        }
        let slowest = AVMetricsRequestFindings.slowest(log.requests)
        if !slowest.isEmpty {
            out += "Slowest requests\n"
            for r in slowest { out += "  " + requestLine(r) + "\n" }
        }
        let failed = AVMetricsRequestFindings.failed(log)
        if !failed.isEmpty {
            out += "Failed requests\n"
            for (r, switches) in failed {
                out += "  " + requestLine(r) + "\n"
                for s in switches {
                    // Bitrates any size a log may carry: whole ones as integers.
                    let from = s.fromBitrate.map { v in truncatedInt(v).map(String.init) ?? String(v) } ?? "?"
                    let to = s.toBitrate.map { v in truncatedInt(v).map(String.init) ?? String(v) } ?? "?"
                    out +=
                        "    → variant switch \(s.start)–\(s.end) ms: \(from) → \(to) bps\(s.didSucceed ? "" : " (failed)")\n"
                }
            }
        }
        let check = AVMetricsCrossCheck(log: log, totals: totals)
        out +=
            "Cross-check with the playback summary (counts equal, times within \(AVMetricsCrossCheck.timeTolerance) ms)\n"
        out +=
            "  " + pad("summary", 27) + pad("value", 7, right: true) + "  " + pad("ours", 36)
            + pad("value", 7, right: true) + "\n"
        for row in check.rows {
            let verdict: String
            switch row.agrees {
            case true?: verdict = "ok"
            case false?: verdict = "DISAGREES"
            case nil: verdict = "–"
            }
            out +=
                "  " + pad(row.name, 27) + pad(row.summaryValue.map(String.init) ?? "–", 7, right: true) + "  "
                + pad(row.ours, 36)
                + pad(row.ourValue.map(String.init) ?? "–", 7, right: true) + "  " + verdict + "\n"
        }
        return out + "\n"
    }

    private static func requestLine(_ r: AVMetricsRequest) -> String {
        var line =
            pad(r.duration.map { "\($0) ms" } ?? "–", 9, right: true) + "  at "
            + pad(r.start.map(String.init) ?? "–", 6, right: true)
        line += "  " + pad(r.category.rawValue, 12)
        if let status = r.httpStatus { line += " HTTP \(status)" }
        // The error text and URL come from the log: no raw control character reaches the terminal.
        if let error = r.errorDescription { line += " [\(TerminalText.escaped(error))]" }
        return line + " " + TerminalText.escaped(r.url ?? "")
    }

    private static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }
}
