import AVTCore
import AVTOutput
import AVTReplay
import Foundation

/// A backend that sends a replay's Prometheus samples by remote write in batches as they come:
/// the lines `--format openmetrics` prints (without its metadata), one batch in flight on a
/// sender thread while the replay fills the next, as for InfluxDB.
package final class PrometheusDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: PrometheusDelivery
    private var writer: PrometheusSampleWriter
    private let filter: RecordFilter
    private var pending: [String] = []
    private let sender = DispatchQueue(label: "avtreplay.prometheus-sender")
    private let inFlight = DispatchSemaphore(value: 1)

    package init(delivery: PrometheusDelivery, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.writer = PrometheusSampleWriter(records: records, describes: false)
        self.filter = filter
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        writer.add(event, to: &pending)
        if pending.count >= delivery.policy.batchLines { ship() }
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        writer.add(metric, to: &pending)
        if pending.count >= delivery.policy.batchLines { ship() }
    }

    /// Sends what is pending and waits until every batch is settled (delivered or dead-lettered).
    package func endOfService() {
        writer.finish(to: &pending)
        ship()
        sender.sync {}
    }

    /// Hands the pending samples to the sender (waiting while the previous batch is in flight).
    /// Samples of the current millisecond wait in the writer until it is over.
    func ship() {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pending.reserveCapacity(batch.count)
        inFlight.wait()
        sender.async { [delivery, inFlight] in
            delivery.deliver(batch)
            inFlight.signal()
        }
    }
}

extension PrometheusDeliveryBackend: AgeFlushing {
    package func flushPending() { ship() }
}
