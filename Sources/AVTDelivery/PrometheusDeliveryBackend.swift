import AVTCore
import AVTOutput
import AVTReplay

/// A backend that sends a replay's Prometheus samples by remote write in batches as they come
/// (`BatchSender`): the samples `--format openmetrics` prints, without its metadata. They go as
/// numbers with their series' numbers; each series' labels are read and encoded once, when it
/// first appears, into the table each batch carries.
package final class PrometheusDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: PrometheusDelivery
    private var writer: PrometheusSampleWriter
    private let filter: RecordFilter
    private let sender: BatchSender<RemoteWriteBatch>
    /// The writer's series so far, as remote write sends them.
    private var series = RemoteWriteSeriesTable()

    package init(delivery: PrometheusDelivery, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.writer = PrometheusSampleWriter(records: records, describes: false)
        self.filter = filter
        let encoder = RemoteWriteEncoder.Box()
        self.sender = BatchSender(label: "avtreplay.prometheus-sender", batchLines: delivery.policy.batchLines) {
            [delivery, encoder] in delivery.deliver($0, encoder: &encoder.encoder)
        }
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        writer.add(event, to: &sender.pending.samples)
        shipIfFull()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        writer.add(metric, to: &sender.pending.samples)
        shipIfFull()
    }

    package func endOfService() {
        writer.finish(to: &sender.pending.samples)
        ship()
        sender.finish()
    }

    private func shipIfFull() {
        if sender.pending.count >= delivery.policy.batchLines { ship() }
    }

    /// Ships the pending samples with the series they use.
    private func ship() {
        guard sender.pending.count > 0 else { return }
        if series.count < writer.series.count {
            while series.count < writer.series.count { series.add(text: writer.series[series.count]) }
            series.rank()
        }
        sender.pending.series = series
        sender.ship()
    }
}

extension PrometheusDeliveryBackend: AgeFlushing {
    /// Samples of the current millisecond wait in the writer until it is over.
    package func flushPending() { ship() }
}
