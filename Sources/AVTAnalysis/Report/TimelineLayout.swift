/// Geometry of a session's timeline at the default zoom (the whole session across the plot).
/// All coordinates come from integer arithmetic, in tenths of a pixel, so the SVG is the same on
/// every machine. The page's script applies the same rules when zooming.
package struct TimelineLayout {
    /// Lane names on the left.
    static let gutter = 140
    /// The plot's width in SVG units: t=0 at `gutter`, the session's end at `gutter + plotWidth`.
    static let plotWidth = 1000
    static let width = gutter + plotWidth + 40
    static let axisHeight = 34
    static let laneHeight = 78
    static let metricsLaneHeight = 48
    /// Ticks whose x falls in the same `bucketWidth`-pixel bucket of a lane (and the same class:
    /// ping, event, error) are drawn as one aggregated tick. Deterministic: bucket = ⌊t · plotWidth
    /// / (end · bucketWidth)⌋.
    static let bucketWidth = 4

    // Rows inside a lane (offsets from the lane's top).
    static let tickRow = (top: 4, height: 16)
    static let adRow = (top: 24, height: 12)
    static let stateRow = (top: 39, height: 12)
    static let bufferRow = (top: 54, height: 12)
    static let playbackRow = (top: 69, height: 5)

    let end: Int
    let laneCount: Int
    let hasMetrics: Bool

    var height: Int { Self.axisHeight + laneCount * Self.laneHeight + (hasMetrics ? Self.metricsLaneHeight : 0) + 4 }
    func laneTop(_ lane: Int) -> Int { Self.axisHeight + lane * Self.laneHeight }
    var metricsTop: Int { Self.axisHeight + laneCount * Self.laneHeight }

    /// x of time t in tenths of a pixel.
    func x10(_ t: Int) -> Int {
        // In full width: t × 10,000 overflows for the longest timelines a report may draw.
        let product = t.multipliedFullWidth(by: Self.plotWidth * 10)
        return Self.gutter * 10 + end.dividingFullWidth(product).quotient
    }
    func x(_ t: Int) -> String { ReportText.tenths(x10(t)) }
    func bucket(_ t: Int) -> Int { t * Self.plotWidth / (end * Self.bucketWidth) }

    func row(_ kind: TimelineBlock.Kind) -> (top: Int, height: Int) {
        switch kind {
        case .adBreak: return Self.adRow
        case .ad: return (Self.adRow.top + 2, Self.adRow.height - 4)
        case .pause: return Self.stateRow
        case .seek: return (Self.stateRow.top + 2, Self.stateRow.height - 4)
        case .initialBuffer, .rebuffer, .seekBuffer: return Self.bufferRow
        case .playback: return Self.playbackRow
        }
    }

    /// Axis ticks: the smallest step from a fixed list that gives at most 10 intervals.
    static let axisSteps = [
        100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000,
        1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
    ]

    var axisStep: Int {
        Self.axisSteps.first { end / $0 <= 10 } ?? max(1, end / 10)
    }
}

extension TimelineLayout {
    /// Ticks of every lane, bucketed per (lane, class, bucket), in that order.
    func ticks(_ session: ReportSession) -> [TickMark] {
        var groups: [Int: [Int: [Int]]] = [:]  // (lane·3 + class) → bucket → record indices
        for (index, record) in session.records.enumerated() {
            guard let lane = session.laneOfRecord[index] else { continue }
            let key = lane * 3 + TickClass(action: record.label).rawValue
            groups[key, default: [:]][bucket(record.t ?? 0), default: []].append(index)
        }
        var marks: [TickMark] = []
        for key in groups.keys.sorted() {
            let buckets = groups[key]!
            for bucket in buckets.keys.sorted() {
                let indices = buckets[bucket]!
                let times = indices.map { session.records[$0].t ?? 0 }
                marks.append(
                    TickMark(
                        lane: key / 3, tickClass: TickClass(rawValue: key % 3)!, records: indices, firstT: times.min()!,
                        lastT: times.max()!))
            }
        }
        return marks
    }

    /// Metric markers, bucketed the same way on the metrics lane.
    func metricMarks(_ session: ReportSession) -> [TickMark] {
        var buckets: [Int: [Int]] = [:]
        for (index, record) in session.records.enumerated() where session.laneOfRecord[index] == nil {
            buckets[bucket(record.t ?? 0), default: []].append(index)
        }
        return buckets.keys.sorted().map { bucket in
            let indices = buckets[bucket]!
            let times = indices.map { session.records[$0].t ?? 0 }
            return TickMark(lane: -1, tickClass: .event, records: indices, firstT: times.min()!, lastT: times.max()!)
        }
    }
}
