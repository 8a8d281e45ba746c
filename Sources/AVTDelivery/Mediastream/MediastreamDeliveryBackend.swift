import AVTCore
import AVTOutput
import Foundation

/// `--to mediastream+http(s)://…`: translates the replay and posts the events in batches.
package final class MediastreamDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: MediastreamDelivery
    private let translator: MediastreamTranslator
    private weak var clock: VirtualClock?
    private var pending: [String] = []

    package init(delivery: MediastreamDelivery, options: MediastreamOptions) {
        self.delivery = delivery
        self.translator = MediastreamTranslator(options: options)
    }

    package func instrumentReady(_ instrument: Instrument) {
        clock = instrument.clock
        translator.start(instrumentId: instrument.instrumentId)
    }

    package func sendEvent(_ event: Event) { add(translator.consume(event)) }

    package func sendMetric(_ metric: Metric) {}

    package func endOfService() {
        add(translator.finish(at: clock?.now ?? 0))
        flush()
    }

    private func add(_ events: [MediastreamEvent]) {
        pending.append(contentsOf: events.map(\.json))
        if pending.count >= delivery.policy.batchLines { flush() }
    }

    private func flush() {
        delivery.deliver(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
