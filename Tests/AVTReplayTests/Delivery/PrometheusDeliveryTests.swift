import AVTCore
import Foundation
import XCTest

@testable import AVTDelivery
@testable import AVTOutput

/// Remote write with a scripted server: the window, refusals bisected, retries, the headers, and
/// the lines read back.
final class PrometheusDeliveryTests: XCTestCase {
    private final class Server: @unchecked Sendable {
        /// The answer to a request, from the samples it carries.
        var answer: ([RemoteWriteDecoder.Series]) -> Result<HTTPClient.Response, HTTPClient.Failure> = { _ in
            .success(.init(status: 204, headers: [:], body: ""))
        }
        var requests: [[RemoteWriteDecoder.Series]] = []
        var headers: [[String: String]] = []
        var urls: [URL] = []
        var sleeps: [Int] = []

        func post(_ url: URL, _ body: Data, _ headers: [String: String], _ timeout: TimeInterval) -> Result<
            HTTPClient.Response, HTTPClient.Failure
        > {
            let series = (try? RemoteWriteDecoder.body(body)) ?? []
            requests.append(series)
            self.headers.append(headers)
            urls.append(url)
            return answer(series)
        }
    }

    private let now = 1_800_000_000_000

    private func deliver(
        _ lines: [String], server: Server, window: PrometheusWindow = PrometheusWindow(past: 3600), batch: Int = 100
    ) throws -> (DeliveryLedger, [DeadLetterEntry]) {
        let scratch = try ScratchDirectory()
        let ledger = DeliveryLedger(deadLetterPath: scratch.url.appendingPathComponent("dead.jsonl").path)
        var policy = DeliveryPolicy()
        (policy.attempts, policy.batchLines) = (3, batch)
        let delivery = PrometheusDelivery(
            destination: try PrometheusDestination("prometheus://127.0.0.1:9090", window: window), policy: policy,
            ledger: ledger, window: window, post: server.post, sleep: { server.sleeps.append($0) },
            now: { [now] in now })
        delivery.deliver(lines)
        try ledger.close()
        let path = ledger.deadLetterPath
        let dead = FileManager.default.fileExists(atPath: path) ? try DeadLetterEntry.read(path: path) : []
        return (ledger, dead)
    }

    /// `count` samples of one series, a second apart, ending a minute before `now`.
    private func lines(_ count: Int, value: (Int) -> Int = { $0 }) -> [String] {
        (0..<count).map { i in
            "oavt_x_total{tracker=\"t\"} \(value(i)) "
                + PrometheusSampleWriter.timestamp(now - 60_000 - (count - i) * 1000)
        }
    }

    func testARequestCarriesTheProtocolsHeadersAndEverySample() throws {
        let server = Server()
        let (ledger, dead) = try deliver(lines(250), server: server)
        XCTAssertEqual(server.requests.count, 3, "batches of 100")
        XCTAssertEqual(server.urls.first?.absoluteString, "http://127.0.0.1:9090/api/v1/write")
        XCTAssertEqual(server.headers.first?["Content-Encoding"], "snappy")
        XCTAssertEqual(server.headers.first?["Content-Type"], "application/x-protobuf")
        XCTAssertEqual(server.headers.first?["X-Prometheus-Remote-Write-Version"], "0.1.0")
        let samples = server.requests.flatMap { $0.flatMap(\.samples) }
        XCTAssertEqual(samples.map(\.value), (0..<250).map(Double.init))
        XCTAssertEqual(samples.first?.milliseconds, Int64(now - 60_000 - 250_000))
        XCTAssertEqual(server.requests.first?.first?.labels, ["__name__=oavt_x_total", "tracker=t"])
        XCTAssertEqual(ledger.delivered.values.reduce(0, +), 250)
        XCTAssertTrue(dead.isEmpty)
    }

    func testSamplesOutsideTheWindowAreNotSentAndKeptWithOneReason() throws {
        let server = Server()
        let old = "oavt_a 1 " + PrometheusSampleWriter.timestamp(now - 3_600_001)
        let edge = "oavt_a 2 " + PrometheusSampleWriter.timestamp(now - 3_600_000)
        let ahead = "oavt_a 3 " + PrometheusSampleWriter.timestamp(now + 2 * 86_400_000 + 1)
        let (ledger, dead) = try deliver([old, edge, ahead, "not a sample"], server: server)
        XCTAssertEqual(server.requests.flatMap { $0.flatMap(\.samples) }.map(\.value), [2])
        XCTAssertEqual(dead.map(\.line), ["not a sample", old, ahead])
        XCTAssertEqual(Set(dead.dropFirst().map(\.reason)).count, 1)
        XCTAssertTrue(
            dead[1].reason.contains("outside what the remote-write server keeps (1 h ago to 48 h ahead)"),
            dead[1].reason)
        XCTAssertTrue(dead.allSatisfy { $0.format == "openmetrics" })
        XCTAssertEqual(ledger.reasons.count, 2)
        // No lower bound: the old sample goes.
        let open = Server()
        _ = try deliver([old], server: open, window: PrometheusWindow(past: nil))
        XCTAssertEqual(open.requests.count, 1)
    }

