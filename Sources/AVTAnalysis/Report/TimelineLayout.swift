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
    /// A playback's lane: its marks' words on top, the marks' lines across its state bar.
    static let playbackLaneHeight = 58
    static let laneHeight = 36
    static let metricsLaneHeight = 48
    /// Ticks whose x falls in the same `bucketWidth`-pixel bucket of a lane (and the same class:
    /// ping, event, error) are drawn as one aggregated tick. Deterministic: bucket = ⌊t · plotWidth
    /// / (end · bucketWidth)⌋.
    static let bucketWidth = 4

    // Rows inside a tracker's lane (offsets from the lane's top).
    static let tickRow = (top: 8, height: 18)
    /// Error ticks span the lane.
    static let errorRow = (top: 3, height: 30)
    // Rows inside a playback's lane: the state bar and a mark's line and word.
    static let stateRow = (top: 34, height: 14)
    static let markLine = (top: 26, height: 28)
    static let markWordBaseline = 11
    /// Words go on up to two rows above the state bar, this far apart.
    static let markWordRows = 2
    static let markWordRow = 12

    let end: Int
    /// Playback lanes drawn (the first `StateLanesSVG.maxLanes` playbacks).
    var playbackCount = 0
    let laneCount: Int
    let hasMetrics: Bool

    init(end: Int, playbackCount: Int = 0, laneCount: Int, hasMetrics: Bool) {
        self.end = end
        self.playbackCount = playbackCount
        self.laneCount = laneCount
        self.hasMetrics = hasMetrics
    }

    var height: Int { metricsTop + (hasMetrics ? Self.metricsLaneHeight : 0) + 4 }
    func playbackTop(_ playback: Int) -> Int { Self.axisHeight + playback * Self.playbackLaneHeight }
    func laneTop(_ lane: Int) -> Int { playbackTop(playbackCount) + lane * Self.laneHeight }
    var metricsTop: Int { laneTop(laneCount) }

    /// x of time t in tenths of a pixel.
    func x10(_ t: Int) -> Int {
        // In full width: t × 10,000 overflows for the longest timelines a report may draw.
        let product = t.multipliedFullWidth(by: Self.plotWidth * 10)
        return Self.gutter * 10 + end.dividingFullWidth(product).quotient
    }
    func x(_ t: Int) -> String { ReportText.tenths(x10(t)) }
    func bucket(_ t: Int) -> Int { t * Self.plotWidth / (end * Self.bucketWidth) }

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
