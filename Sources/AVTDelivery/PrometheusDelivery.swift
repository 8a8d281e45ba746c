import AVTOutput
import AVTReplay
import Foundation

/// Delivers Prometheus samples by remote write 1.0: a replay's as numbers, a dead-letter file's
/// as OpenMetrics lines; each batch becomes a protobuf `WriteRequest` (series sorted),
/// snappy-compressed (`RemoteWriteEncoder`), posted with the protocol's headers.
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

    /// Lines read back (`avtreplay send`): each line is a series of its own in the batch, so
    /// that a dead letter keeps it as it was written.
    package func deliver(_ lines: [String]) {
        var batch = RemoteWriteBatch()
        batch.lines = lines
        batch.samples.reserveCapacity(lines.count)
        var unreadable: [String] = []
        for line in lines {
            guard let sample = PrometheusSampleLine(line) else {
                unreadable.append(line)
                continue
            }
            let number = Int32(batch.series.count)
            batch.series.add(labels: sample.labels)
            batch.samples.append(
                PrometheusSample(series: number, value: sample.value, milliseconds: sample.milliseconds))
        }
        batch.series.rank()
        var encoder = RemoteWriteEncoder()
        deliver(batch, encoder: &encoder, unreadable: unreadable)
    }

    /// A replay's samples (`PrometheusDeliveryBackend`), on its sender queue, with its encoder.
    func deliver(_ batch: RemoteWriteBatch, encoder: inout RemoteWriteEncoder) {
        deliver(batch, encoder: &encoder, unreadable: [])
    }

    private func deliver(_ batch: RemoteWriteBatch, encoder: inout RemoteWriteEncoder, unreadable: [String]) {
        let now = windowFilter.now()
        let window = windowFilter.window
        // A replay's samples are all readable and inside the window but for a few at its edges:
        // they are sent as they are, and only copied when some stay behind.
        func goes(_ sample: PrometheusSample) -> Bool {
            batch.series.groupOf[Int(sample.series)] >= 0 && Self.readsBack(sample.milliseconds)
                && window.contains(sample.milliseconds, now: now)
        }
        var samples = batch.samples
        var unreadable = unreadable
        var outside: [String] = []
        if !batch.samples.allSatisfy(goes) {
            samples = []
            for sample in batch.samples {
                if batch.series.groupOf[Int(sample.series)] < 0 || !Self.readsBack(sample.milliseconds) {
                    unreadable.append(batch.line(sample))
                } else if window.contains(sample.milliseconds, now: now) {
                    samples.append(sample)
                } else {
                    outside.append(batch.line(sample))
                }
            }
        }
        deadLetter(unreadable, reason: "not an OpenMetrics sample line")
        windowFilter.refuse(outside, format: Self.format)
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + policy.batchLines)
            send(samples[start..<end], of: batch, encoder: &encoder)
            start = end
        }
    }

    /// Whether a time prints as a timestamp that reads back (`PrometheusSampleLine`): the
    /// samples sent are those of the printed lines, and a line whose time does not read is not
    /// one of them. Only times hundreds of thousands of years away do not.
    static func readsBack(_ milliseconds: Int) -> Bool {
        milliseconds.magnitude < 1_000_000_000_000_000
            || PrometheusSampleLine.milliseconds(Array(PrometheusSampleWriter.timestamp(milliseconds).utf8)[...])
                == milliseconds
    }

    private func deadLetter(_ lines: [String], reason: String) {
        ledger.deadLetter(lines, to: destination.description, format: Self.format, reason: reason)
    }

    private func send(
        _ samples: ArraySlice<PrometheusSample>, of batch: RemoteWriteBatch, encoder: inout RemoteWriteEncoder
    ) {
        guard !samples.isEmpty else { return }
        let body = encoder.body(samples, series: batch.series)
        let gaveUp = policy.retrying(outage: outage, sleep: sleep) {
            () -> (reason: String, retryAfter: String?, answered: Bool)? in
            let result = post(destination.writeURL, body, PrometheusDestination.headers, policy.timeout)
            if case .success(let response) = result, Self.isRefusal(response) {
                // Nothing of the request was stored: find the refused samples by halving.
                if samples.count == 1 {
                    deadLetter(
                        samples.map(batch.line), reason: "HTTP \(response.status): " + Self.message(response.body))
                } else {
                    bisect(samples, of: batch, encoder: &encoder)
                }
                return nil
            }
            switch HTTPBatchDecision.decide(result, records: samples.count, message: Self.message) {
            case .delivered:
                ledger.countDelivered(samples.count, to: destination.description)
            case .split:
                bisect(samples, of: batch, encoder: &encoder)
            case .retry(let reason, let retryAfter):
                return (reason, retryAfter, HTTPBatchDecision.answered(result))
            case .rejected(let reason):
                deadLetter(samples.map(batch.line), reason: reason)
            }
            return nil
        }
        if let gaveUp { deadLetter(samples.map(batch.line), reason: gaveUp) }
    }

    private func bisect(
        _ samples: ArraySlice<PrometheusSample>, of batch: RemoteWriteBatch, encoder: inout RemoteWriteEncoder
    ) {
        let middle = samples.startIndex + samples.count / 2
        send(samples[samples.startIndex..<middle], of: batch, encoder: &encoder)
        send(samples[middle..<samples.endIndex], of: batch, encoder: &encoder)
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
