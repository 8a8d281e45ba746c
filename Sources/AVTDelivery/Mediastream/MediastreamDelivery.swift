import AVTCore
import AVTOutput
import Foundation

/// `mediastream+http://HOST[:PORT]/PATH` or `mediastream+https://…`: a collector endpoint that
/// takes Mediastream events as a JSON array per POST.
package struct MediastreamDestination: Sendable, CustomStringConvertible {
    package let description: String
    let url: URL

    package init(_ text: String) throws(OutputError) {
        func bad(_ why: String) -> OutputError { OutputError(path: text, message: why) }
        guard let parsed = URLComponents(string: text), let scheme = parsed.scheme,
            scheme == "mediastream+http" || scheme == "mediastream+https"
        else { throw bad("expected mediastream+http://HOST/PATH or mediastream+https://HOST/PATH") }
        guard let host = parsed.host, !host.isEmpty else { throw bad("missing host") }
        var target = parsed
        target.scheme = scheme == "mediastream+https" ? "https" : "http"
        guard let url = target.url else { throw bad("not a valid address") }
        self.description = text
        self.url = url
    }
}

/// Posts Mediastream events in batches: `[event, …]` as `application/json`, uncompressed (a
/// collector's support for gzip is not documented). 2xx delivered; 413 bisected; 408, 429 (with
/// Retry-After), 5xx and connection errors retried with backoff; other 4xx dead-lettered.
package final class MediastreamDelivery: @unchecked Sendable {
    /// The dead-letter `format` of these lines, which `avtreplay send` reads back.
    package static let format = "mediastream"
    /// Bytes per request.
    static let maximumPayload = 1_000_000

    package let destination: MediastreamDestination
    let policy: DeliveryPolicy
    let ledger: DeliveryLedger

    package init(destination: MediastreamDestination, policy: DeliveryPolicy, ledger: DeliveryLedger) {
        self.destination = destination
        self.policy = policy
        self.ledger = ledger
    }

    /// Delivers JSON objects (one Mediastream event each) in batches of `policy.batchLines`.
    package func deliver(_ objects: [String]) {
        var batch: [String] = []
        var size = 2
        for object in objects {
            if !batch.isEmpty, batch.count >= policy.batchLines || size + object.utf8.count + 1 > Self.maximumPayload {
                send(batch[...])
                batch.removeAll(keepingCapacity: true)
                size = 2
            }
            batch.append(object)
            size += object.utf8.count + 1
        }
        send(batch[...])
    }

    private func send(_ objects: ArraySlice<String>) {
        guard !objects.isEmpty else { return }
        let body = Data(("[" + objects.joined(separator: ",") + "]").utf8)
        let headers = ["Content-Type": "application/json"]
        let gaveUp = policy.retrying(sleep: { Thread.sleep(forTimeInterval: Double($0) / 1000) }) { () -> (reason: String, retryAfter: String?)? in
            let result = HTTPClient.post(destination.url, body: body, headers: headers, timeout: policy.timeout)
            switch HTTPBatchDecision.decide(result, records: objects.count) {
            case .delivered:
                ledger.countDelivered(objects.count, to: destination.description)
            case .split:
                let middle = objects.startIndex + objects.count / 2
                send(objects[objects.startIndex..<middle])
                send(objects[middle..<objects.endIndex])
            case .retry(let reason, let retryAfter):
                return (reason, retryAfter)
            case .rejected(let reason):
                ledger.deadLetter(Array(objects), to: destination.description, format: Self.format, reason: reason)
            }
            return nil
        }
        if let gaveUp { ledger.deadLetter(Array(objects), to: destination.description, format: Self.format, reason: gaveUp) }
    }
}

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
