import AVTCore
import AVTJSON
import AVTOutput
import Foundation

/// `newrelic://[ACCOUNT_ID][?region=eu]`: the Event API (events as custom events of type `OAVT`
/// with an `actionName`, as upstream) and the Metric API (metrics as gauges and counts with
/// their timestamps). The license key comes from `NEW_RELIC_LICENSE_KEY`, the account from the
/// address or `NEW_RELIC_ACCOUNT_ID`; `endpoint` replaces both APIs' host (tests, proxies).
package struct NewRelicDestination: Sendable, CustomStringConvertible {
    package let description: String
    let eventsURL: URL
    let metricsURL: URL
    let key: String

    package init(_ text: String, endpoint: String?, environment: [String: String]) throws(OutputError) {
        func bad(_ why: String) -> OutputError { OutputError(path: text, message: why) }
        guard let url = URLComponents(string: text), url.scheme == "newrelic" else { throw bad("expected newrelic://ACCOUNT_ID[?region=eu]") }
        let account = (url.host.flatMap { $0.isEmpty ? nil : $0 }) ?? environment["NEW_RELIC_ACCOUNT_ID"]
        guard let account, !account.isEmpty, account.allSatisfy(\.isNumber) else {
            throw bad("missing account id: newrelic://ACCOUNT_ID or NEW_RELIC_ACCOUNT_ID")
        }
        guard let key = environment["NEW_RELIC_LICENSE_KEY"], !key.isEmpty else { throw bad("NEW_RELIC_LICENSE_KEY is not set") }
        let eu = url.queryItems?.first { $0.name == "region" }?.value?.lowercased() == "eu"
        let eventsBase = endpoint ?? (eu ? "https://insights-collector.eu01.nr-data.net" : "https://insights-collector.newrelic.com")
        let metricsBase = endpoint ?? (eu ? "https://metric-api.eu.newrelic.com" : "https://metric-api.newrelic.com")
        guard let events = URL(string: eventsBase + "/v1/accounts/\(account)/events"), let metrics = URL(string: metricsBase + "/metric/v1")
        else { throw bad("not a valid endpoint") }
        self.description = text
        self.eventsURL = events
        self.metricsURL = metrics
        self.key = key
    }
}

/// JSON objects of the two APIs, one per record.
package enum NewRelicEncoding {
    /// The Event API takes flat objects of strings and numbers; booleans become strings and
    /// values are cut at 4,096 characters (its limits).
    static func event(_ event: Event, records: RecordEncoder) -> String {
        var w = JSONWriter(capacity: 1024)
        w.raw("{\"eventType\":\"OAVT\",\"actionName\":")
        w.string(event.action.name)
        w.raw(",\"timestamp\":")
        w.int(records.startTime + event.timestamp)
        if let id = event.trackerId, records.trackerNames.indices.contains(id) {
            w.raw(",\"tracker\":")
            w.string(records.trackerNames[id])
        }
        if let session = records.session {
            w.raw(",\"session\":")
            w.string(session)
        }
        for (key, value) in event.attributes.sorted(by: { $0.key.name < $1.key.name })
        where !["eventType", "actionName", "timestamp", "tracker", "session", "accountId", "appId"].contains(key.name) {
            w.raw(",")
            w.string(String(key.name.prefix(255)))
            w.raw(":")
            switch value {
            case .int(let v): w.int(v)
            case .double(let v): w.double(v)
            case .bool(let v): w.string(v ? "true" : "false")
            case .string(let v): w.string(String(v.prefix(4096)))
            }
        }
        w.raw("}")
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Counters are `count` metrics over 1 ms (the API requires an interval); gauges `gauge`.
    static func metric(_ metric: Metric, records: RecordEncoder) -> String? {
        var w = JSONWriter(capacity: 160)
        w.raw("{\"name\":")
        w.string("OAVT." + metric.name)
        w.raw(",\"type\":")
        w.string(metric.kind == .counter ? "count" : "gauge")
        w.raw(",\"value\":")
        switch metric.value {
        case .int(let v): w.int(v)
        case .double(let v):
            // The API drops NaN and infinities; they cannot come from a replay anyway.
            guard v.isFinite else { return nil }
            w.double(v)
        }
        w.raw(",\"timestamp\":")
        w.int(records.startTime + metric.timestamp)
        if metric.kind == .counter { w.raw(",\"interval.ms\":1") }
        if let session = records.session {
            w.raw(",\"attributes\":{\"session\":")
            w.string(session)
            w.raw("}")
        }
        w.raw("}")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

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
        let gaveUp = policy.retrying(outage: outage, sleep: { Thread.sleep(forTimeInterval: Double($0) / 1000) }) { () -> (reason: String, retryAfter: String?)? in
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
        if let gaveUp { ledger.deadLetter(Array(objects), to: destination.description, format: kind.rawValue, reason: gaveUp) }
    }
}

/// A backend that sends a replay's events and metrics to New Relic in batches.
package final class NewRelicDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: NewRelicDelivery
    private let records: RecordEncoder
    private let filter: RecordFilter
    private var events: [String] = []
    private var metrics: [String] = []

    package init(delivery: NewRelicDelivery, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.records = records
        self.filter = filter
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        events.append(NewRelicEncoding.event(event, records: records))
        if events.count >= delivery.policy.batchLines { flushEvents() }
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics, let object = NewRelicEncoding.metric(metric, records: records) else { return }
        metrics.append(object)
        if metrics.count >= delivery.policy.batchLines { flushMetrics() }
    }

    package func endOfService() {
        flushEvents()
        flushMetrics()
    }

    private func flushEvents() {
        delivery.deliver(events, kind: .events)
        events.removeAll(keepingCapacity: true)
    }

    private func flushMetrics() {
        delivery.deliver(metrics, kind: .metrics)
        metrics.removeAll(keepingCapacity: true)
    }
}
