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
    /// Both APIs answer 202 and then drop a timestamp older than 48 h or more than 24 h ahead
    /// (the Metric API's limits page; the Event API's `timestamp` description).
    package let windowFilter: DeliveryWindowFilter

    package init(destination: NewRelicDestination, policy: DeliveryPolicy, ledger: DeliveryLedger) {
        self.destination = destination
        self.policy = policy
        self.ledger = ledger
        self.windowFilter = DeliveryWindowFilter(
            window: DeliveryWindow(
                past: 48 * 3_600_000, ahead: 24 * 3_600_000, keeper: "New Relic",
                fix: "replay with --end-time now"),
            destination: destination.description, ledger: ledger)
    }

    /// An object's `timestamp` (epoch ms). Our objects write it before any attribute, and a key
    /// or string cannot contain `"timestamp":` unescaped before it, so the first one is the record's.
    static func time(ofObject object: String) -> Int? {
        let key = Array("\"timestamp\":".utf8)
        let bytes = Array(object.utf8)
        guard bytes.count > key.count,
            let start = (0...(bytes.count - key.count)).first(where: { bytes[$0..<($0 + key.count)].elementsEqual(key) }
            )
        else { return nil }
        var end = start + key.count
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        return Int(String(decoding: bytes[(start + key.count)..<end], as: UTF8.self))
    }

    package func deliver(_ objects: [String], kind: Kind) {
        let objects = windowFilter.admit(objects, format: kind.rawValue, time: Self.time(ofObject:))
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
            () -> (reason: String, retryAfter: String?, answered: Bool)? in
            let result = HTTPClient.post(url, body: Data(body), headers: headers, timeout: policy.timeout)
            switch HTTPBatchDecision.decide(result, records: objects.count) {
            case .delivered:
                ledger.countDelivered(objects.count, to: destination.description)
            case .split:
                let middle = objects.startIndex + objects.count / 2
                send(objects[objects.startIndex..<middle], kind: kind)
                send(objects[middle..<objects.endIndex], kind: kind)
            case .retry(let reason, let retryAfter):
                return (reason, retryAfter, HTTPBatchDecision.answered(result))
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
