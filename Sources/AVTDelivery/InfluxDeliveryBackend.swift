import AVTCore
import AVTJSON
import AVTOutput
import AVTTimeline
import Foundation

/// A backend that sends a replay's records to InfluxDB in batches as they come (`BatchSender`).
package final class InfluxDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: InfluxDelivery
    private var writer: InfluxLineWriter
    private let filter: RecordFilter
    private var buffer = JSONBuffer(capacity: 4096)
    private let sender: BatchSender<[String]>

    package init(
        delivery: InfluxDelivery, encoder: InfluxLineEncoder, records: RecordEncoder,
        filter: RecordFilter = RecordFilter()
    ) {
        self.delivery = delivery
        self.writer = InfluxLineWriter(encoder: encoder, records: records)
        self.filter = filter
        self.sender = BatchSender(label: "avtreplay.influx-sender", batchLines: delivery.policy.batchLines) {
            [delivery] in delivery.deliver($0)
        }
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        writer.write(event, into: &buffer)
        take()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        writer.write(metric, into: &buffer)
        take()
    }

    /// Sends what is pending and waits until every batch is settled (delivered or dead-lettered).
    package func endOfService() {
        sender.finish()
        delivery.countOverwritten(writer.compatOverwritten)
    }

    /// Hands the pending batch to the sender.
    func ship() { sender.ship() }

    private func take() {
        sender.pending.append(String(decoding: buffer.bytes.dropLast(), as: UTF8.self))
        buffer.removeAll()
        sender.shipIfFull()
    }
}
