import AVTKPI
import AVTOutput

/// The timeline's first lanes, one per playback, drawn from its state history (the model every
/// KPI card comes from): spans coloured by state, each with its start, end and length on hover
/// and focus, and above them the labelled marks a reader looks for (`StateMark`). Marks of one
/// kind within a tick bucket (4 px) are one mark with their count, so a lane with hundreds of
/// errors stays readable. A mark's word is drawn where it does not overlap the previous one.
package struct PlaybackLanesSVG {
    /// Lanes drawn at most; the rest are named in a note (the KPI table lists every playback).
    static let maxLanes = 200

    let histories: [PlaybackHistory]
    let marks: [[StateMark]]
    let layout: TimelineLayout

    /// `marks[n]` belongs to `histories[n]`.
    init(_ histories: [PlaybackHistory], marks: [[StateMark]], layout: TimelineLayout) {
        self.histories = histories
        self.marks = marks
        self.layout = layout
    }

    func render(clipId: String) -> String {
        var s = ""
        for (n, history) in histories.prefix(layout.playbackCount).enumerated() {
            let top = layout.playbackTop(n)
            s += "<g class=\"lane playback\" data-playback=\"\(ReportText.html(history.id))\">"
            s +=
                "<rect class=\"lane-bg\" x=\"0\" y=\"\(top)\" width=\"\(TimelineLayout.width)\" height=\"\(TimelineLayout.playbackLaneHeight)\"/>"
            s += "<text class=\"lane-name\" x=\"8\" y=\"\(top + 26)\">playback \(n + 1)<title>"
            s += "\(ReportText.html(history.id))</title></text>"
            if history.startNotRecorded {
                s += "<text class=\"lane-sub\" x=\"8\" y=\"\(top + 42)\">start not recorded</text>"
            }
            s += "<g clip-path=\"url(#\(clipId))\"><g class=\"states\">"
            for span in Self.merged(history.spans ?? [], end: history.finishedAt ?? layout.end)
            where span.end > span.start {
                s += state(span, top: top)
            }
            s += "</g><g class=\"marks\">" + self.marks(n < marks.count ? marks[n] : [], top: top) + "</g></g></g>"
        }
        return s
    }

    private func state(_ span: Span, top: Int) -> String {
        let x = layout.x10(span.start)
        // At least 1 px wide, as the page's script draws it when zooming.
        let w = max(10, layout.x10(span.end) - x)
        let text =
            "\(span.state.name) from \(ReportText.clock(span.start)) to \(ReportText.clock(span.end)), "
            + ReportText.duration(span.end - span.start)
        return "<rect class=\"bar st \(span.state.cssClass)\" x=\"\(ReportText.tenths(x))\" "
            + "y=\"\(top + TimelineLayout.stateRow.top)\" width=\"\(ReportText.tenths(w))\" "
            + "height=\"\(TimelineLayout.stateRow.height)\" data-t=\"\(span.start)\" data-e=\"\(span.end)\" "
            + "data-state=\"\(span.state.name)\" tabindex=\"0\" aria-label=\"\(text)\"><title>\(text)</title></rect>"
    }

    /// The marks, grouped per kind and bucket, in time order. Their words are placed by
    /// priority (`wordPlaces`), so an error's word is never hidden by a seek's.
    private func marks(_ list: [StateMark], top: Int) -> String {
        let groups = Self.grouped(list, layout: layout)
        let places = Self.wordPlaces(
            groups.map { (x: layout.x10($0[0].t), width: Self.wordWidth(word($0)) * 10, priority: $0[0].kind.priority) }
        )
        var s = ""
        for (group, place) in zip(groups, places) {
            let first = group[0]
            let text =
                group.count == 1
                ? first.text
                : "\(group.count) × \(first.word) from \(ReportText.clock(first.t)) to "
                    + "\(ReportText.clock(group[group.count - 1].t)): " + group.map(\.text).joined(separator: "; ")
            s += "<g class=\"mark m-\(first.kind.rawValue)\(first.isMinor ? " minor" : "")\" "
            s += "transform=\"translate(\(ReportText.tenths(layout.x10(first.t))),0)\" data-t=\"\(first.t)\" "
            s += "data-w=\"\(Self.wordWidth(word(group)))\" data-p=\"\(first.kind.priority)\" "
            s += "data-n=\"\(group.count)\" tabindex=\"0\" aria-label=\"\(ReportText.html(text))\">"
            s += "<title>\(ReportText.html(text))</title>"
            s += "<line x1=\"0\" x2=\"0\" y1=\"\(top + TimelineLayout.markLine.top)\" "
            s += "y2=\"\(top + TimelineLayout.markLine.top + TimelineLayout.markLine.height)\"/>"
            let row = place.row ?? 0
            s += "<text x=\"\(place.leftward ? "-2" : "2")\" "
            s += "y=\"\(top + TimelineLayout.markWordBaseline + row * TimelineLayout.markWordRow)\""
            s += place.leftward ? " text-anchor=\"end\"" : ""
            s += place.row.map { $0 > 0 ? " data-row=\"\($0)\"" : "" } ?? " visibility=\"hidden\""
            s += ">\(ReportText.html(word(group)))</text></g>"
        }
        return s
    }

    private func word(_ group: [StateMark]) -> String {
        group.count == 1 ? group[0].word : "\(group[0].word) ×\(group.count)"
    }

    /// Where each word goes: by priority, then left to right, a word takes the first of the
    /// `TimelineLayout.markWordRows` rows where it overlaps no word placed before it, and is not
    /// drawn (nil row) where every row is taken. A word that would run past the plot's right
    /// edge is drawn to the left of its mark. x and width in tenths of a pixel; the page's
    /// script applies the same rule when zooming.
    static func wordPlaces(_ words: [(x: Int, width: Int, priority: Int)]) -> [(row: Int?, leftward: Bool)] {
        let edge = (TimelineLayout.gutter + TimelineLayout.plotWidth + 4) * 10
        var places = words.map { (row: Int?.none, leftward: $0.x + $0.width > edge) }
        var taken = [[(Int, Int)]](repeating: [], count: TimelineLayout.markWordRows)
        let order = words.indices.sorted { (words[$0].priority, $0) < (words[$1].priority, $1) }
        for n in order {
            let start = places[n].leftward ? words[n].x - words[n].width : words[n].x
            let end = start + words[n].width
            if let row = taken.indices.first(where: { !taken[$0].contains { start < $0.1 && $0.0 < end } }) {
                places[n].row = row
                taken[row].append((start, end))
            }
        }
        return places
    }

    /// About 7 px a character of the 11 px text, and a gap: what the page's script assumes too.
    static func wordWidth(_ word: String) -> Int { word.count * 7 + 6 }

    /// Marks of the same kind (and fatality) in the same bucket, in order of their first mark.
    static func grouped(_ marks: [StateMark], layout: TimelineLayout) -> [[StateMark]] {
        var groups: [[StateMark]] = []
        var index: [String: Int] = [:]
        for mark in marks {
            let key = "\(mark.kind.rawValue) \(mark.isMinor) \(layout.bucket(mark.t))"
            if let n = index[key] {
                groups[n].append(mark)
            } else {
                index[key] = groups.count
                groups.append([mark])
            }
        }
        return groups
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
}
