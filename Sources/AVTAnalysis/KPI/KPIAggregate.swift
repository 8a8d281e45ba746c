import AVTCore

/// Count, mean, min, percentiles (nearest rank) and max of each KPI across playbacks.
package enum KPIAggregate {
    package static let statistics = ["count", "mean", "min", "p50", "p90", "p95", "p99", "max"]

    package static func compute(_ playbacks: [[KPI]]) -> [(String, [(String, Double)])] {
        var samples: [String: [Double]] = [:]
        for playback in playbacks {
            for kpi in playback { samples[kpi.name, default: []].append(kpi.value.number) }
        }
        return KPIName.all.compactMap { name in
            guard let values = samples[name]?.sorted(), !values.isEmpty else { return nil }
            func percentile(_ p: Double) -> Double {
                values[max(0, min(values.count - 1, Int((p * Double(values.count)).rounded(.up)) - 1))]
            }
            let mean = values.reduce(0, +) / Double(values.count)
            return (
                name,
                [
                    ("count", Double(values.count)), ("mean", mean), ("min", values[0]), ("p50", percentile(0.5)),
                    ("p90", percentile(0.9)), ("p95", percentile(0.95)), ("p99", percentile(0.99)),
                    ("max", values[values.count - 1]),
                ]
            )
        }
    }
}
