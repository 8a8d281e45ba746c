import AVTJSON
import AVTTimeline
import AVTTrackers

/// Passes a timeline through unchanged and keeps, on the way, the events of its first
/// `avmetrics` tracker: `kpi` replays and reads the AVMetrics data in one streamed pass.
package struct AVMetricsRecordingSource: TimelineSource {
    private var base: any TimelineSource
    /// nil when the timeline has no avmetrics tracker.
    package private(set) var log: AVMetricsSessionLog?
    private let tracker: Int?

    package init(_ base: any TimelineSource) {
        self.base = base
        tracker = base.settings.trackers.firstIndex { $0.kind == .avmetrics }
        log = tracker.map { _ in AVMetricsSessionLog(startTime: base.settings.startTime) }
    }

    package var name: String { base.name }
    package var settings: TimelineSettings { base.settings }

    package mutating func nextStep() throws(TimelineError) -> Step? {
        guard let step = try base.nextStep() else { return nil }
        if step.tracker == tracker, let record = AVMetricsRecord(step.observe) { log?.add(record, t: step.t) }
        return step
    }
}
