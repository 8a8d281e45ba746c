/// One lane per playback of its state history: spans coloured by state, each with its start,
/// end and length on hover and focus, fatal errors as ticks (one per pixel, with their count,
/// so a lane with hundreds of errors stays readable). Same time axis as the timeline.
package enum StateLanesSVG {
    static let laneHeight = 24
    /// Lanes drawn at most; the rest are named in a note (the KPI table lists every playback).
    static let maxLanes = 200

    static func render(_ histories: [PlaybackHistory], end: Int, id: String) -> String {
        let shown = Array(histories.prefix(maxLanes))
        let shared = Scale(start: 0, end: end)
        let height = 8 + shown.count * laneHeight
        var s = "<svg class=\"states\" id=\"\(id)-states\" viewBox=\"0 0 \(TimelineLayout.width) \(height)\" "
        s += "role=\"group\" aria-labelledby=\"\(id)-states-t\"><title id=\"\(id)-states-t\">State history of "
        s += "\(histories.count) playback\(histories.count == 1 ? "" : "s")</title>"
        for (n, history) in shown.enumerated() {
            let top = 4 + n * laneHeight
            let spans = merged(history.spans ?? [], end: history.finishedAt ?? end)
            // One playback shares the timeline's axis; several each get their own, from their
            // first state to their last, so a short playback in a long session is still seen.
            let lane =
                histories.count == 1
                ? shared : Scale(start: spans.first?.start ?? history.begin, end: spans.last?.end ?? history.begin)
            s += "<g class=\"state-lane\" data-playback=\"\(ReportText.html(history.id))\">"
            s += "<text class=\"lane-name\" x=\"8\" y=\"\(top + 15)\">playback \(n + 1)<title>"
            s += "\(ReportText.html(history.id))"
            if histories.count > 1, let first = spans.first {
                s += ", from \(ReportText.clock(first.start)) to \(ReportText.clock(spans[spans.count - 1].end))"
            }
            s += "</title></text>"
            for span in spans where span.end > span.start {
                let x = lane.x10(span.start)
                let w = max(2, lane.x10(span.end) - x)
                let text =
                    "\(span.state.name) from \(ReportText.clock(span.start)) to \(ReportText.clock(span.end)), "
                    + ReportText.duration(span.end - span.start)
                s += "<rect class=\"st \(span.state.cssClass)\" x=\"\(ReportText.tenths(x))\" y=\"\(top + 2)\" "
                s += "width=\"\(ReportText.tenths(w))\" height=\"16\" data-t=\"\(span.start)\" data-e=\"\(span.end)\" "
                s += "data-state=\"\(span.state.name)\" tabindex=\"0\" aria-label=\"\(text)\">"
                s += "<title>\(text)</title></rect>"
            }
            for (x, times) in errorTicks(history.errorTimes ?? [], layout: lane) {
                let text =
                    times.count == 1
                    ? "fatal error at \(ReportText.clock(times[0]))"
                    : "\(times.count) fatal errors from \(ReportText.clock(times[0])) to \(ReportText.clock(times[times.count - 1]))"
                s += "<rect class=\"st-err\" x=\"\(ReportText.tenths(x))\" y=\"\(top)\" width=\"2\" height=\"20\" "
                s += "tabindex=\"0\" aria-label=\"\(text)\"><title>\(text)</title></rect>"
            }
            s += "</g>"
        }
        s += "</svg>"
        if histories.count > shown.count {
            s += "<p class=\"help\">The first \(shown.count) of \(histories.count) playbacks are drawn; the KPI table "
            s += "lists every one.</p>"
        }
        return s
    }

    /// x in tenths of a pixel over the timeline's plot for times from `start` to `end`.
    struct Scale {
        var start: Int
        var end: Int

        func x10(_ t: Int) -> Int {
            let span = max(1, end - start)
            let offset = min(max(0, t - start), span)
            // In full width: offset × 10,000 overflows for the longest timelines.
            let product = offset.multipliedFullWidth(by: TimelineLayout.plotWidth * 10)
            return TimelineLayout.gutter * 10 + span.dividingFullWidth(product).quotient
        }
    }

    struct Span {
        var state: PlaybackState
        var start: Int
        var end: Int
    }

    /// The spans with their ends; consecutive spans of one state are drawn as one. The time
    /// before anything happened (not started) and after the playback was over (ended, stopped,
    /// abandoned) is not drawn: the bar ends there. A failure is drawn until the recording ends
    /// or the player goes on, short of the next playback.
    static func merged(_ spans: [StateSpan], end: Int) -> [Span] {
        var out: [Span] = []
        for (n, span) in spans.enumerated() {
            let spanEnd = n + 1 < spans.count ? spans[n + 1].start : max(end, span.start)
            if span.state == .notStarted || span.state == .ended || span.state == .stopped
                || span.state == .abandoned
            {
                continue
            }
            if let last = out.last, last.state == span.state, last.end == span.start {
                out[out.count - 1].end = spanEnd
            } else {
                out.append(Span(state: span.state, start: span.start, end: spanEnd))
            }
        }
        return out
    }

    /// Error times grouped by the pixel they fall on, in time order.
    static func errorTicks(_ times: [Int], layout: Scale) -> [(Int, [Int])] {
        var out: [(Int, [Int])] = []
        for t in times {
            let x = layout.x10(t) / 10 * 10
            if let last = out.last, last.0 == x {
                out[out.count - 1].1.append(t)
            } else {
                out.append((x, [t]))
            }
        }
        return out
    }
}
