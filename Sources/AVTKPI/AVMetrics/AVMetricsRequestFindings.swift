import AVTTrackers

/// Requests worth a look: the slowest, and the failed ones with the variant switches they caused.
package enum AVMetricsRequestFindings {
    /// How long after a failed request a variant switch still counts as caused by it.
    package static let switchWindow = 10_000

    /// The `limit` longest requests (ties: earlier start, then URL).
    package static func slowest(_ requests: [AVMetricsRequest], limit: Int = 5) -> [AVMetricsRequest] {
        let timed = requests.filter { $0.duration != nil }
        return Array(
            timed.sorted { a, b in
                (-(a.duration ?? 0), a.start ?? 0, a.url ?? "") < (-(b.duration ?? 0), b.start ?? 0, b.url ?? "")
            }.prefix(limit))
    }

    /// Each failed request with the variant switches that started within `switchWindow` ms after
    /// it ended (at its start if it has no end) and before the next failed request ended.
    package static func failed(_ log: AVMetricsSessionLog) -> [(
        request: AVMetricsRequest, switches: [AVMetricsSessionLog.VariantSwitch]
    )] {
        let failures = log.requests.filter(\.failed).sorted { ($0.end ?? $0.start ?? 0) < ($1.end ?? $1.start ?? 0) }
        return failures.enumerated().map { n, request in
            let from = request.end ?? request.start ?? 0
            let next = n + 1 < failures.count ? (failures[n + 1].end ?? failures[n + 1].start ?? Int.max) : Int.max
            let until = min(from + switchWindow, next)
            return (request, log.variantSwitches.filter { $0.start >= from && $0.start <= until })
        }
    }
}
