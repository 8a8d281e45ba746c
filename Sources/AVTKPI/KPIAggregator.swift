import AVTOutput

/// The aggregate across playbacks, kept as `kpi` goes: every playback's figures added together
/// (the pooled values) and, for the statistics, each KPI's values across playbacks, 8 bytes a
/// value (`KPIColumns`). Nothing else of a playback is kept once it is added, so the aggregate
/// of a corpus costs a number per playback and KPI, and exact percentiles stay exact.
package struct KPIAggregator {
    private let definitions: KPIDefinitions
    private var pooled = PlaybackFigures()
    private var columns: KPIColumns
    /// Playbacks added.
    package private(set) var playbacks = 0

    /// Every KPI a statistic can be about, in the order the statistics are printed.
    static let names = KPIName.all + KPIName.shakaOnly
    private static let indexOfName: [String: Int] = Dictionary(
        names.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })

    /// `spills`: past a few MiB of values, keep them in a temporary file (see `KPIColumns`);
    /// without it everything stays in memory and nothing can fail.
    package init(definitions: KPIDefinitions, spills: Bool = false) {
        self.definitions = definitions
        columns = KPIColumns(count: Self.names.count, spills: spills)
    }

    /// A session's playbacks: their values in this definition set, and their figures pooled.
    package mutating func add(_ session: SessionKPIs) {
        for id in session.playbackIds { add(values: session.playback(id, definitions: definitions)) }
        pooled.merge(session.pooled)
    }

    /// One playback's values (its statistics sample).
    package mutating func add(values: [KPI]) {
        playbacks += 1
        for kpi in values {
            guard let index = Self.indexOfName[kpi.name] else { continue }
            columns.append(kpi.value.number, to: index)
        }
    }

    /// A mark to go back to: what was added so far.
    package var mark: (playbacks: Int, counts: [Int]) { (playbacks, columns.counts) }

    /// Forgets the playbacks' values added after `mark` (a session that turned out bad before
    /// its end; its pooled figures were not added yet).
    package mutating func rollBack(to mark: (playbacks: Int, counts: [Int])) {
        playbacks = mark.playbacks
        columns.truncate(to: mark.counts)
    }

    /// Figures pooled without their playbacks' values (a session's totals, for instance).
    package mutating func add(pooled figures: PlaybackFigures) { pooled.merge(figures) }

    /// The pooled values: the totals of one session made of every playback added.
    package var pooledValues: [KPI] { KPICalculator.values(pooled, definitions, flags: false) }

    /// Each KPI's count, mean, min, percentiles and max, as `KPIAggregate.compute` gives them:
    /// one column sorted at a time, so only one KPI's values are ever unpacked.
    /// Throws only when spilled values cannot be read back.
    package func statistics() throws(OutputError) -> [(String, [(String, Double)])] {
        var out: [(String, [(String, Double)])] = []
        for index in Self.names.indices {
            let values = try columns.values(index).sorted()
            guard !values.isEmpty else { continue }
            out.append((Self.names[index], KPIAggregate.statistics(sorted: values)))
        }
        return out
    }

    /// The pooled values, then each statistic, as named columns (the table's, the CSV's rows).
    package func columnsByStatistic() throws(OutputError) -> [(String, [String: Double])] {
        var columns: [(String, [String: Double])] = []
        columns.append(
            ("(pooled)", Dictionary(pooledValues.map { ($0.name, $0.value.number) }, uniquingKeysWith: { a, _ in a })))
        let stats = try statistics()
        for stat in KPIAggregate.statistics {
            var values: [String: Double] = [:]
            for (name, statValues) in stats { values[name] = statValues.first { $0.0 == stat }?.1 }
            columns.append(("(\(stat))", values))
        }
        return columns
    }
}
