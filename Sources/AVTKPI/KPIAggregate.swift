import AVTCore

/// Count, mean, min, percentiles (nearest rank) and max of each KPI across playbacks, and the
/// pooled values a dashboard shows (every playback's times and counts added, then divided).
package enum KPIAggregate {
    package static let statistics = ["count", "mean", "min", "p50", "p90", "p95", "p99", "max"]

    package static func compute(_ playbacks: [[KPI]]) -> [(String, [(String, Double)])] {
        var samples: [String: [Double]] = [:]
        for playback in playbacks {
            for kpi in playback { samples[kpi.name, default: []].append(kpi.value.number) }
        }
        return (KPIName.all + KPIName.shakaOnly).compactMap { name in
            guard let values = samples[name]?.sorted(), !values.isEmpty else { return nil }
            return (name, statistics(sorted: values))
        }
    }

    /// The statistics of one KPI's values, sorted and not empty; the mean adds them in that
    /// order, so the same values give the same mean however they were gathered.
    package static func statistics(sorted values: [Double]) -> [(String, Double)] {
        let mean = values.reduce(0, +) / Double(values.count)
        return [
            ("count", Double(values.count)), ("mean", mean), ("min", values[0]),
            ("p50", percentile(values, 0.5)), ("p90", percentile(values, 0.9)),
            ("p95", percentile(values, 0.95)), ("p99", percentile(values, 0.99)),
            ("max", values[values.count - 1]),
        ]
    }

    /// The nearest-rank percentile of sorted values.
    package static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted[max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
    }

    /// Every session's playbacks pooled: the totals of one session made of all of them.
    package static func pooled(_ sessions: [SessionKPIs], definitions: KPIDefinitions) -> [KPI] {
        var sum = PlaybackFigures()
        for session in sessions { sum.merge(session.pooled) }
        return KPICalculator.values(sum, definitions, flags: false)
    }
}
