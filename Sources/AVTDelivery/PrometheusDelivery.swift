import AVTOutput
import AVTReplay
import Foundation

/// Delivers OpenMetrics sample lines by Prometheus remote write 1.0: each batch becomes a
/// protobuf `WriteRequest` (series sorted), snappy-compressed, posted with the protocol's headers.
/// - samples outside the server's window (`PrometheusWindow`) are not sent: they go to the
///   dead-letter file with one reason;
/// - 2xx: delivered;
/// - 400 (and 2.42's 500 "too old sample", see `isRefusal`): Prometheus refuses the whole
///   request for one bad sample (out of bounds, out of order, a different value for a stored
///   timestamp) and stores nothing of it, so the batch is halved
///   and the halves posted again until the bad samples stand alone; those are dead letters with
///   the server's message. A sample already stored and sent again is no error;
/// - 413: halved; other 4xx: dead letters, no retry;
/// - connection errors, timeouts, 429 and 5xx: retried with backoff, then dead letters.
package final class PrometheusDelivery: @unchecked Sendable {
    /// The dead-letter format: the lines are OpenMetrics samples.
    package static let format = "openmetrics"
    package let destination: PrometheusDestination
    let policy: DeliveryPolicy
    /// Samples outside the server's window (see `PrometheusWindow`).
    package let windowFilter: DeliveryWindowFilter
    let outage = DeliveryOutage()
    let ledger: DeliveryLedger
    let post: (URL, Data, [String: String], TimeInterval) -> Result<HTTPClient.Response, HTTPClient.Failure>
    let sleep: (Int) -> Void

    package convenience init(destination: PrometheusDestination, policy: DeliveryPolicy, ledger: DeliveryLedger) {
        self.init(
            destination: destination, policy: policy, ledger: ledger, window: destination.window, post: HTTPClient.post,
            sleep: { Thread.sleep(forTimeInterval: Double($0) / 1000) }, now: ReplayStartTime.now)
    }

    init(
        destination: PrometheusDestination, policy: DeliveryPolicy, ledger: DeliveryLedger, window: PrometheusWindow,
        post: @escaping (URL, Data, [String: String], TimeInterval) -> Result<HTTPClient.Response, HTTPClient.Failure>,
        sleep: @escaping (Int) -> Void, now: @escaping @Sendable () -> Int
    ) {
        self.destination = destination
        self.policy = policy
        self.ledger = ledger
        self.windowFilter = DeliveryWindowFilter(
            window: window.deliveryWindow, destination: destination.description, ledger: ledger, now: now)
        self.post = post
        self.sleep = sleep
    }

    private typealias Sample = (line: String, sample: PrometheusSampleLine)

    package func deliver(_ lines: [String]) {
        let now = windowFilter.now()
        var samples: [Sample] = []
        samples.reserveCapacity(lines.count)
        var unreadable: [String] = []
        var outside: [String] = []
        for line in lines {
            guard let sample = PrometheusSampleLine(line) else {
                unreadable.append(line)
                continue
            }
            if windowFilter.window.contains(sample.milliseconds, now: now) {
                samples.append((line, sample))
            } else {
                outside.append(line)
            }
        }
        deadLetter(unreadable, reason: "not an OpenMetrics sample line")
        windowFilter.refuse(outside, format: Self.format)
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + policy.batchLines)
            send(samples[start..<end])
            start = end
        }
    }

    private func deadLetter(_ lines: [String], reason: String) {
        ledger.deadLetter(lines, to: destination.description, format: Self.format, reason: reason)
    }

    /// The compressed `WriteRequest` of a batch.
    static func body(_ samples: some Collection<(line: String, sample: PrometheusSampleLine)>) -> Data {
        let request = RemoteWriteRequest(samples.map { ($0.sample.labels, $0.sample.value, $0.sample.milliseconds) })
        return Data(Snappy.compress(request.encoded()))
    }

    private func send(_ samples: ArraySlice<Sample>) {
        guard !samples.isEmpty else { return }
        let body = Self.body(samples)
        let gaveUp = policy.retrying(outage: outage, sleep: sleep) {
            () -> (reason: String, retryAfter: String?, answered: Bool)? in
            let result = post(destination.writeURL, body, PrometheusDestination.headers, policy.timeout)
            if case .success(let response) = result, Self.isRefusal(response) {
                // Nothing of the request was stored: find the refused samples by halving.
                if samples.count == 1 {
                    deadLetter(
                        samples.map(\.line), reason: "HTTP \(response.status): " + Self.message(response.body))
                } else {
                    bisect(samples)
                }
                return nil
            }
            switch HTTPBatchDecision.decide(result, records: samples.count, message: Self.message) {
            case .delivered:
                ledger.countDelivered(samples.count, to: destination.description)
            case .split:
                bisect(samples)
            case .retry(let reason, let retryAfter):
                return (reason, retryAfter, HTTPBatchDecision.answered(result))
            case .rejected(let reason):
                deadLetter(samples.map(\.line), reason: reason)
            }
            return nil
        }
        if let gaveUp { deadLetter(samples.map(\.line), reason: gaveUp) }
    }

    private func bisect(_ samples: ArraySlice<Sample>) {
        let middle = samples.startIndex + samples.count / 2
        send(samples[samples.startIndex..<middle])
        send(samples[middle..<samples.endIndex])
    }

    /// Whether the server refused samples of the request for good, so that it stored none of it.
    /// Prometheus answers 400 for a sample out of bounds or out of order; 2.42 with an
    /// out-of-order window answers a 500 for a sample older than that window ("too old sample",
    /// measured), which retrying cannot change.
    static func isRefusal(_ response: HTTPClient.Response) -> Bool {
        if response.status == 400 { return true }
        guard response.status == 500 else { return false }
        return ["too old sample", "out of bounds", "out of order sample", "duplicate sample for timestamp"].contains {
            response.body.contains($0)
        }
    }

    /// Prometheus answers errors as plain text (`out of bounds`); VictoriaMetrics too.
    static func message(_ body: String) -> String {
        String(body.trimmingCharacters(in: .whitespacesAndNewlines).prefix(300))
    }
}
