import Foundation
import XCTest

@testable import AVTDelivery
@testable import AVTOutput

/// `--to` values: every scheme, its defaults, and the words a bad one gets.
final class DestinationTests: XCTestCase {
    private let credentials = DestinationSettings(environment: ["INFLUX_TOKEN": "tok", "NEW_RELIC_LICENSE_KEY": "key"])

    private func message(_ text: String, settings: DestinationSettings = DestinationSettings()) -> String? {
        do {
            _ = try Destination(text, settings: settings)
            return nil
        } catch {
            return error.description
        }
    }

    func testKindsComeFromTheLeadingWord() {
        let kinds: [(String, Destination.Kind?)] = [
            ("stdout", .stdout), ("file:out.jsonl", .file), ("influxdb://h/db", .influx),
            ("influxdb+https://h/db", .influx),
            ("influxdb2://h?org=o&bucket=b", .influx), ("graphite://h", .graphite), ("graphite+udp://h", .graphite),
            ("newrelic://1", .newRelic), ("mediastream+http://h/p", .mediastream),
            ("mediastream+https://h/p", .mediastream),
            ("graphite+tcp://h", .graphite), ("bogus", nil), ("Stdout", nil), ("http://h", nil),
            ("mediastream://h", nil),
        ]
        for (text, kind) in kinds { XCTAssertEqual(Destination.Kind(of: text), kind, text) }
        XCTAssertEqual(Destination.Kind.allCases.filter(\.isStream), [.stdout, .file])
    }

    func testStreams() throws {
        XCTAssertEqual(try Destination("stdout").streamPath, "-")
        XCTAssertEqual(try Destination("file:out/a.jsonl").streamPath, "out/a.jsonl")
        XCTAssertEqual(try Destination("file:").streamPath, "")
        XCTAssertEqual(try Destination("file:x").description, "file:x")
        XCTAssertNil(try Destination("graphite://h").streamPath)
    }

    func testInfluxV1DefaultsToPort8086AndSendsThePrecision() throws {
        guard
            case .influx(let server) = try Destination(
                "influxdb://h/telemetry?rp=week", settings: DestinationSettings(precision: .us))
        else {
            return XCTFail("not influx")
        }
        XCTAssertEqual(server.api, .v1)
        XCTAssertEqual(server.host, "h")
        XCTAssertEqual(server.writeURL.absoluteString, "http://h:8086/write?db=telemetry&precision=u&rp=week")
        XCTAssertNil(server.headers["Authorization"])
        guard case .influx(let secure) = try Destination("influxdb+https://h:9/db") else {
            return XCTFail("not influx")
        }
        XCTAssertEqual(secure.writeURL.absoluteString, "https://h:9/write?db=db&precision=ms")
    }

    func testInfluxV2NeedsOrgBucketAndToken() throws {
        guard case .influx(let server) = try Destination("influxdb2://h:1?org=o&bucket=b", settings: credentials) else {
            return XCTFail("not influx")
        }
        XCTAssertEqual(server.api, .v2)
        XCTAssertEqual(server.writeURL.absoluteString, "http://h:1/api/v2/write?org=o&bucket=b&precision=ms")
        XCTAssertEqual(server.headers["Authorization"], "Token tok")
        XCTAssertEqual(
            message("influxdb2://h:1?org=o"),
            "cannot write influxdb2://h:1?org=o: missing org or bucket: influxdb2://HOST:PORT?org=ORG&bucket=BUCKET")
        XCTAssertEqual(
            message("influxdb2://h:1?org=o&bucket=b"),
            "cannot write influxdb2://h:1?org=o&bucket=b: InfluxDB 2.x needs an API token with write access to the bucket: set INFLUX_TOKEN"
        )
    }

    func testGraphiteDefaultsToPort2003OverTCP() throws {
        guard case .graphite(let tcp) = try Destination("graphite://carbon"),
            case .graphite(let udp) = try Destination("graphite+udp://carbon:2004")
        else { return XCTFail("not graphite") }
        XCTAssertEqual([tcp.port, udp.port], [2003, 2004])
        XCTAssertEqual([tcp.udp, udp.udp], [false, true])
        XCTAssertEqual(tcp.host, "carbon")
    }

