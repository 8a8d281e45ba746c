import XCTest

@testable import AVTDelivery
@testable import AVTOutput
@testable import AVTReplay

/// What one session of a run writes to.
final class RunBackendsTests: XCTestCase {
    private let records = RecordEncoder(trackerNames: ["content"], startTime: 0)
    private let filter = RecordFilter(events: true, metrics: true)

    func testEachFormatHasItsStream() {
        let expected: [(OutputFormat, RecordBackend.Type)] = [
            (.jsonl, JSONLinesBackend.self), (.csv, CSVRecordBackend.self), (.table, TableRecordBackend.self),
            (.influx, InfluxLineBackend.self), (.graphite, GraphiteLineBackend.self),
            (.mediastream, MediastreamLineBackend.self),
        ]
        for (format, type) in expected {
            var backends = RunBackends()
            backends.format = format
            let backend = backends.backend(sink: MemorySink(), records: records, filter: filter)
            XCTAssertTrue(Swift.type(of: backend) == type, "\(format): \(Swift.type(of: backend))")
        }
    }

    func testServersJoinTheStreamOrReplaceIt() throws {
        let ledger = DeliveryLedger(deadLetterPath: "/nonexistent/dead.jsonl")
        let server = try XCTUnwrap(
            try Destination("graphite://h").delivery(policy: DeliveryPolicy(), ledger: ledger, graphiteRetention: 60))
        var backends = RunBackends()
        backends.servers = [server]
        XCTAssertEqual(
            (backends.backend(sink: MemorySink(), records: records, filter: filter) as? FanOutBackend)?.backends.count,
            2)
        backends.writesStream = false
        XCTAssertEqual(
            (backends.backend(sink: MemorySink(), records: records, filter: filter) as? FanOutBackend)?.backends.count,
            1)
    }

    func testSpeedPacesEverything() {
        var backends = RunBackends()
        XCTAssertFalse(backends.backend(sink: MemorySink(), records: records, filter: filter) is PacedBackend)
        backends.speed = 10
        backends.maximumAge = 0.5
        let paced = backends.backend(sink: MemorySink(), records: records, filter: filter) as? PacedBackend
        XCTAssertEqual(paced?.speed, 10)
        XCTAssertEqual(paced?.maximumAge, 0.5)
        XCTAssertTrue(paced?.inner is JSONLinesBackend)
    }

    func testMediastreamOptionsFollowTheSession() {
        var encoders = OutputEncoders()
        encoders.mediastream = MediastreamOptions(contentId: "c")
        let options = encoders.mediastreamOptions(
            for: RecordEncoder(trackerNames: [], startTime: 5000, session: "a.json"))
        XCTAssertEqual(options.contentId, "c")
        XCTAssertEqual(options.startTime, 5000)
        XCTAssertEqual(options.input, "a.json")
    }

    func testInfluxFlagValues() {
        XCTAssertEqual(OutputEncoders.influxMeasurements("E,M")?.events, "E")
        XCTAssertEqual(OutputEncoders.influxMeasurements("E,M")?.metrics, "M")
        XCTAssertNil(OutputEncoders.influxMeasurements("E"))
        XCTAssertNil(OutputEncoders.influxMeasurements("a,b,c"))
        XCTAssertEqual(OutputEncoders.influxTags(" action, ,tracker ,"), ["action", "tracker"])
    }
}
