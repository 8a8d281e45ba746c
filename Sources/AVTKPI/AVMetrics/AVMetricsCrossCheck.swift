import AVTTrackers

/// Our KPIs side by side with what Apple's playback summary says, each compared with a stated
/// tolerance: counts must be equal, times within 100 ms. A row whose either side is unknown is
/// shown but not judged.
package struct AVMetricsCrossCheck: Sendable, Equatable {
    package struct Row: Sendable, Equatable {
        /// The summary property, e.g. `stallCount`.
        package var name: String
        /// What we compare it with, e.g. `rebufferCount` (our KPI) or `stall events`.
        package var ours: String
        /// The summary's value in OpenAVT units (times in ms).
        package var summaryValue: Int?
        package var ourValue: Int?
        package var tolerance: Int
        /// nil when either side is unknown.
        package var agrees: Bool? {
            guard let summaryValue, let ourValue else { return nil }
            return abs(summaryValue - ourValue) <= tolerance
        }
    }

    package static let timeTolerance = 100

    package let rows: [Row]

    /// Whether any judged row disagrees.
    package var hasDisagreement: Bool { rows.contains { $0.agrees == false } }

    /// - Parameter totals: the session's KPI totals (`SessionKPIs.totals`).
    package init(log: AVMetricsSessionLog, totals: [KPI]) {
        let kpi = Dictionary(totals.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        func int(_ name: String) -> Int? {
            if case .int(let v)? = kpi[name] { return v }
            return nil
        }
        let summary = log.summary
        let startup = summary?.timeSpentInInitialStartup.flatMap(AVMetricsValue.milliseconds(fromSeconds:))
        let switches = int("qualityUpCount").flatMap { up in int("qualityDownCount").map { up + $0 } }
        rows = [
            Row(
                name: "stallCount", ours: "rebufferCount", summaryValue: summary?.stallCount,
                ourValue: int("rebufferCount"), tolerance: 0),
            Row(
                name: "stallCount", ours: "stall events", summaryValue: summary?.stallCount, ourValue: log.stallEvents,
                tolerance: 0),
            Row(
                name: "variantSwitchCount", ours: "qualityUpCount + qualityDownCount",
                summaryValue: summary?.variantSwitchCount,
                ourValue: switches, tolerance: 0),
            Row(
                name: "variantSwitchCount", ours: "successful switch events", summaryValue: summary?.variantSwitchCount,
                ourValue: log.variantSwitches.filter(\.didSucceed).count, tolerance: 0),
            Row(
                name: "timeSpentInInitialStartup", ours: "startupTime", summaryValue: startup,
                ourValue: int("startupTime"),
                tolerance: Self.timeTolerance),
            Row(
                name: "timeSpentInInitialStartup", ours: "initial likely-to-keep-up timeTaken", summaryValue: startup,
                ourValue: log.initialLikelyToKeepUp?.timeTaken, tolerance: Self.timeTolerance),
            Row(
                name: "recoverableErrorCount", ours: "recovered error events",
                summaryValue: summary?.recoverableErrorCount,
                ourValue: log.recoveredErrors, tolerance: 0),
            Row(
                name: "mediaResourceRequestCount", ours: "distinct request events",
                summaryValue: summary?.mediaResourceRequestCount,
                ourValue: log.requests.count, tolerance: 0),
        ]
    }
}
