import XCTest

@testable import AVTDelivery

/// Options that shape an output the run does not write are named in a warning.
final class UnusedOptionsTests: XCTestCase {
    private let all: Set<String> = [
        "--mediastream-content-id", "--mediastream-unique-id", "--influx-precision", "--influx-compat",
        "--influx-measurements",
        "--influx-tags", "--influx-gzip", "--graphite-prefix", "--graphite-events", "--graphite-step",
        "--graphite-aggregate",
        "--graphite-retention", "--newrelic-endpoint",
    ]

    func testNothingGivenNothingSaid() {
        XCTAssertEqual(UnusedOptions.warnings(given: [], stream: .jsonl, servers: []), [])
    }

    func testEveryGroupIsNamedInOrder() {
        XCTAssertEqual(
            UnusedOptions.warnings(given: all, stream: .jsonl, servers: []),
            [
                "--mediastream-content-id and --mediastream-unique-id ignored: nothing is written as Mediastream events (--format mediastream to stdout or a file, or --to mediastream+http(s)://HOST/PATH)",
                "--influx-precision, --influx-compat, --influx-measurements and --influx-tags ignored: nothing is written as InfluxDB line protocol (--format influx, or --to influxdb://…)",
                "--influx-gzip ignored: nothing is written to an InfluxDB server (--to influxdb://…)",
                "--graphite-prefix, --graphite-events, --graphite-step and --graphite-aggregate ignored: nothing is written for Graphite (--format graphite, or --to graphite://…)",
                "--graphite-retention ignored: nothing is written to a Graphite server (--to graphite://…)",
                "--newrelic-endpoint ignored: nothing is written to New Relic (--to newrelic://…)",
            ])
    }

    func testAStreamFormatUsesItsEncodingButNotItsServer() {
        let influx = UnusedOptions.warnings(given: ["--influx-tags", "--influx-gzip"], stream: .influx, servers: [])
        XCTAssertEqual(influx, ["--influx-gzip ignored: nothing is written to an InfluxDB server (--to influxdb://…)"])
        let graphite = UnusedOptions.warnings(
            given: ["--graphite-step", "--graphite-retention"], stream: .graphite, servers: [])
        XCTAssertEqual(
            graphite, ["--graphite-retention ignored: nothing is written to a Graphite server (--to graphite://…)"])
        XCTAssertEqual(
            UnusedOptions.warnings(given: ["--mediastream-unique-id"], stream: .mediastream, servers: []), [])
    }

    func testAServerUsesEverythingOfItsKind() {
        XCTAssertEqual(
            UnusedOptions.warnings(given: all, stream: nil, servers: [.influx, .graphite, .newRelic, .mediastream]), [])
        // Without a stream, --format shapes nothing.
        XCTAssertEqual(UnusedOptions.warnings(given: ["--influx-tags"], stream: nil, servers: [.graphite]).count, 1)
    }
}