    func testARefusedSampleIsIsolatedByHalvingAndTheRestDelivered() throws {
        for refusal in [(400, "out of bounds"), (500, "too old sample")] {
            let server = Server()
            server.answer = { series in
                let bad = series.flatMap(\.samples).contains { $0.value == 13 }
                return .success(.init(status: bad ? refusal.0 : 204, headers: [:], body: bad ? refusal.1 + "\n" : ""))
            }
            let (ledger, dead) = try deliver(lines(40), server: server)
            XCTAssertEqual(dead.count, 1)
            XCTAssertEqual(dead.first?.line.contains("} 13 "), true)
            XCTAssertEqual(dead.first?.reason, "HTTP \(refusal.0): \(refusal.1)")
            XCTAssertEqual(ledger.delivered.values.reduce(0, +), 39)
            XCTAssertTrue(server.sleeps.isEmpty, "a refusal is not retried")
        }
    }

    func testServerErrorsAreRetriedThenKept() throws {
        let server = Server()
        server.answer = { _ in .success(.init(status: 503, headers: ["retry-after": "1"], body: "busy")) }
        let (ledger, dead) = try deliver(lines(5), server: server)
        XCTAssertEqual(server.requests.count, 3)
        XCTAssertEqual(server.sleeps, [1000, 1000])
        XCTAssertEqual(dead.count, 5)
        XCTAssertEqual(dead.first?.reason, "HTTP 503: busy (after 3 attempts)")
        XCTAssertEqual(ledger.delivered.values.reduce(0, +), 0)
    }

    func testDeadLettersGoBackByRemoteWriteAndTheWindowFlagIsNamedWhenUnused() {
        XCTAssertEqual(DeadLetterResend.kind(ofFormat: "openmetrics"), .prometheus)
        XCTAssertEqual(
            UnusedOptions.warnings(given: ["--prometheus-window"], stream: .openmetrics, servers: []),
            ["--prometheus-window ignored: nothing is written to a remote-write server (--to prometheus://…)"])
        XCTAssertEqual(UnusedOptions.warnings(given: ["--prometheus-window"], stream: nil, servers: [.prometheus]), [])
    }

    func testDestinations() throws {
        let window = PrometheusWindow(past: 3600)
        XCTAssertEqual(
            try PrometheusDestination("prometheus://h", window: window).writeURL.absoluteString,
            "http://h:9090/api/v1/write")
        XCTAssertEqual(
            try PrometheusDestination("prometheus+https://h:8428/api/v1/write?extra_label=a=b", window: window).writeURL
                .absoluteString,
            "https://h:8428/api/v1/write?extra_label=a=b")
        XCTAssertThrowsError(try PrometheusDestination("prometheus+udp://h", window: window))
        XCTAssertThrowsError(try PrometheusDestination("prometheus:///x", window: window))
        guard case .prometheus = try Destination("prometheus://h:1") else {
            return XCTFail("not a prometheus destination")
        }
    }

