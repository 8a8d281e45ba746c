import AVTCore

/// OpenAVT's MetricalcCore plus the pre-call window metrics: for each `NetStatsWindow` event of a
/// netstats tracker, the gauges VideoBandwidth and AudioBandwidth (bps, integer) and
/// VideoPacketLoss and AudioPacketLoss (ratio 0…1, double; none when the loss is unknown), after
/// MetricalcCore's own metrics for the event.
///
/// Why a metricalc and not the tracker: in OpenAVT a tracker never hands anything to the backend.
/// It emits events; the hub accepts them; the metricalc derives metrics from accepted events, and
/// the instrument delivers those metrics before the event. Keeping to that chain, the tracker
/// puts each window's numbers on an event, and this subclass reads them back. So the metrics obey
/// `metrics: false` / `--no-metrics` like every other metric, carry the event's timestamp, and
/// reach every backend and output format unchanged — and MetricalcCore stays exactly upstream's.
/// Only events from a `NetStatsTracker` count: a scripted custom action of the same name from
/// another tracker is left alone.
package final class NetStatsMetricalc: MetricalcCore {
    package override func processMetric(_ event: Event, tracker: Tracker) -> [Metric] {
        var metrics = super.processMetric(event, tracker: tracker)
        guard event.action == NetStatsTracker.windowAction, tracker is NetStatsTracker else { return metrics }
        let t = event.timestamp
        let pairs: [(name: String, attribute: Attribute)] = [
            ("VideoBandwidth", NetStatsTracker.videoBandwidth), ("VideoPacketLoss", NetStatsTracker.videoPacketLoss),
            ("AudioBandwidth", NetStatsTracker.audioBandwidth), ("AudioPacketLoss", NetStatsTracker.audioPacketLoss),
        ]
        for (name, attribute) in pairs {
            switch event[attribute] {
            case .int(let v): metrics.append(Metric(name: name, kind: .gauge, value: .int(v), timestamp: t))
            case .double(let v): metrics.append(Metric(name: name, kind: .gauge, value: .double(v), timestamp: t))
            default: break
            }
        }
        return metrics
    }
}
