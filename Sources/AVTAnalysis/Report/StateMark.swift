import AVTKPI
import AVTOutput

/// A labelled moment on a playback's lane, read from its state history like the KPIs, so that
/// the marks a reader counts are what the cards count: the first frame, each rebuffer and each
/// seek as the definition set counts them, every error (fatal and non-fatal), every ad, and how
/// the playback ended.
package struct StateMark: Equatable {
    package enum Kind: String, CaseIterable {
        case start, rebuffer, seek, error, ad, end

        /// The word drawn above the mark and listed in the legend.
        package var word: String { rawValue }

        /// Which word is drawn first where words would overlap: errors, then the start and the
        /// end, then rebuffers, seeks and ads.
        var priority: Int {
            switch self {
            case .error: 0
            case .start: 1
            case .end: 2
            case .rebuffer: 3
            case .seek: 4
            case .ad: 5
            }
        }
    }

    package var kind: Kind
    package var t: Int
    /// The word drawn: the kind's, or how the playback ended (`end`, `stop`, `abandoned`).
    package var word: String
    /// What hover and screen readers say.
    package var text: String
    /// A non-fatal error: drawn dashed, since it does not stop the playback.
    package var isMinor = false

    /// The marks of one playback in time order (ties in kind order). `values` are the playback's
    /// KPIs under `definitions`; a rebuffer is what that set's rebufferCount counts.
    package static func marks(
        of history: PlaybackHistory, values: [KPI], definitions: KPIDefinitions, end: Int
    ) -> [StateMark] {
        var marks: [StateMark] = []
        let at = { (t: Int) in ReportText.clock(t) }
        if let first = history.firstFrame, !history.startNotRecorded {
            var text = "start: first frame at \(at(first))"
            if let startup = values[name: "startupTime"] {
                text += ", startup \(ReportText.kpi("startupTime", startup)) (\(definitions.rawValue))"
            }
            marks.append(StateMark(kind: .start, t: first, word: "start", text: text))
        }
        let spans = history.spans ?? []
        for (n, span) in spans.enumerated() where n > 0 {
            let old = spans[n - 1].state
            let new = span.state
            let spanEnd = n + 1 < spans.count ? spans[n + 1].start : max(end, span.start)
            if isRebuffer(from: old, to: new, definitions: definitions) {
                marks.append(
                    StateMark(
                        kind: .rebuffer, t: span.start, word: "rebuffer",
                        text: "rebuffer at \(at(span.start)): \(new.name), \(ReportText.duration(spanEnd - span.start))"
                    ))
            }
            if new == .seeking {
                marks.append(
                    StateMark(
                        kind: .seek, t: span.start, word: "seek",
                        text: "seek at \(at(span.start)), \(ReportText.duration(spanEnd - span.start)) seeking"))
            }
            // How the playback ended, once: a stop after the end is not a second end.
            if new == .ended || new == .stopped || new == .abandoned, !old.isTerminal {
                let word = new == .ended ? "end" : new == .stopped ? "stop" : "abandoned"
                marks.append(StateMark(kind: .end, t: span.start, word: word, text: "\(new.name) at \(at(span.start))"))
            }
        }
        for t in history.errorTimes ?? [] {
            marks.append(StateMark(kind: .error, t: t, word: "error", text: "fatal error at \(at(t))"))
        }
        for (t, what) in history.nonFatalErrorTimes ?? [] {
            marks.append(
                StateMark(
                    kind: .error, t: t, word: "error", text: "non-fatal error (\(what)) at \(at(t))", isMinor: true))
        }
        for (start, stop) in history.adSpans ?? [] {
            let text =
                stop.map { "ad from \(at(start)) to \(at($0)), \(ReportText.duration($0 - start))" }
                ?? "ad from \(at(start)), no AdFinish or AdSkip"
            marks.append(StateMark(kind: .ad, t: start, word: "ad", text: text))
        }
        // A stable order: by time, then kind (the order of `Kind`), then as found.
        return marks.enumerated().sorted {
            ($0.element.t, Kind.allCases.firstIndex(of: $0.element.kind)!, $0.offset)
                < ($1.element.t, Kind.allCases.firstIndex(of: $1.element.kind)!, $1.offset)
        }.map(\.element)
    }

    /// What the set's rebufferCount counts: exoplayer, entering any rebuffering state (paused
    /// buffering too) from another; the others, a stall: entering buffering while wanting to
    /// play from a state that was not buffering.
    static func isRebuffer(from old: PlaybackState, to new: PlaybackState, definitions: KPIDefinitions) -> Bool {
        if definitions == .exoplayer { return !old.isRebuffering && new.isRebuffering }
        return old != .buffering && old != .suppressedBuffering && old != .pausedBuffering
            && (new == .buffering || new == .suppressedBuffering)
    }
}
