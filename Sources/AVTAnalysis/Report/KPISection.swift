import AVTKPI
import AVTOutput

/// The session's KPIs above its timeline: headline cards, then every KPI in a table with a row
/// per playback (and the session's total), exactly as `avtreplay kpi` computes them. A card
/// shows the one playback's value, or for several playbacks their median and p90 (a flag: how
/// many playbacks), never a sum or a mean of ratios.
package enum KPISection {
    static let headline = [
        ("startupTime", "Startup time"), ("startTimeMetric", "OpenAVT StartTime"), ("rebufferRatio", "Rebuffer ratio"),
        ("rebufferCount", "Rebuffers"),
        ("rebufferTime", "Rebuffer time"), ("playTime", "Play time"), ("pauseTime", "Pause time"),
        ("seekTime", "Seek time"), ("errorCount", "Errors"), ("playbackFailed", "Failed"), ("adCount", "Ads"),
        ("adTime", "Ad time"), ("averageBitrate", "Average bitrate"),
    ]

    static func render(_ kpis: SessionKPIs, definitions: KPIDefinitions, id: String) -> String {
        let playbacks = kpis.playbackIds.map { kpis.playback($0, definitions: definitions) }
        let totals = kpis.totals(definitions: definitions)
        var s = "<section class=\"kpis\" aria-labelledby=\"\(id)-kpi-h\"><h3 id=\"\(id)-kpi-h\">KPIs as "
        s += "\(definitions.rawValue) defines them</h3><p class=\"help\">From each playback's state history, the "
        s +=
            "model the playback lanes below draw (see <code>avtreplay kpi</code>). Each card says what it measures.</p>"
        if playbacks.count > 1 {
            s += "<p class=\"help\">\(playbacks.count) playbacks: each card shows their median · p90.</p>"
        }
        s += "<dl class=\"headline\">"
        // No startup because no start was recorded (a `midSession` mark), not because none came.
        let startsNotRecorded = !kpis.playbackIds.isEmpty && kpis.playbackIds.allSatisfy(kpis.startNotRecorded)
        for (name, title) in headline {
            var (text, bad) = card(name, playbacks)
            if name == "startupTime", text == "–", startsNotRecorded { text = "not recorded" }
            // Unknown, not zero: a bitrate no playback reported, a StartTime the hub did not send.
            if name == "averageBitrate" || name == "startTimeMetric", text == "–" { continue }
            s += "<div class=\"kpi\(bad ? " bad" : "")\" data-kpi=\"\(name)\"><dt>\(title)</dt><dd>\(text)</dd>"
            s += "<dd class=\"how\">\(how(name, definitions))</dd></div>"
        }
        s += "</dl>"
        s += "<details class=\"kpi-table\"><summary>All KPIs: \(playbacks.count) playback"
        s += playbacks.count == 1 ? "" : "s"
        s += " (definitions: \(definitions.rawValue))</summary><div class=\"scroll\"><table><thead><tr>"
        s += "<th scope=\"col\">playback</th>"
        for name in KPIName.names(definitions) {
            s += "<th scope=\"col\" data-kpi=\"\(name)\">\(name) (\(KPIName.units[name] ?? "count"))</th>"
        }
        s += "</tr></thead><tbody>"
        let rows = zip(kpis.playbackIds, playbacks).map { ($0.0, $0.1) } + [("total", totals)]
        let names = KPIName.names(definitions)
        for (rowId, values) in rows {
            let header = rowId == "total" ? "total" : String(rowId.prefix(8)) + "…"
            s += "<tr><th scope=\"row\" title=\"\(ReportText.html(rowId))\">\(ReportText.html(header))</th>"
            for value in values.aligned(names) { s += "<td>" + (value.map { KPIReport.text($0) } ?? "–") + "</td>" }
            s += "</tr>"
        }
        return s + "</tbody></table></div></details></section>"
    }

    /// What a card measures under the definition set, in a few words (docs/kpi.md has the rest).
    static func how(_ name: String, _ definitions: KPIDefinitions) -> String {
        switch (name, definitions) {
        case ("startupTime", .openavt): return "request or load → first frame"
        case ("startupTime", .mux): return "play instruction → first frame, ad or content"
        case ("startupTime", .exoplayer): return "time joining, ads left out"
        case ("startupTime", .cta): return "play request → first frame"
        case ("startTimeMetric", _): return "the Start event's time since request, as a dashboard shows it"
        case ("rebufferRatio", .openavt): return "rebuffer ÷ (play + rebuffer)"
        case ("rebufferRatio", .mux): return "rebuffer ÷ watch time"
        case ("rebufferRatio", .exoplayer): return "rebuffer ÷ (play + wait)"
        case ("rebufferRatio", .cta): return "rebuffer ÷ watched time"
        case ("rebufferCount", .exoplayer): return "rebuffer marks: buffering entered, paused too"
        case ("rebufferCount", _): return "rebuffer marks: stalls while playing"
        case ("rebufferTime", .exoplayer): return "time buffering"
        case ("rebufferTime", _): return "time buffering or suppressed buffering"
        case ("playTime", _): return "time playing"
        case ("pauseTime", _): return "time paused or paused while buffering"
        case ("seekTime", _): return "time seeking (seek marks)"
        case ("errorCount", _): return "error marks, fatal and non-fatal"
        case ("playbackFailed", .openavt), ("playbackFailed", .cta): return "ended in a failure"
        case ("playbackFailed", _): return "any fatal error"
        case ("adCount", _): return "ad marks (AdBegin)"
        case ("adTime", _): return "AdBegin → AdFinish or AdSkip"
        case ("averageBitrate", _): return "weighted by time playing"
        default: return ""
        }
    }

    /// A card's text and whether it flags trouble.
    static func card(_ name: String, _ playbacks: [[KPI]]) -> (String, Bool) {
        let values = playbacks.compactMap { $0[name: name] }
        let numbers = values.map(\.number).sorted()
        let bad =
            (name == "errorCount" || name == "rebufferCount" || name == "playbackFailed") && numbers.contains { $0 > 0 }
        guard !values.isEmpty else { return ("–", false) }
        if values.count == 1 { return (ReportText.kpi(name, values[0]), bad) }
        if case .bool = values[0] {
            let count = numbers.filter { $0 > 0 }.count
            return ("\(count) of \(values.count)", bad)
        }
        let median = KPIAggregate.percentile(numbers, 0.5)
        let p90 = KPIAggregate.percentile(numbers, 0.9)
        return (ReportText.kpi(name, median) + " · " + ReportText.kpi(name, p90), bad)
    }
}
