import AVTCore
import AVTOutput
import AVTReplay

/// A backend that sends a replay's Prometheus samples by remote write in batches as they come
/// (`BatchSender`): the lines `--format openmetrics` prints, without its metadata.
package final class PrometheusDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: PrometheusDelivery
    private var writer: PrometheusSampleWriter
    private let filter: RecordFilter
    private let sender: BatchSender

    package init(delivery: PrometheusDelivery, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.writer = PrometheusSampleWriter(records: records, describes: false)
        self.filter = filter
        self.sender = BatchSender(label: "avtreplay.prometheus-sender", batchLines: delivery.policy.batchLines) {
            [delivery] in delivery.deliver($0)
        }
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        writer.add(event, to: &sender.pending)
        sender.shipIfFull()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        writer.add(metric, to: &sender.pending)
        sender.shipIfFull()
    }

    package func endOfService() {
        writer.finish(to: &sender.pending)
        sender.finish()
    }
}

extension PrometheusDeliveryBackend: AgeFlushing {
    /// Samples of the current millisecond wait in the writer until it is over.
    package func flushPending() { sender.ship() }
}
