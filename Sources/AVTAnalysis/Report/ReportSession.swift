import AVTJSON
import AVTKPI
import AVTOutput

/// Everything the report shows about one session: its records, one lane per tracker, the KPIs
/// and state histories (the same code as `avtreplay kpi`, from which every drawn span comes)
/// and, when someone supplies it, a startup waterfall.
package struct ReportSession: Sendable {
    package let name: String
    package let startEpochMilliseconds: Int?
    /// Every record in delivery order; events and metrics.
    package let records: [OutputRecord]
    /// Tracker names in order of first appearance; events without a tracker get `(no tracker)`.
    package let lanes: [String]
    /// The lane of each record (nil for metrics, which belong to no tracker).
    package let laneOfRecord: [Int?]
    /// The time axis runs from 0 to this: the end of the recording (its last step, where the
    /// states still open end) or the last record's t, whichever is later; at least 1 ms.
    package let end: Int
    package let kpis: SessionKPIs
    /// Requests before the player was likely to keep up (AVMetrics), drawn as a waterfall above
    /// the timeline when not empty: from `SessionRecords`, or set by a caller.
    package var startupWaterfall: [WaterfallRequest]

    package static let noTrackerLane = "(no tracker)"

    package init(_ input: SessionRecords) {
        name = input.name
        startEpochMilliseconds = input.startEpochMilliseconds
        startupWaterfall = input.startupWaterfall
        records = input.records
        var lanes: [String] = []
        var laneIndex: [String: Int] = [:]
        var laneOfRecord: [Int?] = []
        laneOfRecord.reserveCapacity(records.count)
        var end = 1
        for record in records {
            end = max(end, record.t ?? 0)
            guard record.type == "event" else {
                laneOfRecord.append(nil)
                continue
            }
            let laneName = record.tracker ?? Self.noTrackerLane
            let lane: Int
            if let known = laneIndex[laneName] {
                lane = known
            } else {
                lane = lanes.count
                laneIndex[laneName] = lane
                lanes.append(laneName)
            }
            laneOfRecord.append(lane)
        }
        self.lanes = lanes
        self.laneOfRecord = laneOfRecord
        let kpis = input.kpis ?? SessionKPIs.fromRecords(input.name, records, keepSpans: true)
        // A log whose last lines leave a rebuffer open ends after its last event: the axis shows
        // the rebuffer to the end, as the KPIs count it.
        self.end = max(end, kpis.end)
        self.kpis = kpis
    }

    package var eventCount: Int { laneOfRecord.lazy.filter { $0 != nil }.count }
}
