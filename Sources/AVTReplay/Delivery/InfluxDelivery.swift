import AVTCore
import AVTJSON
import Foundation

/// How hard delivery tries before a line goes to the dead-letter file.
public struct DeliveryPolicy: Sendable {
    /// Lines per HTTP request.
    public var batchLines = 5000
    /// Attempts per batch on connection errors, timeouts, 429 and 5xx.
    public var attempts = 5
    /// First retry delay in ms; doubled per attempt, with ±50% jitter, capped at `maximumDelay`.
    public var baseDelay = 250
    public var maximumDelay = 10_000
    /// Seconds per request.
    public var timeout = 10.0

    public init() {}

    /// Runs `attempt` until it settles the batch (returns nil) or the attempts run out; then
    /// returns the last reason. Between attempts it waits with backoff and jitter, or as long
    /// as the server's Retry-After asks.
    func retrying(sleep: (Int) -> Void, _ attempt: () -> (reason: String, retryAfter: String?)?) -> String? {
        var count = 0
        while true {
            count += 1
            guard let retry = attempt() else { return nil }
            guard count < attempts else { return "\(retry.reason) (after \(count) attempts)" }
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

/// `influxdb://HOST:PORT/DB[?rp=POLICY]` (or `influxdb+https://`): InfluxDB 1.x `/write`, with
/// `INFLUX_USERNAME`/`INFLUX_PASSWORD` as basic authentication when set.
public struct InfluxDestination: Sendable, CustomStringConvertible {
    public let description: String
    public let precision: InfluxLineEncoder.Precision
    let writeURL: URL
    let headers: [String: String]

    public init(_ text: String, precision: InfluxLineEncoder.Precision, environment: [String: String]) throws(OutputError) {
        func bad(_ why: String) -> OutputError { OutputError(path: text, message: why, isBrokenPipe: false) }
        guard let url = URLComponents(string: text), let scheme = url.scheme, scheme == "influxdb" || scheme == "influxdb+https"
        else { throw bad("expected influxdb://HOST:PORT/DB or influxdb+https://HOST:PORT/DB") }
        guard let host = url.host, !host.isEmpty else { throw bad("missing host") }
        let database = url.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard !database.isEmpty else { throw bad("missing database: influxdb://HOST:PORT/DB") }
        var write = URLComponents()
        write.scheme = scheme == "influxdb+https" ? "https" : "http"
        write.host = host
        write.port = url.port ?? 8086
        write.path = "/write"
        // Always send the precision: without it InfluxDB reads timestamps as nanoseconds.
        var query = [URLQueryItem(name: "db", value: database), URLQueryItem(name: "precision", value: precision == .us ? "u" : precision.rawValue)]
        if let rp = url.queryItems?.first(where: { $0.name == "rp" })?.value { query.append(URLQueryItem(name: "rp", value: rp)) }
        write.queryItems = query
        guard let writeURL = write.url else { throw bad("not a valid address") }
        self.writeURL = writeURL
        var headers = ["Content-Type": "text/plain; charset=utf-8"]
        if let user = environment["INFLUX_USERNAME"], let password = environment["INFLUX_PASSWORD"] {
            headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        self.headers = headers
        self.description = text
        self.precision = precision
    }
}

/// Delivers line-protocol lines to InfluxDB without losing or duplicating any:
/// - 2xx: delivered;
/// - 400: InfluxDB writes the good lines of a batch and rejects the bad ones. Rejected lines it
///   names go to the dead-letter file and the rest count as delivered (never resent whole, which
///   would duplicate). When it names none, the batch is bisected and re-posted: our points are
///   unique and deterministic, so a re-sent accepted point overwrites itself;
/// - 413: bisected; other 4xx: dead-lettered with the server's message, no retry;
/// - connection errors, timeouts, 429 and 5xx: retried with exponential backoff and jitter,
///   honouring Retry-After, then dead-lettered.
public final class InfluxDelivery: @unchecked Sendable {
    public let destination: InfluxDestination
    /// `influx/<precision>` in dead-letter entries.
    var format: String { "influx/" + destination.precision.rawValue }
    let policy: DeliveryPolicy
    let ledger: DeliveryLedger
    /// Injected so the retry logic can be tested without a server.
    let post: (URL, Data, [String: String], TimeInterval) -> Result<HTTPClient.Response, HTTPClient.Failure>
    let sleep: (Int) -> Void

    public convenience init(destination: InfluxDestination, policy: DeliveryPolicy, ledger: DeliveryLedger) {
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

    public func deliver(_ lines: [String]) {
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
        let compressed = Gzip.compress(text)
        let body = Data(compressed ?? text)
        var headers = destination.headers
        if compressed != nil { headers["Content-Encoding"] = "gzip" }
        let gaveUp = policy.retrying(sleep: sleep) { () -> (reason: String, retryAfter: String?)? in
            switch post(destination.writeURL, body, headers, policy.timeout) {
            case .success(let response) where (200..<300).contains(response.status):
                ledger.countDelivered(lines.count, to: destination.description)
            case .success(let response) where response.status == 400:
                let message = Self.errorMessage(response.body)
                let rejected = lines.filter { message.contains("unable to parse '\($0)'") }
                if !rejected.isEmpty {
                    ledger.deadLetter(rejected, to: destination.description, format: format, reason: "HTTP 400: \(message)")
                    ledger.countDelivered(lines.count - rejected.count, to: destination.description)
                } else if lines.count == 1 {
                    ledger.deadLetter(Array(lines), to: destination.description, format: format, reason: "HTTP 400: \(message)")
                } else {
                    bisect(lines)
                }
            case .success(let response) where response.status == 413 && lines.count > 1:
                bisect(lines)
            case .success(let response) where response.status == 429 || response.status >= 500:
                return ("HTTP \(response.status): \(Self.errorMessage(response.body))", response.headers["retry-after"])
            case .success(let response):
                ledger.deadLetter(
                    Array(lines), to: destination.description, format: format,
                    reason: "HTTP \(response.status): \(Self.errorMessage(response.body))")
            case .failure(let failure):
                return (failure.description, nil)
            }
            return nil
        }
        if let gaveUp { ledger.deadLetter(Array(lines), to: destination.description, format: format, reason: gaveUp) }
    }

    private func bisect(_ lines: ArraySlice<String>) {
        let middle = lines.startIndex + lines.count / 2
        send(lines[lines.startIndex..<middle])
        send(lines[middle..<lines.endIndex])
    }

    /// InfluxDB answers errors as `{"error": "…"}`.
    static func errorMessage(_ body: String) -> String {
        if case .object(let members)? = try? JSONParser.parse(body).value,
            case .string(let message)? = members.first(where: { $0.key == "error" })?.node.value
        {
            return message
        }
        return body.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A backend that sends a replay's records to InfluxDB in batches as they come.
public final class InfluxDeliveryBackend: RecordBackend {
    public let writeError: OutputError? = nil
    private let delivery: InfluxDelivery
    private var writer: InfluxLineWriter
    private let filter: RecordFilter
    private var pending: [String] = []
    private var buffer = JSONBuffer(capacity: 4096)

    public init(delivery: InfluxDelivery, encoder: InfluxLineEncoder, records: RecordEncoder, filter: RecordFilter = RecordFilter()) {
        self.delivery = delivery
        self.writer = InfluxLineWriter(encoder: encoder, records: records)
        self.filter = filter
    }

    public func sendEvent(_ event: Event) {
        guard filter.events else { return }
        writer.write(event, into: &buffer)
        take()
    }

    public func sendMetric(_ metric: Metric) {
        guard filter.metrics else { return }
        writer.write(metric, into: &buffer)
        take()
    }

    public func endOfService() {
        delivery.deliver(pending)
        pending.removeAll()
    }

    private func take() {
        pending.append(String(decoding: buffer.bytes.dropLast(), as: UTF8.self))
        buffer.removeAll()
        if pending.count >= delivery.policy.batchLines {
            delivery.deliver(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }
}

/// Lines kept in a dead-letter file, read back for `avtreplay send`.
public struct DeadLetterEntry: Sendable, Equatable {
    public var destination: String
    public var format: String
    public var reason: String
    public var line: String

    public static func read(path: String) throws(TimelineError) -> [DeadLetterEntry] {
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
