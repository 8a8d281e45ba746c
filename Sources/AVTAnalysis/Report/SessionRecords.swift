import AVTFormats
import AVTJSON
import AVTKPI
import AVTOutput
import AVTTimeline
import AVTTrackers

/// The delivered records of one session, as a report reads them: from a replay of a timeline or
/// from a recorded event log (the record format of `avtreplay run`).
package struct SessionRecords: Sendable {
    /// The input path, or the `session` field of a multi-session log.
    package var name: String
    /// Wall-clock time of t=0 in epoch ms (`time − t` of the session's first record); nil when
    /// the records carry no `time`.
    package var startEpochMilliseconds: Int?
    package var records: [OutputRecord]
    /// The AVMetrics startup requests, for a timeline with an `avmetrics` tracker or an AVMetrics
    /// log; empty otherwise (event logs carry no requests).
    package var startupWaterfall: [WaterfallRequest]
    /// For a timeline, its KPIs and state histories as `kpi` computes them (from every tracker
    /// action before the hub and the players' observations); nil for an event log, whose KPIs
    /// come from its records.
    package var kpis: SessionKPIs?

    package init(
        name: String, startEpochMilliseconds: Int?, records: [OutputRecord], startupWaterfall: [WaterfallRequest] = []
    ) {
        self.name = name
        self.startEpochMilliseconds = startEpochMilliseconds
        self.records = records
        self.startupWaterfall = startupWaterfall
    }
}
