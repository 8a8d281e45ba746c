import AVTCore
import AVTJSON
import AVTOutput
import Foundation

/// Posts batches to New Relic: gzip JSON, `Api-Key`; 2xx delivered; 413 bisected; 429 (with
/// Retry-After), 5xx and connection errors retried; other 4xx dead-lettered.
package final class NewRelicDelivery: @unchecked Sendable {
    package enum Kind: String, Sendable {
        case events = "newrelic-events"
        case metrics = "newrelic-metrics"
    }

    package let destination: NewRelicDestination
    let policy: DeliveryPolicy
    /// Shared by this destination's batches (see `DeliveryOutage`).
    let outage = DeliveryOutage()
    let ledger: DeliveryLedger
    /// Uncompressed bytes per request, under the APIs' 1 MB limit.
    static let maximumPayload = 900_000

    package init(destination: NewRelicDestination, policy: DeliveryPolicy, ledger: DeliveryLedger) {
        self.destination = destination
        self.policy = policy
        self.ledger = ledger
    }

    package func deliver(_ objects: [String], kind: Kind) {
        var batch: [String] = []
        var size = 2
        for object in objects {
            if !batch.isEmpty, batch.count >= policy.batchLines || size + object.utf8.count + 1 > Self.maximumPayload {
                send(batch[...], kind: kind)
                batch.removeAll(keepingCapacity: true)
                size = 2
            }
            batch.append(object)
            size += object.utf8.count + 1
        }
        send(batch[...], kind: kind)
    }

    private func send(_ objects: ArraySlice<String>, kind: Kind) {
        guard !objects.isEmpty else { return }
        let json = "[" + objects.joined(separator: ",") + "]"
        let payload = kind == .events ? json : "[{\"metrics\":" + json + "}]"
        guard let body = Gzip.compress(Array(payload.utf8)) else {
            ledger.deadLetter(Array(objects), to: destination.description, format: kind.rawValue, reason: "gzip failed")
            return
        }
        let url = kind == .events ? destination.eventsURL : destination.metricsURL
        let headers = ["Api-Key": destination.key, "Content-Type": "application/json", "Content-Encoding": "gzip"]
        let gaveUp = policy.retrying(outage: outage, sleep: DeliveryPolicy.sleep(milliseconds:)) {
            () -> (reason: String, retryAfter: String?)? in
            let result = HTTPClient.post(url, body: Data(body), headers: headers, timeout: policy.timeout)
            switch HTTPBatchDecision.decide(result, records: objects.count) {
            case .delivered:
                ledger.countDelivered(objects.count, to: destination.description)
            case .split:
                let middle = objects.startIndex + objects.count / 2
                send(objects[objects.startIndex..<middle], kind: kind)
                send(objects[middle..<objects.endIndex], kind: kind)
            case .retry(let reason, let retryAfter):
                return (reason, retryAfter)
            case .rejected(let reason):
                ledger.deadLetter(Array(objects), to: destination.description, format: kind.rawValue, reason: reason)
            }
            return nil
        }
        if let gaveUp {
            ledger.deadLetter(Array(objects), to: destination.description, format: kind.rawValue, reason: gaveUp)
        }
    }
}
