import AVTFormats
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
            s += WaterfallSVG.render(session.startupWaterfall, id: "\(id)-wf") + "</section>"
        }
        s += statesSection(session, id: id)
        s += "<h3>Timeline</h3><div class=\"controls\" role=\"toolbar\" aria-label=\"Zoom and pan the timeline\">"
        s += "<button type=\"button\" data-act=\"out\" aria-label=\"Zoom out\">−</button>"
        s += "<button type=\"button\" data-act=\"in\" aria-label=\"Zoom in\">+</button>"
        s += "<button type=\"button\" data-act=\"left\" aria-label=\"Pan left\">←</button>"
        s += "<button type=\"button\" data-act=\"right\" aria-label=\"Pan right\">→</button>"
        s += "<button type=\"button\" data-act=\"reset\">Reset</button>"
        s +=
            "<span class=\"view\" aria-live=\"polite\">Showing \(ReportText.clock(0)) to \(ReportText.clock(session.end))</span></div>"
        s +=
            "<div class=\"plot\" tabindex=\"0\" aria-describedby=\"\(id)-help\">"
            + TimelineSVG(session, id: id).render() + "</div>"
        s +=
            "<p class=\"help\" id=\"\(id)-help\">Focus the timeline, then + and − zoom, ← and → pan, 0 resets; Tab moves "
        s +=
            "through bars and events. With a mouse: the wheel zooms and dragging pans. Thick ticks stand for several events "
        s += "that would overlap; zoom in to separate them.</p>"
        s += legend
        s +=
            "<div class=\"details\" id=\"\(id)-details\" aria-live=\"polite\">Hover over or focus an event to see its attributes.</div>"
        s += blockList(session, id: id)
        s +=
            "<script type=\"application/json\" id=\"\(id)-data\">" + EventDataIsland.render(session)
            + "</script></section>"
        return s
    }

    /// Each playback's state history as a lane, and the played format over time.
    private func statesSection(_ session: ReportSession, id: String) -> String {
        let histories = session.kpis.histories
        guard !histories.isEmpty else { return "" }
        var s = "<section class=\"state-history\" aria-labelledby=\"\(id)-st-h\"><h3 id=\"\(id)-st-h\">"
        s += "Playback states</h3>" + StateLanesSVG.render(histories, end: session.end, id: id)
        s += "<ul class=\"legend\" aria-label=\"States\">"
        for state in [
            PlaybackState.joining, .playing, .paused, .seeking, .buffering, .pausedBuffering, .suppressed,
            .interruptedByAd, .failed, .ended,
        ] {
            s += "<li><span class=\"sw st \(state.cssClass)\"></span>\(state.name)</li>"
        }
        s += "</ul>"
        if let plot = FormatPlotSVG.render(histories, end: session.end, id: id) {
            s += "<h4>Bitrate and resolution</h4>" + plot
            s += "<ul class=\"legend\"><li><span class=\"sw fl-bitrate\"></span>bitrate</li>"
            s += "<li><span class=\"sw fl-height\"></span>resolution height</li></ul>"
        }
        return s + "</section>"
    }

    private var legend: String {
        var s = "<ul class=\"legend\" aria-label=\"Legend\">"
        for kind in TimelineBlock.Kind.allCases {
            s += "<li><span class=\"sw bar \(kind.rawValue)\"></span>\(kind.title)</li>"
        }
        s += "<li><span class=\"sw tk ev\"></span>event</li><li><span class=\"sw tk ping\"></span>ping</li>"
        s += "<li><span class=\"sw tk err\"></span>error</li><li><span class=\"sw mk\"></span>metric</li></ul>"
        return s
    }

    /// The bars as text: the timeline's text alternative, in lane then time order.
    private func blockList(_ session: ReportSession, id: String) -> String {
        var s = "<details class=\"blocks\"><summary>Bars as text (\(session.blocks.count))</summary><ul>"
        for block in session.blocks {
            s += "<li data-kind=\"\(block.kind.rawValue)\" data-lane=\"\(ReportText.html(session.lanes[block.lane]))\" "
            s +=
                "data-t=\"\(block.start)\" data-e=\"\(block.end)\">\(ReportText.html(session.lanes[block.lane])): \(block.kind.title) "
            s +=
                "from \(ReportText.clock(block.start)) to \(ReportText.clock(block.end)) (\(ReportText.duration(block.duration)))"
            s += block.unfinished ? ", no closing event" : ""
            s += "</li>"
        }
        return s + "</ul></details>"
    }
}