    func testLinesReadBackAsTheWriterWroteThem() throws {
        let line = #"oavt_events_total{action="Say \"hi\"\\",session="a\nb",tracker="c,d"} 2.5 -0.001"#
        let sample = try XCTUnwrap(PrometheusSampleLine(line))
        XCTAssertEqual(sample.labels.map(\.name), ["__name__", "action", "session", "tracker"])
        XCTAssertEqual(sample.labels.map(\.value), ["oavt_events_total", "Say \"hi\"\\", "a\nb", "c,d"])
        XCTAssertEqual(sample.value, 2.5)
        XCTAssertEqual(sample.milliseconds, -1)
        XCTAssertEqual(PrometheusSampleLine("oavt_a NaN 1.000")?.value.isNaN, true)
        XCTAssertEqual(PrometheusSampleLine("oavt_a +Inf 1772366400.123")?.milliseconds, 1_772_366_400_123)
        XCTAssertEqual(PrometheusSampleLine(#"oavt_a{b="é\"ü"}2 1.000"#)?.labels.last?.value, "é\"ü")
        XCTAssertEqual(PrometheusSampleLine("oavt_a 1 9223372036854774.807")?.milliseconds, 9_223_372_036_854_774_807)
        for bad in [
            "", "oavt_a 1", "oavt_a 1 1.5", "oavt_a x 1.000", "oavt_a{b=\"c} 1 1.000", "oavt_a{b=c} 1 1.000",
            "oavt_a 1 1.0000", "oavt_a 1 +1.000", "oavt_a 1 1.00x", "oavt_a 1 .000", "oavt_a 1 1.000 2",
            "oavt_a 1 9223372036854775.000", "{a=\"b\"} 1 1.000", "oavt_a{=\"b\"} 1 1.000",
        ] {
            XCTAssertNil(PrometheusSampleLine(bad), bad)
        }
        // Whatever the writer writes reads back.
        var records = RecordEncoder(trackerNames: ["t \"1\""], startTime: 1_772_366_400_000, session: "s\\x")
        records.seriesSession = "s\\x"
        var writer = PrometheusSampleWriter(records: records, describes: false)
        var out: [String] = []
        writer.add(Event(action: .start, timestamp: 7, trackerId: 0, attributes: ["bitrate": .int(5)]), to: &out)
        writer.finish(to: &out)
        for line in out {
            let sample = try XCTUnwrap(PrometheusSampleLine(line), line)
            // The sample, or its counter's 0 a millisecond before the session's start.
            XCTAssertTrue([1_772_366_400_007, 1_772_366_399_999].contains(sample.milliseconds), line)
            XCTAssertTrue(sample.labels.contains { $0 == ("tracker", "t \"1\"") }, line)
            XCTAssertTrue(sample.labels.contains { $0 == ("session", "s\\x") }, line)
        }
    }
    /// A replay's samples go as numbers; what does not go is kept as the very lines
    /// `--format openmetrics` prints: refused ones after halving, and those outside the window,
    /// in order, with one reason.
    func testAReplaysSamplesDeadLetterTheLinesTheyPrintAs() throws {
        let server = Server()
        server.answer = { series in
            let bad = series.flatMap(\.samples).contains { $0.value == 7 }
            return .success(.init(status: bad ? 400 : 204, headers: [:], body: bad ? "out of order sample" : ""))
        }
        let scratch = try ScratchDirectory()
        let ledger = DeliveryLedger(deadLetterPath: scratch.url.appendingPathComponent("dead.jsonl").path)
        var policy = DeliveryPolicy()
        (policy.attempts, policy.batchLines) = (3, 8)
        let window = PrometheusWindow(past: 3600)
        let delivery = PrometheusDelivery(
            destination: try PrometheusDestination("prometheus://127.0.0.1:9090", window: window), policy: policy,
            ledger: ledger, window: window, post: server.post, sleep: { server.sleeps.append($0) },
            now: { [now] in now })
        // Starts 5 s before the window: the counter's 0 and the first five Pings stay out.
        var records = RecordEncoder(trackerNames: ["a \"b\""], startTime: now - 3_605_000, session: "s")
        (records.seriesSession, records.labels) = ("s", [("Run", "1")])
        let backend = PrometheusDeliveryBackend(delivery: delivery, records: records)
        var writer = PrometheusSampleWriter(records: records, describes: false)
        var lines: [String] = []
        for i in 0..<20 {
            let event = Event(action: .ping, timestamp: i * 1000, trackerId: 0, attributes: ["bitrate": .int(i * 8)])
            backend.sendEvent(event)
            writer.add(event, to: &lines)
        }
        backend.endOfService()
        writer.finish(to: &lines)
        try ledger.close()
        let dead = try DeadLetterEntry.read(path: ledger.deadLetterPath)
        let outside = lines.filter {
            let ms = PrometheusSampleLine($0)!.milliseconds
            return now - ms > 3_600_000
        }
        XCTAssertEqual(outside.count, 1 + 5 + 5, "the counter's 0, five Pings and five bitrates")
        XCTAssertEqual(dead.filter { $0.reason.contains("outside") }.map(\.line), outside)
        let refused = lines.filter { PrometheusSampleLine($0)!.value == 7 && !outside.contains($0) }
        XCTAssertEqual(refused.count, 2, "the count of seven Pings, and a bitrate of 7 bytes per second")
        XCTAssertEqual(dead.filter { $0.reason == "HTTP 400: out of order sample" }.map(\.line), refused)
        XCTAssertEqual(dead.count, outside.count + refused.count)
        XCTAssertEqual(ledger.delivered.values.reduce(0, +), lines.count - dead.count)
        // What the server took is what the other lines say.
        var taken: [String: [RemoteWriteDecoder.Sample]] = [:]
        for series in server.requests.filter({ !$0.flatMap(\.samples).contains { $0.value == 7 } }).joined() {
            taken[series.labels.joined(separator: ","), default: []] += series.samples
        }
        var expected: [String: [RemoteWriteDecoder.Sample]] = [:]
        for line in lines where !dead.map(\.line).contains(line) {
            let sample = PrometheusSampleLine(line)!
            let labels = sample.labels.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            expected[labels.map { $0.name + "=" + $0.value }.joined(separator: ","), default: []].append(
                .init(value: sample.value, milliseconds: Int64(sample.milliseconds)))
        }
        XCTAssertEqual(taken.mapValues { $0.sorted { $0.milliseconds < $1.milliseconds } }, expected)
    }
}
