import AVTCore
import AVTTimeline

/// Counts the records a replay hands its backend and says when they pass `--max-records`. A
/// few bytes of timeline can ask for a year of pings; the count stops the replay (through the
/// instrument's stop check, between timers) long before a CI runner's disk or hours are gone.
final class RecordLimit: Backend {
    private let inner: Backend
    let limit: Int
    private(set) var count = 0

    init(_ inner: Backend, limit: Int) {
        self.inner = inner
        self.limit = limit
    }

    /// Whether more records than the limit were asked for (the one past it is not passed on).
    var isExceeded: Bool { count > limit }

    func instrumentReady(_ instrument: Instrument) { inner.instrumentReady(instrument) }

    func sendEvent(_ event: Event) {
        count += 1
        if count <= limit { inner.sendEvent(event) }
    }

    func sendMetric(_ metric: Metric) {
        count += 1
        if count <= limit { inner.sendMetric(metric) }
    }

    func endOfService() { inner.endOfService() }

    /// The error once exceeded: where the replay was, the limit and its flag.
    func error(_ file: String, at origin: StepOrigin?) -> TimelineError {
        TimelineError(
            file: file, location: origin?.location, path: origin.map { "steps[\($0.index)]" },
            message:
                "more than \(limit) records (--max-records; default \(RunOptions.defaultMaxRecords)); "
                + "raise it with --max-records <n>")
    }
}
