import AVTCore
import AVTJSON
import AVTOutput
import AVTTimeline
import Foundation

/// Delivers line-protocol lines to InfluxDB without losing or duplicating any:
/// - 2xx: delivered;
/// - 400: InfluxDB 1.x writes the good lines of a batch and rejects the bad ones. Rejected lines
///   it names go to the dead-letter file and the rest count as delivered (never resent whole).
///   With 2.x (400 or 422) the named lines are dead-lettered and the rest re-posted (see below
///   why that cannot duplicate). When the server names none, the batch is bisected and
///   re-posted: our points are unique and deterministic, so a re-sent accepted point overwrites
///   itself;
/// - 413: bisected; other 4xx: dead-lettered with the server's message, no retry;
/// - connection errors, timeouts, 429 and 5xx: retried with exponential backoff and jitter,
///   honouring Retry-After, then dead-lettered.
package final class InfluxDelivery: @unchecked Sendable {
    package let destination: InfluxDestination
    /// `influx/<precision>` in dead-letter entries.
    var format: String { "influx/" + destination.precision.rawValue }
    let policy: DeliveryPolicy
    /// Shared by this destination's batches (see `DeliveryOutage`).
    let outage = DeliveryOutage()
    let ledger: DeliveryLedger
    /// Injected so the retry logic can be tested without a server.
    let post: (URL, Data, [String: String], TimeInterval) -> Result<HTTPClient.Response, HTTPClient.Failure>
    let sleep: (Int) -> Void
    /// Points older than the retention policy or bucket, when `--influx-retention` names its
    /// duration; InfluxDB keeps any time otherwise.
    package let windowFilter: DeliveryWindowFilter

    package convenience init(destination: InfluxDestination, policy: DeliveryPolicy, ledger: DeliveryLedger) {
        self.init(destination: destination, policy: policy, ledger: ledger, post: HTTPClient.post) {
            Thread.sleep(forTimeInterval: Double($0) / 1000)
        }
    }

    init(
        destination: InfluxDestination, policy: DeliveryPolicy, ledger: DeliveryLedger,
        post: @escaping (URL, Data, [String: String], TimeInterval) -> Result<HTTPClient.Response, HTTPClient.Failure>,
        sleep: @escaping (Int) -> Void
    ) {
        self.destination = destination
        self.policy = policy
        self.ledger = ledger
        self.post = post
        self.sleep = sleep
        self.windowFilter = DeliveryWindowFilter(
            window: DeliveryWindow(
                past: policy.influxRetention.map { $0 * 1000 }, ahead: nil, keeper: "the retention policy",
                fix: "replay with --end-time now, or give the policy's real duration with --influx-retention"),
            destination: destination.description, ledger: ledger)
    }

    /// A line's time in epoch ms: its last field, in the destination's precision.
    func time(ofLine line: String) -> Int? {
        guard let space = line.utf8.lastIndex(of: UInt8(ascii: " ")),
            let stamp = Int(Substring(line.utf8[line.utf8.index(after: space)...]))
        else { return nil }
        switch destination.precision {
        case .ns: return stamp / 1_000_000
        case .us: return stamp / 1000
        case .ms: return stamp
        case .s: return stamp.multipliedReportingOverflow(by: 1000).overflow ? nil : stamp * 1000
        }
    }

    /// `--influx-compat` points a later point of the same measurement and time replaced: sent,
    /// but not kept, so not counted as delivered.
    func countOverwritten(_ points: Int) {
        if points > 0 { ledger.countOverwritten(points, to: destination.description) }
    }

    package func deliver(_ lines: [String]) {
        let lines = windowFilter.admit(lines, format: format, time: time(ofLine:))
        var start = 0
        while start < lines.count {
            let end = min(lines.count, start + policy.batchLines)
            send(lines[start..<end])
            start = end
        }
    }

    private func send(_ lines: ArraySlice<String>) {
        guard !lines.isEmpty else { return }
        // InfluxDB takes gzip bodies on /write; line protocol compresses about tenfold.
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        let compressed = policy.gzip.compresses(host: destination.host) ? Gzip.compress(text) : nil
        let body = Data(compressed ?? text)
        var headers = destination.headers
        if compressed != nil { headers["Content-Encoding"] = "gzip" }
        let gaveUp = policy.retrying(outage: outage, sleep: sleep) {
            () -> (reason: String, retryAfter: String?, answered: Bool)? in
            let result = post(destination.writeURL, body, headers, policy.timeout)
            // Parse errors are InfluxDB's own; the shared decision covers every other answer.
            if case .success(let response) = result,
                response.status == 400 || (destination.api == .v2 && response.status == 422)
            {
                deadLetterUnparsable(lines, response)
                return nil
            }
            switch HTTPBatchDecision.decide(result, records: lines.count, message: Self.errorMessage) {
            case .delivered:
                ledger.countDelivered(lines.count, to: destination.description)
            case .split:
                bisect(lines)
            case .retry(let reason, let retryAfter):
                return (reason, retryAfter, HTTPBatchDecision.answered(result))
            case .rejected(let reason):
                ledger.deadLetter(Array(lines), to: destination.description, format: format, reason: reason)
            }
            return nil
        }
        if let gaveUp { ledger.deadLetter(Array(lines), to: destination.description, format: format, reason: gaveUp) }
    }

    /// A 400 (2.x: also 422) names the lines InfluxDB could not parse: those are dead letters and
    /// the rest of the batch goes on; a batch whose bad lines are not named is halved until they are.
    private func deadLetterUnparsable(_ lines: ArraySlice<String>, _ response: HTTPClient.Response) {
        let message = Self.errorMessage(response.body)
        let reason = "HTTP \(response.status): \(message)"
        let rejected = lines.filter { message.contains("unable to parse '\($0)'") }
        if !rejected.isEmpty {
            ledger.deadLetter(
                rejected.map { ($0, "HTTP \(response.status): " + Self.reason(for: $0, in: message)) },
                to: destination.description, format: format)
            switch destination.api {
            case .v1:
                // Measured on 1.x: the good lines of the batch were written.
                ledger.countDelivered(lines.count - rejected.count, to: destination.description)
            case .v2:
                // 2.x's documentation disagrees across versions on whether the good lines
                // were written (OSS 2.x: "all rejected", naming only the first bad line;
                // later versions: partial writes). Re-posting the rest is right either
                // way: our points are unique and deterministic, so one already written
                // overwrites itself, and each round removes at least one bad line.
                let named = Set(rejected)
                send(lines.filter { !named.contains($0) }[...])
            }
        } else if lines.count == 1 {
            ledger.deadLetter(Array(lines), to: destination.description, format: format, reason: reason)
        } else {
            bisect(lines)
        }
    }

    private func bisect(_ lines: ArraySlice<String>) {
        let middle = lines.startIndex + lines.count / 2
        send(lines[lines.startIndex..<middle])
        send(lines[middle..<lines.endIndex])
    }

    /// The server's words about one line of a multi-line answer: `unable to parse '<line>': <why>`,
    /// up to the next line of the answer, without the `dropped=N` InfluxDB adds at the end.
    static func reason(for line: String, in message: String) -> String {
        let head = "unable to parse '\(line)': "
        guard let start = message.range(of: head) else { return message }
        var why = message[start.upperBound...].prefix { $0 != "\n" }
        if let dropped = why.range(of: " dropped=", options: .backwards),
            why[dropped.upperBound...].allSatisfy(\.isNumber)
        {
            why = why[..<dropped.lowerBound]
        }
        return head + why
    }

    /// InfluxDB 1.x answers errors as `{"error": "…"}`, 2.x as `{"code": "…", "message": "…"}`.
    static func errorMessage(_ body: String) -> String {
        if case .object(let members)? = try? JSONParser.parse(body).value,
            case .string(let message)? = members.first(where: { $0.key == "error" || $0.key == "message" })?.node.value
        {
            return message
        }
        return body.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
