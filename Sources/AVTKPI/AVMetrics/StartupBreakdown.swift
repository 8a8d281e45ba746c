/// Where the time to the initial likely-to-keep-up went: the startup window split into playlist,
/// content key and media segment request time along the critical path, and the rest.
///
/// The window is [t − timeTaken, t] of the AVMetricPlayerItemInitialLikelyToKeepUpEvent. Each
/// request covers [requestStartTime, responseEndTime] (else requestEndTime), clipped to the
/// window. Every instant of the window goes to exactly one part: **playlist** if any playlist
/// request covers it, else **contentKey** if a key request does, else **mediaSegment** if a
/// segment request does, else **other** (player, decoder, app). So overlapping requests count
/// once, the parts add up to the window exactly, and when a playlist and a segment overlap the
/// playlist — which the segment depends on — gets the time. `spans` is that partition in time
/// order, ready to draw as a waterfall with `requests` above it.
package struct StartupBreakdown: Sendable, Equatable {
    package enum Part: String, Sendable, CaseIterable {
        case playlist, contentKey, mediaSegment, other
    }

    /// A stretch of the window attributed to one part.
    package struct Span: Sendable, Equatable {
        package var part: Part
        package var start: Int
        package var end: Int

        package init(part: Part, start: Int, end: Int) {
            self.part = part
            self.start = start
            self.end = end
        }

        package var duration: Int { end - start }
    }

    /// Virtual ms: the window [start, end]; end is the initial likely-to-keep-up's t.
    package let start: Int
    package let end: Int
    /// The partition of the window, in time order; adjacent spans have different parts.
    package let spans: [Span]
    /// The requests the initial likely-to-keep-up lists, by start time (then category, URL).
    package let requests: [AVMetricsRequest]

    /// timeTaken in ms.
    package var total: Int { end - start }

    /// The ms attributed to `part`.
    package func time(_ part: Part) -> Int {
        spans.reduce(0) { $0 + ($1.part == part ? $1.duration : 0) }
    }

    /// Splits [start, end] among `requests` (playlist and key and segment ones; others are
    /// listed but cover nothing).
    package init(start: Int, end: Int, requests: [AVMetricsRequest]) {
        self.start = start
        self.end = max(start, end)
        self.requests = requests.sorted { a, b in
            (a.start ?? Int.max, a.category.rawValue, a.url ?? "") < (
                b.start ?? Int.max, b.category.rawValue, b.url ?? ""
            )
        }
        let windowEnd = self.end
        // Intervals clipped to the window, by part.
        var intervals: [(part: Part, from: Int, to: Int)] = []
        for request in requests {
            guard let s = request.start, let e = request.end else { continue }
            let part: Part
            switch request.category {
            case .playlist: part = .playlist
            case .contentKey: part = .contentKey
            case .mediaSegment: part = .mediaSegment
            case .other: continue
            }
            let from = max(s, start)
            let to = min(e, windowEnd)
            if from < to { intervals.append((part, from, to)) }
        }
        // Elementary pieces between consecutive boundaries, each given to the first part (in
        // Part order) covering it.
        let boundaries = Array(Set([start, windowEnd] + intervals.flatMap { [$0.from, $0.to] })).sorted()
        var spans: [Span] = []
        for (a, b) in zip(boundaries, boundaries.dropFirst()) where a < b {
            let covering = intervals.filter { $0.from <= a && $0.to >= b }.map(\.part)
            let part = Part.allCases.first { covering.contains($0) } ?? .other
            if let last = spans.last, last.part == part, last.end == a {
                spans[spans.count - 1].end = b
            } else {
                spans.append(Span(part: part, start: a, end: b))
            }
        }
        self.spans = spans
    }

    /// The breakdown of a session's initial likely-to-keep-up; nil when there was none.
    package init?(log: AVMetricsSessionLog) {
        guard let initial = log.initialLikelyToKeepUp else { return nil }
        self.init(start: initial.t - initial.timeTaken, end: initial.t, requests: initial.requests)
    }
}
