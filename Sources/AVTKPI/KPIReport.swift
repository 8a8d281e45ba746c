import AVTFormats
import AVTJSON

/// Renders KPIs as the JSON contract, CSV (a row per playback plus a totals row per session) or
/// a table for people (a column per playback, a row per KPI). Every format names each KPI's
/// unit, and `aggregate` adds the statistics across playbacks and the pooled values.
public enum KPIReport {
    /// The JSON contract (`KPIJSONWriter`), for sessions already in memory.
    public static func json(_ sessions: [SessionKPIs], definitions: KPIDefinitions, aggregate: Bool) -> String {
        var writer = KPIJSONWriter(definitions: definitions, aggregate: aggregate)
        for session in sessions { writer.add(session) }
        return writer.finish()
    }

    static func kpi(_ value: KPIValue, into w: inout JSONWriter) {
        switch value {
        case .int(let v): w.int(v)
        case .double(let v): w.double(v)
        case .bool(let v): w.bool(v)
        }
    }

    /// Whole numbers as integers, others as doubles.
    static func number(_ v: Double, into w: inout JSONWriter) {
        if v.rounded() == v, abs(v) < 9e15 { w.int(Int(v)) } else { w.double(v) }
    }

    /// A header row (each KPI of the set with its unit), then per session a row per playback
    /// and a totals row; `aggregate` adds the pooled values and statistics.
    public static func csv(_ sessions: [SessionKPIs], definitions: KPIDefinitions, aggregate: Bool = false) -> String {
        let names = KPIName.names(definitions)
        var lines = [(["session", "playbackId"] + names.map(KPIName.labelled)).joined(separator: ",")]
        for session in sessions {
            // A row at a time, appended to one line: 10^5 playbacks make 10^5 rows of 40 cells.
            let name = quoted(session.session)
            func row(_ id: String, _ values: [KPI]) -> String {
                var line = name + "," + quoted(id)
                for value in values.aligned(names) {
                    line += ","
                    if let value { line += text(value) }
                }
                return line
            }
            lines.reserveCapacity(lines.count + session.playbackIds.count + 1)
            for id in session.playbackIds { lines.append(row(id, session.playback(id, definitions: definitions))) }
            lines.append(row("(total)", session.totals(definitions: definitions)))
        }
        if aggregate {
            for (label, values) in aggregateColumns(sessions, definitions: definitions) {
                let cells = ["(all)", label] + names.map { name in values[name].map(number) ?? "" }
                lines.append(cells.joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The pooled values, then each statistic across playbacks, as named columns (rows in CSV).
    static func aggregateColumns(_ sessions: [SessionKPIs], definitions: KPIDefinitions)
        -> [(String, [String: Double])]
    {
        var all: [[KPI]] = []
        for session in sessions {
            for id in session.playbackIds { all.append(session.playback(id, definitions: definitions)) }
        }
        var columns: [(String, [String: Double])] = []
        let pooled = KPIAggregate.pooled(sessions, definitions: definitions)
        columns.append(
            ("(pooled)", Dictionary(pooled.map { ($0.name, $0.value.number) }, uniquingKeysWith: { a, _ in a })))
        let stats = KPIAggregate.compute(all)
        for stat in KPIAggregate.statistics {
            var values: [String: Double] = [:]
            for (name, statValues) in stats { values[name] = statValues.first { $0.0 == stat }?.1 }
            columns.append(("(\(stat))", values))
        }
        return columns
    }

    /// A statistic as text: whole numbers without a fraction, others to 4 decimals.
    static func number(_ v: Double) -> String {
        if v.rounded() == v, abs(v) < 9e15 { return String(Int(v)) }
        return String((v * 10_000).rounded() / 10_000)
    }

    /// Each session's table, then the aggregate across them when asked for.
    public static func table(_ sessions: [SessionKPIs], definitions: KPIDefinitions, aggregate: Bool = false) -> String
    {
        var out = ""
        for session in sessions { out += table(session, definitions: definitions) }
        if aggregate { out += aggregateTable(sessions, definitions: definitions) }
        return out
    }

    /// One session's table: a column per playback and the totals, then its AVMetrics breakdown.
    public static func table(_ session: SessionKPIs, definitions: KPIDefinitions) -> String {
        var out = ""
        let names = KPIName.names(definitions)
        let columns =
            session.playbackIds.map { ($0, session.playback($0, definitions: definitions).aligned(names)) }
            + [("total", session.totals(definitions: definitions).aligned(names))]
        let headers = columns.map { $0.0 == "total" ? "total" : TerminalText.escaped(String($0.0.prefix(8))) + "…" }
        let width = max(14, headers.map(\.count).max() ?? 0)
        out += "\(TerminalText.escaped(session.session))  (definitions: \(definitions.rawValue))\n"
        out += pad("KPI (unit)", 34) + headers.map { pad($0, width, right: true) }.joined(separator: " ") + "\n"
        for (n, name) in names.enumerated() {
            let cells = columns.map { column -> String in
                column.1[n].map(text) ?? "–"
            }
            out +=
                pad(KPIName.labelled(name), 34) + cells.map { pad($0, width, right: true) }.joined(separator: " ")
                + "\n"
        }
        out += "\n"
        if let log = session.avmetrics {
            out += AVMetricsKPIReport.table(log, totals: session.totals(definitions: definitions))
        }
        return out
    }

    /// The pooled values and statistics across every playback of `sessions`.
    public static func aggregateTable(_ sessions: [SessionKPIs], definitions: KPIDefinitions) -> String {
        var out = ""
        let columns = aggregateColumns(sessions, definitions: definitions)
        let count = sessions.reduce(0) { $0 + $1.playbackIds.count }
        out += "all sessions: \(count) playback\(count == 1 ? "" : "s") (definitions: \(definitions.rawValue))\n"
        out += pad("KPI (unit)", 34) + columns.map { pad($0.0, 12, right: true) }.joined(separator: " ") + "\n"
        for name in KPIName.names(definitions) {
            let cells = columns.map { $0.1[name].map(number) ?? "–" }
            out += pad(KPIName.labelled(name), 34) + cells.map { pad($0, 12, right: true) }.joined(separator: " ")
            out += "\n"
        }
        return out
    }

    package static func text(_ value: KPIValue) -> String {
        switch value {
        case .int(let v): return String(v)
        case .bool(let v): return String(v)
        case .double(let v):
            // Ratios and frequencies: 4 significant decimals keep tables readable.
            let scaled = (v * 10_000).rounded() / 10_000
            return String(scaled)
        }
    }

    /// A session or playback id as one field; one that starts like a formula is written as
    /// `run --format csv` writes it (JSON-quoted), so a spreadsheet shows it as text.
    private static func quoted(_ s: String) -> String {
        // A session named in an event log can hold control characters: quoted, they are escaped.
        if CSVField.startsLikeFormula(s) || TerminalText.escaped(s) != s { return CSVField.field(string: s) }
        return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    private static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }
}
