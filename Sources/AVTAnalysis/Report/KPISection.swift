/// The session's KPIs above its timeline: a few headline numbers, then every KPI per playback
/// and in total, exactly as `avtreplay kpi` computes them.
package enum KPISection {
    static let headline = [
        ("startupTime", "Startup time"), ("rebufferRatio", "Rebuffer ratio"), ("rebufferCount", "Rebuffers"),
        ("rebufferTime", "Rebuffer time"), ("playTime", "Play time"), ("pauseTime", "Pause time"),
        ("seekTime", "Seek time"), ("errorCount", "Errors"), ("adCount", "Ads"), ("averageBitrate", "Average bitrate"),
    ]

    static func render(_ kpis: SessionKPIs, definitions: KPIDefinitions, id: String) -> String {
        let totals = kpis.totals(definitions: definitions)
        let byName = Dictionary(totals.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        var s =
            "<section class=\"kpis\" aria-labelledby=\"\(id)-kpi-h\"><h3 id=\"\(id)-kpi-h\">KPIs</h3><dl class=\"headline\">"
        for (name, title) in headline {
            let text = byName[name].map { ReportText.kpi(name, $0) } ?? "–"
            let bad =
                (name == "errorCount" && byName[name] != .int(0))
                || (name == "rebufferCount" && byName[name] != .int(0))
            s += "<div class=\"kpi\(bad ? " bad" : "")\" data-kpi=\"\(name)\"><dt>\(title)</dt><dd>\(text)</dd></div>"
        }
        s += "</dl>"
        let columns = kpis.playbackIds.map { ($0, kpis.playback($0, definitions: definitions)) } + [("total", totals)]
        s += "<details class=\"kpi-table\"><summary>All KPIs: \(kpis.playbackIds.count) playback"
        s += kpis.playbackIds.count == 1 ? "" : "s"
        s +=
            " (definitions: \(definitions.rawValue))</summary><div class=\"scroll\"><table><thead><tr><th scope=\"col\">KPI</th>"
        for (columnId, _) in columns {
            let header = columnId == "total" ? "total" : String(columnId.prefix(8)) + "…"
            s += "<th scope=\"col\" title=\"\(ReportText.html(columnId))\">\(ReportText.html(header))</th>"
        }
        s += "</tr></thead><tbody>"
        for name in KPIName.all {
            s += "<tr data-kpi=\"\(name)\"><th scope=\"row\">\(name)</th>"
            for (_, values) in columns {
                let value = values[name: name]
                s += "<td>" + (value.map { KPIReport.text($0) } ?? "–") + "</td>"
            }
            s += "</tr>"
        }
        return s + "</tbody></table></div></details></section>"
    }
}
