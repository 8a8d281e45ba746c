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
        var out = csvHeader(definitions: definitions)
        var aggregator = KPIAggregator(definitions: definitions)
        for session in sessions {
            out += csvRows(session, definitions: definitions)
            if aggregate { aggregator.add(session) }
        }
        // An aggregator that does not spill reads nothing back: it cannot fail.
        if aggregate, let columns = try? aggregator.columnsByStatistic() {
            out += csvAggregate(columns, definitions: definitions)
        }
        return out
    }

    /// The CSV's header line: the session, the playback and each KPI of the set with its unit.
    package static func csvHeader(definitions: KPIDefinitions) -> String {
        (["session", "playbackId"] + KPIName.names(definitions).map(KPIName.labelled)).joined(separator: ",") + "\n"
    }

    /// One session's CSV lines: a row per playback, then its totals row.
    package static func csvRows(_ session: SessionKPIs, definitions: KPIDefinitions) -> String {
        let names = KPIName.names(definitions)
        // A row at a time, appended to one text: 10^5 playbacks make 10^5 rows of 40 cells.
        let name = quoted(session.session)
        var out = ""
        for id in session.playbackIds {
            csvRow(session: name, id, session.playback(id, definitions: definitions), names: names, into: &out)
        }
        csvRow(session: name, "(total)", session.totals(definitions: definitions), names: names, into: &out)
        return out
    }

    /// One CSV row: the session (already quoted), the playback id, its values in `names` order.
    package static func csvRow(session: String, _ id: String, _ values: [KPI], names: [String], into out: inout String)
    {
        out += session + "," + quoted(id)
        for value in values.aligned(names) {
            out += ","
            if let value { out += text(value) }
        }
        out += "\n"
    }

    /// The CSV's aggregate lines: the pooled values, then each statistic (`KPIAggregator`).
    package static func csvAggregate(_ columns: [(String, [String: Double])], definitions: KPIDefinitions) -> String {
        var out = ""
        for (label, values) in columns {
            let cells = ["(all)", label] + KPIName.names(definitions).map { name in values[name].map(number) ?? "" }
            out += cells.joined(separator: ",") + "\n"
        }
        return out
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
        } else if let rendered = session.avmetricsRendered {
            out += rendered.table
        }
        return out
    }

    /// The pooled values and statistics across every playback of `sessions`.
    public static func aggregateTable(_ sessions: [SessionKPIs], definitions: KPIDefinitions) -> String {
        var aggregator = KPIAggregator(definitions: definitions)
        for session in sessions { aggregator.add(session) }
        // An aggregator that does not spill reads nothing back: it cannot fail.
        let columns = (try? aggregator.columnsByStatistic()) ?? []
        return aggregateTable(columns, playbacks: aggregator.playbacks, definitions: definitions)
    }

    /// The aggregate table from its columns (`KPIAggregator.columnsByStatistic`).
    package static func aggregateTable(
        _ columns: [(String, [String: Double])], playbacks count: Int, definitions: KPIDefinitions
    ) -> String {
        var out = ""
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
    package static func quoted(_ s: String) -> String {
        // A session named in an event log can hold control characters: quoted, they are escaped.
        if CSVField.startsLikeFormula(s) || TerminalText.escaped(s) != s { return CSVField.field(string: s) }
        return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    package static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let missing = max(0, width - s.count)
        // The short fills of a table's cells are taken ready-made: a cell per KPI per playback.
        let fill = missing < blanks.count ? blanks[missing] : String(repeating: " ", count: missing)
        return right ? fill + s : s + fill
    }

    /// "", " ", "  ", … up to 31 blanks.
    private static let blanks = (0..<32).map { String(repeating: " ", count: $0) }
}
