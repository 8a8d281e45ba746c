import AVTCore

/// A backend that forwards to one set once the replayer exists (the KPI backend needs the
/// replayer to hook its trackers, and the replayer needs its backend first).
final class DeferredBackend: Backend {
    var target: Backend?

    func instrumentReady(_ instrument: Instrument) { target?.instrumentReady(instrument) }
    func sendEvent(_ event: Event) { target?.sendEvent(event) }
    func sendMetric(_ metric: Metric) {}
    func endOfService() { target?.endOfService() }
}
