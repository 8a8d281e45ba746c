import AVTCore
import AVTJSON
import AVTOutput
import AVTTimeline
import Foundation

/// A backend that sends a replay's records to InfluxDB in batches as they come. One batch is
/// posted (compressed, sent, answered, retried) on a sender thread while the replay fills the
/// next; when the next is full before the first is settled, the replay waits. So at most two
/// batches are in memory however slow the server is, and a fast server costs the replay little.
package final class InfluxDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: InfluxDelivery
    private var writer: InfluxLineWriter
    private let filter: RecordFilter
    private var pending: [String] = []
    private var buffer = JSONBuffer(capacity: 4096)
    private let sender = DispatchQueue(label: "avtreplay.influx-sender")
    private let inFlight = DispatchSemaphore(value: 1)

    package init(
        delivery: InfluxDelivery, encoder: InfluxLineEncoder, records: RecordEncoder,
        filter: RecordFilter = RecordFilter()
    ) {
        self.delivery = delivery
        self.writer = InfluxLineWriter(encoder: encoder, records: records)
        self.filter = filter
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
        ship()
        sender.sync {}
        delivery.countOverwritten(writer.compatOverwritten)
    }

    /// Hands the pending batch to the sender (waiting while the previous one is in flight).
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

    private func take() {
        pending.append(String(decoding: buffer.bytes.dropLast(), as: UTF8.self))
        buffer.removeAll()
        if pending.count >= delivery.policy.batchLines { ship() }
    }
}