    func testNewRelicRegionsAndEndpoint() throws {
        guard case .newRelic(let us) = try Destination("newrelic://123", settings: credentials),
            case .newRelic(let eu) = try Destination("newrelic://123?region=eu", settings: credentials)
        else { return XCTFail("not new relic") }
        XCTAssertEqual(us.eventsURL.absoluteString, "https://insights-collector.newrelic.com/v1/accounts/123/events")
        XCTAssertEqual(eu.metricsURL.absoluteString, "https://metric-api.eu.newrelic.com/metric/v1")
        var local = credentials
        local.newRelicEndpoint = "http://127.0.0.1:9000"
        guard case .newRelic(let proxy) = try Destination("newrelic://123", settings: local) else {
            return XCTFail("not new relic")
        }
        XCTAssertEqual(proxy.metricsURL.absoluteString, "http://127.0.0.1:9000/metric/v1")
        XCTAssertEqual(message("newrelic://123"), "cannot write newrelic://123: NEW_RELIC_LICENSE_KEY is not set")
    }

    func testMediastreamPostsOverHTTPOrHTTPS() throws {
        guard case .mediastream(let plain) = try Destination("mediastream+http://c/events"),
            case .mediastream(let secure) = try Destination("mediastream+https://c/events")
        else { return XCTFail("not mediastream") }
        XCTAssertEqual(plain.url.absoluteString, "http://c/events")
        XCTAssertEqual(secure.url.absoluteString, "https://c/events")
    }

    /// The messages users have always had (the CLI tests check them end to end).
    func testBadValuesSayWhatWasExpected() {
        let cases: [(String, String)] = [
            (
                "bogus",
                "unknown destination: expected stdout, file:PATH, influxdb://HOST:PORT/DB, influxdb2://HOST:PORT?org=O&bucket=B, graphite://HOST:PORT, newrelic://ACCOUNT_ID or mediastream+http://HOST/PATH"
            ),
            ("influxdb://", "missing host"),
            ("influxdb://h:1", "missing database: influxdb://HOST:PORT/DB"),
            (
                "influxdbx://h/db",
                "expected influxdb://HOST:PORT/DB, influxdb2://HOST:PORT?org=ORG&bucket=BUCKET (or their +https variants)"
            ),
            ("graphite+tcp://h", "expected graphite://HOST[:PORT] or graphite+udp://HOST[:PORT]"),
            ("graphite://", "expected graphite://HOST[:PORT] or graphite+udp://HOST[:PORT]"),
            ("newrelic://abc", "missing account id: newrelic://ACCOUNT_ID or NEW_RELIC_ACCOUNT_ID"),
            ("mediastream+ftp://h", "expected mediastream+http://HOST/PATH or mediastream+https://HOST/PATH"),
            ("mediastream+http://", "missing host"),
        ]
        for (text, why) in cases { XCTAssertEqual(message(text), "cannot write \(text): \(why)") }
    }

    func testAKindCanBeImposed() throws {
        // `send` knows the kind from the lines' format, so a Graphite URL for Influx lines is an Influx error.
        XCTAssertThrowsError(try Destination("graphite://h", as: .influx)) { error in
            XCTAssertEqual(
                (error as? OutputError)?.message,
                "expected influxdb://HOST:PORT/DB, influxdb2://HOST:PORT?org=ORG&bucket=BUCKET (or their +https variants)"
            )
        }
    }

    func testServersBuildTheirDelivery() throws {
        let ledger = DeliveryLedger(deadLetterPath: "/nonexistent/dead.jsonl")
        let texts = ["stdout", "influxdb://h/db", "graphite://h", "newrelic://1", "mediastream+http://h/p"]
        let deliveries = try texts.map {
            try Destination($0, settings: credentials).delivery(
                policy: DeliveryPolicy(), ledger: ledger, graphiteRetention: 60)
        }
        XCTAssertNil(deliveries[0])
        XCTAssertEqual(deliveries.compactMap { $0?.kind }, [.influx, .graphite, .newRelic, .mediastream])
        XCTAssertEqual(deliveries.compactMap { $0?.name }, Array(texts.dropFirst()))
        XCTAssertEqual(deliveries.compactMap { $0?.unit }, ["points", "points", "points", "events"])
        guard case .graphite(let graphite)? = deliveries[2] else { return XCTFail("not graphite") }
        XCTAssertEqual(graphite.windowFilter.window.past, 60_000)
        XCTAssertEqual(graphite.windowFilter.window.ahead, 0)
    }
}
