import AVTCore
import AVTJSON
import AVTOutput
import AVTReplay
import AVTTimeline
import Foundation

/// How hard delivery tries before a line goes to the dead-letter file.
package struct DeliveryPolicy: Sendable {
    /// Lines per HTTP request.
    package var batchLines = 5000
    /// Attempts per batch on connection errors, timeouts, 429 and 5xx.
    package var attempts = 5
    /// First retry delay in ms; doubled per attempt, with ±50% jitter, capped at `maximumDelay`.
    package var baseDelay = 250
    package var maximumDelay = 10_000
    /// Seconds per request.
    package var timeout = 10.0
    /// Once set (Ctrl-C), a failed attempt is not retried: the lines go to the dead-letter file.
    package var stop: StopRequest?
    /// Whether InfluxDB bodies are gzipped.
    package var gzip = GzipPolicy.auto

    package init() {}

    /// gzip saves bandwidth on a network and costs CPU on both ends. Measured on loopback
    /// against InfluxDB 1.6 (docs/performance.md): a fifth of avtreplay's CPU on that path
    /// and about 15% of the server's, for bytes that never leave the machine.
    package enum GzipPolicy: String, Sendable, CaseIterable {
        /// gzip unless the server's host is a loopback address (127.0.0.0/8, ::1, localhost).
        case auto
        case always
        case never

        func compresses(host: String) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto: return !InfluxDestination.isLoopback(host)
            }
        }
    }

    /// Runs `attempt` until it settles the batch (returns nil) or the attempts run out; then
    /// returns the last reason. Between attempts it waits with backoff and jitter, or as long
    /// as the server's Retry-After asks. While `outage` says the destination used up every
    /// attempt on an earlier batch and has not answered since, a batch gets one attempt.
    func retrying(
        outage: DeliveryOutage? = nil, sleep: (Int) -> Void, _ attempt: () -> (reason: String, retryAfter: String?)?
    ) -> String? {
        let allowed = outage?.isDown == true ? 1 : attempts
        var count = 0
        while true {
            count += 1
            guard let retry = attempt() else {
                outage?.isDown = false
                return nil
            }
            guard count < allowed else {
                outage?.isDown = true
                if allowed < attempts { return "\(retry.reason) (1 attempt: the destination was already down)" }
                return "\(retry.reason) (after \(count) attempts)"
            }
            if stop?.isRequested == true { return "\(retry.reason) (interrupted before retrying)" }
            sleep(delay(beforeAttempt: count, retryAfter: retry.retryAfter))
        }
    }

    func delay(beforeAttempt attempt: Int, retryAfter: String?) -> Int {
        if let retryAfter, let seconds = Int(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return min(seconds * 1000, maximumDelay * 3)
        }
        let exponential = min(maximumDelay, baseDelay << min(attempt - 1, 20))
        return Int(Double(exponential) * Double.random(in: 0.5...1.5))
    }
}

/// Whether a destination is down: it used up every attempt on a batch and has not answered
/// since. Later batches then get one attempt each instead of the whole backoff, so a server
/// that stays down costs a long replay seconds, not hours, before its records reach the
/// dead-letter file; the first answer (a success, or a refusal of the batch) lifts it.
package final class DeliveryOutage: @unchecked Sendable {
    private let lock = NSLock()
    private var down = false

    var isDown: Bool {
        get { lock.withLock { down } }
        set { lock.withLock { down = newValue } }
    }
}

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
    }

    package func deliver(_ lines: [String]) {
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
        let gaveUp = policy.retrying(outage: outage, sleep: sleep) { () -> (reason: String, retryAfter: String?)? in
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
                return (reason, retryAfter)
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
            ledger.deadLetter(rejected, to: destination.description, format: format, reason: reason)
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

/// A backend that sends a replay's records to InfluxDB in batches as they come. One batch is
/// posted (compressed, sent, answered, retried) on a sender thread while the replay fills the
/// next; when the next is full before the first is settled, the replay waits. So at most two
/// batches are in memory however slow the server is, and a fast server costs the replay little.
package final class InfluxDeliveryBackend: RecordBackend {
    package let writeError: OutputError? = nil
    private let delivery: InfluxDelivery
    private var writer: InfluxLineWriter
    private let filter: RecordFilter
    private var pending: [String] = []
    private var buffer = JSONBuffer(capacity: 4096)
    private let sender = DispatchQueue(label: "avtreplay.influx-sender")
    private let inFlight = DispatchSemaphore(value: 1)

    package init(delivery: InfluxDelivery, encoder: InfluxLineEncoder, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.writer = InfluxLineWriter(encoder: encoder, records: records)
        self.filter = filter
    }

    package func sendEvent(_ event: Event) {
        guard filter.events else { return }
        writer.write(event, into: &buffer)
        take()
    }

    package func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        writer.write(metric, into: &buffer)
        take()
    }

    /// Sends what is pending and waits until every batch is settled (delivered or dead-lettered).
    package func endOfService() {
        ship()
        sender.sync {}
    }

    /// Hands the pending batch to the sender (waiting while the previous one is in flight).
    func ship() {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pending.reserveCapacity(batch.count)
        inFlight.wait()
        sender.async { [delivery, inFlight] in
            delivery.deliver(batch)
            inFlight.signal()
        }
    }

    private func take() {
        pending.append(String(decoding: buffer.bytes.dropLast(), as: UTF8.self))
        buffer.removeAll()
        if pending.count >= delivery.policy.batchLines { ship() }
    }
}

/// Lines kept in a dead-letter file, read back for `avtreplay send`.
package struct DeadLetterEntry: Sendable, Equatable {
    package var destination: String
    package var format: String
    package var reason: String
    package var line: String

    package static func read(path: String) throws(TimelineError) -> [DeadLetterEntry] {
        let input = try ByteInput(path: path)
        var lines = LineReader(input)
        var entries: [DeadLetterEntry] = []
        while let entry = try lines.nextNonBlankLine({ (bytes, number) throws(TimelineError) -> DeadLetterEntry in
            guard let node = try? JSONParser.parse(bytes, firstLine: number), case .object(let members) = node.value else {
                throw TimelineError(file: input.name, location: SourceLocation(line: number, column: 1), message: "expected a dead-letter entry object")
            }
            func field(_ name: String) -> String? {
                if case .string(let s)? = members.first(where: { $0.key == name })?.node.value { return s }
                return nil
            }
            guard let to = field("to"), let format = field("format"), let line = field("line") else {
                throw TimelineError(
                    file: input.name, location: node.location, message: "expected \"to\", \"format\" and \"line\" strings")
            }
            return DeadLetterEntry(destination: to, format: format, reason: field("reason") ?? "", line: line)
        }) {
            entries.append(entry)
        }
        return entries
    }
}
