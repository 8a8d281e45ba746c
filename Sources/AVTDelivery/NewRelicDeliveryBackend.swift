import AVTCore
import AVTJSON
import AVTOutput
import Foundation

/// A backend that sends a replay's events and metrics to New Relic in batches.
package final class NewRelicDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: NewRelicDelivery
    private let records: RecordEncoder
    private let filter: RecordFilter
    private var events: [String] = []
    private var metrics: [String] = []

    package init(delivery: NewRelicDelivery, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.records = records
        self.filter = filter
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        events.append(NewRelicEncoding.event(event, records: records))
        if events.count >= delivery.policy.batchLines { flushEvents() }
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, let object = NewRelicEncoding.metric(metric, records: records) else { return }
        metrics.append(object)
        if metrics.count >= delivery.policy.batchLines { flushMetrics() }
    }

    package func endOfService() {
        flushEvents()
        flushMetrics()
    }

    private func flushEvents() {
        delivery.deliver(events, kind: .events)
        events.removeAll(keepingCapacity: true)
    }

    private func flushMetrics() {
        delivery.deliver(metrics, kind: .metrics)
        metrics.removeAll(keepingCapacity: true)
    }
}
