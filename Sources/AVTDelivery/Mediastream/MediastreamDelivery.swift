import AVTCore
import AVTOutput
import Foundation

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
        let gaveUp = policy.retrying(sleep: DeliveryPolicy.sleep(milliseconds:)) {
            () -> (reason: String, retryAfter: String?, answered: Bool)? in
            let result = HTTPClient.post(destination.url, body: body, headers: headers, timeout: policy.timeout)
            switch HTTPBatchDecision.decide(result, records: objects.count) {
            case .delivered:
                ledger.countDelivered(objects.count, to: destination.description)
            case .split:
                let middle = objects.startIndex + objects.count / 2
                send(objects[objects.startIndex..<middle])
                send(objects[middle..<objects.endIndex])
            case .retry(let reason, let retryAfter):
                return (reason, retryAfter, HTTPBatchDecision.answered(result))
            case .rejected(let reason):
                ledger.deadLetter(Array(objects), to: destination.description, format: Self.format, reason: reason)
            }
            return nil
        }
        if let gaveUp {
            ledger.deadLetter(Array(objects), to: destination.description, format: Self.format, reason: gaveUp)
        }
    }
}
