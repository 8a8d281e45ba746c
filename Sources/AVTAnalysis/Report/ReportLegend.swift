import AVTKPI
import AVTOutput

/// The timeline's one legend: only what the session's timeline draws, each with the word and
/// colour it has everywhere on the page (a state's name is the one the KPI docs use, a mark's
/// word is the one drawn above it).
package enum ReportLegend {
    static func render(_ session: ReportSession, marks: [[StateMark]], playbacks: Int) -> String {
        var items: [(key: String, swatch: String, word: String)] = []
        var drawn = Set<PlaybackState>()
        for history in session.kpis.histories.prefix(playbacks) {
            for span in PlaybackLanesSVG.merged(history.spans ?? [], end: history.finishedAt ?? session.end)
            where span.end > span.start {
                drawn.insert(span.state)
            }
        }
        // Each colour once: states that share one (buffering, suppressed while buffering) share
        // an item.
        var classes: [String: Int] = [:]
        for state in PlaybackState.allCases where drawn.contains(state) {
            if let n = classes[state.cssClass] {
                items[n].word += " / " + state.name
            } else {
                classes[state.cssClass] = items.count
                items.append(("state-\(state.cssClass)", "sw st \(state.cssClass)", state.name))
            }
        }
        let all = marks.prefix(playbacks).joined()
        for kind in StateMark.Kind.allCases {
            var words: [String] = []
            for mark in all where mark.kind == kind && !mark.isMinor && !words.contains(mark.word) {
                words.append(mark.word)
            }
            if !words.isEmpty {
                items.append(("mark-\(kind.rawValue)", "sw mark m-\(kind.rawValue)", words.joined(separator: " / ")))
            }
            if kind == .error, all.contains(where: { $0.kind == .error && $0.isMinor }) {
                items.append(("mark-error-minor", "sw mark m-error minor", "error, non-fatal"))
            }
        }
        var classesPresent = Set<TickClass>()
        for (index, record) in session.records.enumerated() where session.laneOfRecord[index] != nil {
            classesPresent.insert(TickClass(action: record.label))
        }
        for tickClass in [TickClass.event, .ping, .error] where classesPresent.contains(tickClass) {
            let word: String
            switch tickClass {
            case .event: word = "hub event"
            case .ping: word = "Ping event"
            case .error: word = "Error event"
            }
            items.append(("tick-\(tickClass.cssClass)", "sw tk \(tickClass.cssClass)", word))
        }
        if session.laneOfRecord.contains(where: { $0 == nil }) {
            items.append(("metric", "sw mk", "metricalc value"))
        }
        var s = "<ul class=\"legend\" aria-label=\"Legend\">"
        for item in items {
            s +=
                "<li data-item=\"\(item.key)\"><span class=\"\(item.swatch)\"></span>\(ReportText.html(item.word))</li>"
        }
        return s + "</ul>"
    }
}
