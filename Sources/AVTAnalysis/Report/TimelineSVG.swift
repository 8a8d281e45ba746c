import AVTTimeline

/// Draws a session's timeline at the default zoom: the time axis, a lane per playback with its
/// states and marks (from the KPIs' state history), a lane per tracker with the events the hub
/// delivered as ticks, and a lane of the metricalc's metrics. Every element that stands for
/// something in the data carries `data-t` (and `data-e`) in ms so the page's script can zoom and
/// pan it, a `<title>` for hover and, being focusable, an `aria-label` for keyboard and
/// screen-reader users.
package struct TimelineSVG {
    let session: ReportSession
    let id: String
    let layout: TimelineLayout
    let marks: [[StateMark]]

    /// `marks[n]` are the marks of the session's n-th playback.
    init(_ session: ReportSession, id: String, marks: [[StateMark]]) {
        self.session = session
        self.id = id
        self.marks = marks
        layout = TimelineLayout(
            end: session.end, playbackCount: min(session.kpis.histories.count, PlaybackLanesSVG.maxLanes),
            laneCount: session.lanes.count, hasMetrics: session.laneOfRecord.contains { $0 == nil })
    }

    func render() -> String {
        let geometry = TimelineLayout.self
        var s = "<svg class=\"tl\" id=\"\(id)-svg\" viewBox=\"0 0 \(geometry.width) \(layout.height)\" role=\"group\" "
        s += "aria-labelledby=\"\(id)-svg-t\" data-end=\"\(session.end)\" data-session=\"\(id)\">"
        s += "<title id=\"\(id)-svg-t\">Timeline of \(ReportText.html(session.name)): \(layout.playbackCount) playback"
        s += layout.playbackCount == 1 ? "" : "s"
        s += ", \(session.lanes.count) tracker\(session.lanes.count == 1 ? "" : "s"), "
        s +=
            "\(session.eventCount) events, \(session.records.count - session.eventCount) metrics over \(ReportText.duration(session.end))</title>"
        s +=
            "<defs><clipPath id=\"\(id)-clip\"><rect x=\"\(geometry.gutter - 4)\" y=\"0\" width=\"\(geometry.plotWidth + 8)\" height=\"\(layout.height)\"/></clipPath>"
        // Axis labels may overhang the plot by half a label at either end.
        s +=
            "<clipPath id=\"\(id)-clip-axis\"><rect x=\"\(geometry.gutter - 30)\" y=\"0\" width=\"\(geometry.plotWidth + 60)\" height=\"\(layout.height)\"/></clipPath></defs>"
        s += "<text class=\"axis-unit\" x=\"8\" y=\"14\">\(ReportText.clockUnit(session.end))</text>"
        s += "<g class=\"axis\" clip-path=\"url(#\(id)-clip-axis)\">" + axis() + "</g>"
        s += PlaybackLanesSVG(session.kpis.histories, marks: marks, layout: layout).render(clipId: "\(id)-clip")
        let ticks = layout.ticks(session)
        var tickIndex = 0
        for (lane, name) in session.lanes.enumerated() {
            let top = layout.laneTop(lane)
            s += "<g class=\"lane tracker\" data-lane=\"\(lane)\">"
            s +=
                "<rect class=\"lane-bg\" x=\"0\" y=\"\(top)\" width=\"\(geometry.width)\" height=\"\(geometry.laneHeight)\"/>"
            s += "<text class=\"lane-name\" x=\"8\" y=\"\(top + 15)\">\(ReportText.html(name))</text>"
            s += "<text class=\"lane-sub\" x=\"8\" y=\"\(top + 29)\">hub events</text>"
            s += "<g clip-path=\"url(#\(id)-clip)\"><g class=\"ticks\" data-lane=\"\(lane)\">"
            while tickIndex < ticks.count, ticks[tickIndex].lane == lane {
                s += tick(ticks[tickIndex], top: top)
                tickIndex += 1
            }
            s += "</g></g></g>"
        }
        if layout.hasMetrics {
            let top = layout.metricsTop
            s += "<g class=\"lane metrics\" data-lane=\"-1\">"
            s +=
                "<rect class=\"lane-bg\" x=\"0\" y=\"\(top)\" width=\"\(geometry.width)\" height=\"\(geometry.metricsLaneHeight)\"/>"
            s += "<text class=\"lane-name\" x=\"8\" y=\"\(top + 18)\">metrics</text>"
            s += "<text class=\"lane-sub\" x=\"8\" y=\"\(top + 33)\">OpenAVT metricalc</text>"
            s +=
                "<g clip-path=\"url(#\(id)-clip)\"><g class=\"ticks\" data-lane=\"-1\">" + metrics(top: top)
                + "</g></g></g>"
        }
        return s + "</svg>"
    }

    private func axis() -> String {
        let step = layout.axisStep
        var s = ""
        var t = 0
        while t <= session.end {
            let x = layout.x(t)
            s += "<line class=\"grid\" x1=\"\(x)\" x2=\"\(x)\" y1=\"20\" y2=\"\(layout.height)\"/>"
            s +=
                "<text class=\"axis-label\" x=\"\(x)\" y=\"14\">\(ReportText.clock(t, milliseconds: step % 1000 != 0))</text>"
            t += step
        }
        return s
    }

    private func tick(_ mark: TickMark, top: Int) -> String {
        let row = TimelineLayout.tickRow
        let x = layout.x10(mark.firstT)
        let cls = mark.tickClass.cssClass
        if mark.records.count == 1 {
            let index = mark.records[0]
            let record = session.records[index]
            let label = "\(record.label) at \(ReportText.clock(mark.firstT))"
            var title =
                "\(record.label) · \(ReportText.clock(mark.firstT)) · \(record.tracker ?? ReportSession.noTrackerLane)"
            // Every tick repeats its record's attributes: an excerpt each keeps a 1 MB value from
            // being written once per tick.
            for (key, value) in record.attributes {
                title += "\n\(ReportText.excerpt(key)): \(ReportText.excerpt(ReportText.json(value)))"
            }
            // Errors stand out: red, wider, and across the whole lane.
            let isError = mark.tickClass == .error
            let y = top + (isError ? TimelineLayout.errorRow.top : row.top)
            let height = isError ? TimelineLayout.errorRow.height : row.height
            return
                "<rect class=\"tk \(cls)\" x=\"\(ReportText.tenths(x - (isError ? 15 : 10)))\" y=\"\(y)\" width=\"\(isError ? 3 : 2)\" "
                + "height=\"\(height)\" data-t=\"\(mark.firstT)\" data-i=\"\(index)\" tabindex=\"0\" "
                + "aria-label=\"\(ReportText.html(label))\"><title>\(ReportText.html(title))</title></rect>"
        }
        let summary = countsSummary(mark.records)
        let label =
            "\(mark.records.count) events from \(ReportText.clock(mark.firstT)) to \(ReportText.clock(mark.lastT)): \(summary)"
        let isError = mark.tickClass == .error
        let y = top + (isError ? TimelineLayout.errorRow.top : row.top - 2)
        let height = isError ? TimelineLayout.errorRow.height : row.height + 4
        return "<rect class=\"tk \(cls) agg\" x=\"\(ReportText.tenths(x - 10))\" y=\"\(y)\" width=\"4\" "
            + "height=\"\(height)\" data-t=\"\(mark.firstT)\" data-e=\"\(mark.lastT)\" data-n=\"\(mark.records.count)\" "
            + "data-c=\"\(mark.tickClass.rawValue)\" tabindex=\"0\" aria-label=\"\(ReportText.html(label))\">"
            + "<title>\(ReportText.html(label + " (zoom in to see each)"))</title></rect>"
    }

    /// Markers, with a `name value unit` label where it does not overlap the previous label
    /// (greedy, left to right, about 6 px per character); a marker standing for several metrics
    /// says how many more it holds.
    private func metrics(top: Int) -> String {
        var s = ""
        var labelEnd = Int.min
        for mark in layout.metricMarks(session) {
            let x = layout.x10(mark.firstT)
            let first = session.records[mark.records[0]]
            let valueText = ReportText.metric(first.label, first.value)
            let text: String
            let attributes: String
            if mark.records.count == 1 {
                text = valueText
                attributes = "data-i=\"\(mark.records[0])\""
            } else {
                text = "\(mark.records.count) metrics: " + countsSummary(mark.records)
                attributes = "data-e=\"\(mark.lastT)\" data-n=\"\(mark.records.count)\""
            }
            let label = "\(text) at \(ReportText.clock(mark.firstT))"
            s +=
                "<circle class=\"mk\(mark.records.count > 1 ? " agg" : "")\" cx=\"\(ReportText.tenths(x))\" cy=\"\(top + 12)\" "
                + "r=\"\(mark.records.count > 1 ? 4 : 3)\" data-t=\"\(mark.firstT)\" \(attributes) tabindex=\"0\" "
                + "aria-label=\"\(ReportText.html(label))\"><title>\(ReportText.html(label))</title></circle>"
            let shown = mark.records.count == 1 ? text : "\(valueText) and \(mark.records.count - 1) more"
            let width = (shown.count * 6 + 8) * 10
            // Left to right without overlaps, and never past the plot's right edge.
            if x >= labelEnd, x + width <= (TimelineLayout.gutter + TimelineLayout.plotWidth + 20) * 10 {
                s +=
                    "<text class=\"mk-label\" x=\"\(ReportText.tenths(x))\" y=\"\(top + 32)\" data-t=\"\(mark.firstT)\" "
                    + "aria-hidden=\"true\">\(ReportText.html(shown))</text>"
                labelEnd = x + width
            }
        }
        return s
    }

    /// `Ping ×12, Start ×1`: labels in order of first appearance with their counts.
    private func countsSummary(_ indices: [Int]) -> String {
        var counts: [(String, Int)] = []
        var position: [String: Int] = [:]
        for index in indices {
            let label = session.records[index].label
            if let n = position[label] {
                counts[n].1 += 1
            } else {
                position[label] = counts.count
                counts.append((label, 1))
            }
        }
        return counts.map { "\($0.0) ×\($0.1)" }.joined(separator: ", ")
    }
}
