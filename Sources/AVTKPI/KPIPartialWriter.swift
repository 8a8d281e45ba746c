import AVTJSON

/// `kpi --format partial`: what `kpi --merge` needs to print the KPIs of many such files as one
/// `kpi` over all their sessions prints them, in JSON Lines. A header line names the format, the
/// definition set and the figures; then a line per session: its name, the end of its recording,
/// each playback's id, figures (every numerator and denominator the definition sets divide,
/// `PlaybackFigures.fieldNames` order) and state history, and its AVMetrics breakdown as the
/// definition set renders it. docs/kpi.md describes it.
package struct KPIPartialWriter {
    /// The header's `kpiPartial`: the format's version.
    package static let version = 1
    private let definitions: KPIDefinitions

    package init(definitions: KPIDefinitions) { self.definitions = definitions }

    /// `{"kpiPartial":1,"definitions":…,"figures":[names…]}` and a line feed.
    package func header() -> [UInt8] {
        var w = JSONWriter()
        w.raw("{\"kpiPartial\":")
        w.int(Self.version)
        w.raw(",\"definitions\":")
        w.string(definitions.rawValue)
        w.raw(",\"figures\":[")
        for (n, name) in PlaybackFigures.fieldNames.enumerated() {
            if n > 0 { w.raw(",") }
            w.string(name)
        }
        w.raw("]}\n")
        return w.bytes
    }

    /// A session's line; `session` kept its state histories.
    package func line(_ session: SessionKPIs) -> [UInt8] {
        var w = JSONWriter()
        w.raw("{\"session\":")
        w.string(session.session)
        w.raw(",\"end\":")
        w.int(session.end)
        w.raw(",\"playbacks\":[")
        let histories = session.histories.count == session.playbackIds.count ? session.histories : []
        for (n, id) in session.playbackIds.enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{\"playbackId\":")
            w.string(id)
            w.raw(",\"figures\":[")
            for (m, value) in session.figures[n].fieldValues.enumerated() {
                if m > 0 { w.raw(",") }
                if let value { w.int(value) } else { w.null() }
            }
            w.raw("]")
            if !histories.isEmpty { StateHistoryJSON.write(histories[n], end: session.end, into: &w) }
            w.raw("}")
        }
        w.raw("]")
        let totals = session.totals(definitions: definitions)
        if let log = session.avmetrics {
            w.raw(",\"avmetrics\":{\"table\":")
            w.string(AVMetricsKPIReport.table(log, totals: totals))
            w.raw(",\"json\":")
            AVMetricsKPIReport.json(log, totals: totals, into: &w)
            w.raw("}")
        } else if let rendered = session.avmetricsRendered {
            w.raw(",\"avmetrics\":{\"table\":")
            w.string(rendered.table)
            w.raw(",\"json\":")
            w.value(rendered.json)
            w.raw("}")
        }
        w.raw("}\n")
        return w.bytes
    }
}
