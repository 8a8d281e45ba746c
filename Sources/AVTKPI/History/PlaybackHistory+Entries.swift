/// The state history as data: what `kpi --format json` prints (`history`) and `kpi --states`
/// tabulates, and the way back from it to a history whose figures give the KPIs again.
extension PlaybackHistory {
    /// One state of the history: its name (docs/kpi.md), when it began and how long it lasted.
    package struct Entry: Sendable, Equatable {
        package var state: PlaybackState
        package var t: Int
        package var durationMs: Int

        package init(state: PlaybackState, t: Int, durationMs: Int) {
            self.state = state
            self.t = t
            self.durationMs = durationMs
        }
    }

    /// Each kept state change with its duration: a state lasts until the next begins, the last
    /// until `end` (the end of the recording, where `closed(at:)` closed it). Empty when the
    /// spans were not kept.
    package func entries(end: Int) -> [Entry] {
        guard let spans else { return [] }
        var out: [Entry] = []
        out.reserveCapacity(spans.count)
        for (n, span) in spans.enumerated() {
            let next = n + 1 < spans.count ? spans[n + 1].start : max(end, span.start)
            out.append(Entry(state: span.state, t: span.start, durationMs: next - span.start))
        }
        return out
    }

    /// A history rebuilt from its entries (a `history` read back from `kpi --format json`): each
    /// state entered in turn through `enter`, the very step the replay took, and the last one
    /// closed at its end. So every figure the states determine (times, counts, the longest
    /// rebuffer, ready, ended) comes out of the same code as the printed KPIs, not a second
    /// account of them. `switches` (the `switchHistory`) are the renditions played, set in time
    /// order among the states: a switch and a state change at the same t bank the same time
    /// in either order (both bank the interval before t at the old format and state).
    /// `firstFrame` (`firstFrameAt`) is when the first frame was shown, nil if never.
    package init(id: String, entries: [Entry], switches: [(t: Int, format: VideoFormat)] = [], firstFrame: Int?) {
        let begin = entries.first?.t ?? 0
        self.init(id: id, begin: begin, keepSpans: true)
        rendersExplicitly = true
        if let firstFrame { rendered(at: firstFrame) }
        var next = switches.startIndex
        for entry in entries {
            while next < switches.endIndex, switches[next].t <= entry.t {
                setPlayedFormat(switches[next].format, at: switches[next].t)
                next += 1
            }
            enter(entry.state, at: entry.t)
        }
        let end = entries.last.map { $0.t.saturatingAdding($0.durationMs) } ?? begin
        for change in switches[next...] where change.t <= end { setPlayedFormat(change.format, at: change.t) }
        self = closed(at: end)
    }
}
