import AVTFormats
import AVTKPI
import AVTOutput
import AVTTimeline

/// Writes the report: one self-contained HTML page (inline CSS, SVG and script, nothing
/// fetched), the same bytes for the same input. With `overview`, an overview of all sessions
/// comes first; then a section per session (anchor `#sN`, 1-based) with its KPIs, the startup
/// waterfall when one is set, the timeline, a text list of its bars and its records as data.
package struct ReportWriter {
    package var definitions: KPIDefinitions = .openavt
    package var overview = false
    /// How many sessions the overview lists as worst.
    package var worstCount = 10

    package init() {}

    package func render(_ sessions: [ReportSession]) -> String {
        let title = sessions.count == 1 ? sessions[0].name : "\(sessions.count) sessions"
        var s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        s += "<meta name=\"color-scheme\" content=\"light dark\">"
        s +=
            "<title>avtreplay report: \(ReportText.html(title))</title><style>\(ReportAssets.css)</style></head>\n<body>"
        s += "<a class=\"skip\" href=\"#\(overview ? "overview" : "s1")\">Skip to the report</a>"
        s +=
            "<header><h1>Playback report: \(ReportText.html(title))</h1><p class=\"help\">Written by avtreplay report. "
        s +=
            "KPI definitions: \(definitions.rawValue). Times on each timeline are from the session's t = 0.</p></header>\n<main>"
        if overview { s += OverviewSection.render(sessions, definitions: definitions, worstCount: worstCount) + "\n" }
        for (index, session) in sessions.enumerated() {
            s += section(session, id: "s\(index + 1)") + "\n"
        }
        s += "</main><script>\(ReportAssets.script)</script></body></html>\n"
        return s
    }

    func section(_ session: ReportSession, id: String) -> String {
        var s = "<section class=\"session\" id=\"\(id)\" aria-labelledby=\"\(id)-h\" data-end=\"\(session.end)\""
        if let start = session.startEpochMilliseconds { s += " data-start=\"\(start)\"" }
        s += "><h2 id=\"\(id)-h\">\(ReportText.html(session.name))</h2>"
        if overview { s += "<p class=\"back\"><a href=\"#overview\">↑ Overview</a></p>" }
        s += "<p class=\"meta\">"
        if let start = session.startEpochMilliseconds {
            let iso = ISO8601.format(epochMilliseconds: start)
            s += "t = 0 is <time datetime=\"\(iso)\">\(iso)</time> · "
        } else {
            s += "the records carry no wall-clock time · "
        }
        s +=
            "\(ReportText.duration(session.end)) · \(session.eventCount) events · \(session.records.count - session.eventCount) metrics · "
        s += "\(session.lanes.count) tracker" + (session.lanes.count == 1 ? "" : "s") + "</p>"
        s += KPISection.render(session.kpis, definitions: definitions, id: id)
        if !session.startupWaterfall.isEmpty {
            s +=
                "<section class=\"waterfall\" aria-labelledby=\"\(id)-wf-h\"><h3 id=\"\(id)-wf-h\">Startup breakdown</h3>"
            s +=
                "<div class=\"scroll\">" + WaterfallSVG.render(session.startupWaterfall, id: "\(id)-wf")
                + "</div></section>"
        }
        if let plot = FormatPlotSVG.render(session.kpis.histories, end: session.end, id: id) {
            s += "<section class=\"formats\" aria-labelledby=\"\(id)-fmt-h\"><h3 id=\"\(id)-fmt-h\">"
            s += "Bitrate and resolution played</h3><div class=\"scroll\">" + plot + "</div></section>"
        }
        let marks = self.marks(session)
        let timeline = TimelineSVG(session, id: id, marks: marks)
        s += "<h3>Timeline</h3><div class=\"controls\" role=\"toolbar\" aria-label=\"Zoom and pan the timeline\">"
        s += "<button type=\"button\" data-act=\"out\" aria-label=\"Zoom out\">−</button>"
        s += "<button type=\"button\" data-act=\"in\" aria-label=\"Zoom in\">+</button>"
        s += "<button type=\"button\" data-act=\"left\" aria-label=\"Pan left\">←</button>"
        s += "<button type=\"button\" data-act=\"right\" aria-label=\"Pan right\">→</button>"
        s += "<button type=\"button\" data-act=\"reset\">Reset</button>"
        s +=
            "<span class=\"view\" aria-live=\"polite\">Showing \(ReportText.clock(0)) to \(ReportText.clock(session.end))</span></div>"
        s += ReportLegend.render(session, marks: marks, playbacks: timeline.layout.playbackCount)
        s += "<div class=\"plot\" tabindex=\"0\" aria-describedby=\"\(id)-help\">" + timeline.render() + "</div>"
        let histories = session.kpis.histories
        if histories.count > timeline.layout.playbackCount {
            s += "<p class=\"help\">The first \(timeline.layout.playbackCount) of \(histories.count) playbacks are "
            s += "drawn; the KPI table lists every one.</p>"
        }
        s += "<p class=\"help\" id=\"\(id)-help\">Playback lanes show each playback's states and marks as the KPI "
        s += "cards count them (\(definitions.rawValue) definitions). Tracker lanes show the events the OpenAVT hub "
        s += "delivered, and the metrics lane the values its metricalc computed by OpenAVT's own rules, as a dashboard "
        s += "shows them. Focus the timeline, then + and − zoom, ← and → pan, 0 resets; Tab moves through states, "
        s += "marks and events. With a mouse: the wheel zooms and dragging pans. Thick ticks stand for several events "
        s += "that would overlap; zoom in to separate them.</p>"
        s +=
            "<div class=\"details\" id=\"\(id)-details\" aria-live=\"polite\">Hover over or focus an event to see its attributes.</div>"
        s += textList(session, marks: marks, playbacks: timeline.layout.playbackCount, id: id)
        s +=
            "<script type=\"application/json\" id=\"\(id)-data\">" + EventDataIsland.render(session)
            + "</script></section>"
        return s
    }

    /// Each playback's marks under the writer's definitions, in the order of the histories.
    private func marks(_ session: ReportSession) -> [[StateMark]] {
        session.kpis.histories.map {
            StateMark.marks(
                of: $0, values: session.kpis.playback($0.id, definitions: definitions), definitions: definitions,
                end: $0.finishedAt ?? session.end)
        }
    }

    /// The playback lanes as text, the timeline's text alternative: each state span and mark of
    /// every drawn playback, in time order.
    private func textList(_ session: ReportSession, marks: [[StateMark]], playbacks: Int, id: String) -> String {
        var items = 0
        var list = ""
        for (n, history) in session.kpis.histories.prefix(playbacks).enumerated() {
            let name = "playback \(n + 1)"
            for span in PlaybackLanesSVG.merged(history.spans ?? [], end: history.finishedAt ?? session.end)
            where span.end > span.start {
                list += "<li data-state=\"\(span.state.name)\" data-playback=\"\(n + 1)\" data-t=\"\(span.start)\" "
                list += "data-e=\"\(span.end)\">\(name): \(span.state.name) from \(ReportText.clock(span.start)) to "
                list += "\(ReportText.clock(span.end)) (\(ReportText.duration(span.end - span.start)))</li>"
                items += 1
            }
            for mark in marks[n] {
                list += "<li data-mark=\"\(mark.kind.rawValue)\" data-playback=\"\(n + 1)\" data-t=\"\(mark.t)\">"
                list += "\(name): \(ReportText.html(mark.text))</li>"
                items += 1
            }
        }
        return
            "<details class=\"blocks\"><summary>States and marks as text (\(items))</summary><ul>\(list)</ul></details>"
    }
}
