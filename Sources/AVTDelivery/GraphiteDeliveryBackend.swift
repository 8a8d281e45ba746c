import AVTCore
import AVTJSON
import AVTOutput
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A backend that aggregates a replay's metrics per step and sends them to carbon.
package final class GraphiteDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: GraphiteDelivery
    private var aggregator: GraphiteAggregator
    private let filter: RecordFilter
    private var buffer = JSONBuffer(capacity: 1 << 14)

    package init(
        delivery: GraphiteDelivery, encoder: GraphiteEncoder, startTime: Int, scope: [String] = [],
        filter: RecordFilter = RecordFilter()
    ) {
        self.delivery = delivery
        self.aggregator = GraphiteAggregator(encoder: encoder, startTime: startTime, scope: scope)
        self.filter = filter
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        aggregator.add(event, into: &buffer)
        sendIfFull()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        aggregator.add(metric, into: &buffer)
        sendIfFull()
    }

    package func endOfService() {
        aggregator.flush(into: &buffer)
        flushPending()
    }

    /// Sends the lines of the steps already closed (the open step keeps aggregating).
    package func flushPending() {
        guard !buffer.isEmpty else { return }
        let text = String(decoding: buffer.bytes, as: UTF8.self)
        buffer.removeAll()
        delivery.deliver(text.split(separator: "\n").map(String.init))
    }

    /// Closed steps go out once about a batch of lines (~40 bytes each) has gathered, so memory
    /// stays bounded on long replays.
    private func sendIfFull() {
        if buffer.count >= delivery.policy.batchLines * 40 { flushPending() }
    }
}
