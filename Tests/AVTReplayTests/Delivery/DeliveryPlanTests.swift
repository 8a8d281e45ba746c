import Foundation
import XCTest

@testable import AVTDelivery
@testable import AVTOutput
@testable import AVTTimeline

/// Where a run's records go, from `--to` and `-o`.
final class DeliveryPlanTests: XCTestCase {
    private func plan(_ destinations: [String], output: String = "-") throws -> DeliveryPlan {
        try DeliveryPlan(
            destinations: destinations, output: output,
            settings: DestinationSettings(environment: ["NEW_RELIC_LICENSE_KEY": "k"]),
            policy: DeliveryPolicy(), deadLetter: "/nonexistent/dead.jsonl", graphiteRetention: 86_400)
    }

    func testWithoutDestinationsRecordsGoToOutput() throws {
        XCTAssertEqual(try plan([]).streamPath, "-")
        XCTAssertEqual(try plan([], output: "out.jsonl").streamPath, "out.jsonl")
        XCTAssertTrue(try plan([]).servers.isEmpty)
    }

    func testAStreamDestinationNamesTheStream() throws {
        XCTAssertEqual(try plan(["stdout"]).streamPath, "-")
        XCTAssertEqual(try plan(["graphite://h", "file:a.csv"]).streamPath, "a.csv")
    }

    func testOnlyServersWriteNoStream() throws {
        let servers = try plan(["graphite://h", "newrelic://1", "graphite+udp://h"])
        XCTAssertNil(servers.streamPath)
        XCTAssertTrue(try servers.openStream() is MemorySink)
        XCTAssertEqual(servers.servers.map(\.name), ["graphite://h", "newrelic://1", "graphite+udp://h"])
        XCTAssertEqual(servers.serverKinds, [.graphite, .newRelic])
    }

    func testTheFirstBadDestinationIsTheError() {
        XCTAssertThrowsError(try plan(["graphite://h", "nowhere", "influxdb://"])) { error in
            XCTAssertEqual((error as? OutputError)?.path, "nowhere")
        }
    }

    func testRecordsGoToOneStream() {
        XCTAssertNoThrow(try DeliveryPlan.checkStream(destinations: ["stdout", "graphite://h"], output: "-"))
        XCTAssertNoThrow(try DeliveryPlan.checkStream(destinations: ["graphite://h"], output: "out.jsonl"))
        let message = "Give one of stdout, file:PATH or -o: records go to one file or stream."
        XCTAssertThrowsError(try DeliveryPlan.checkStream(destinations: ["stdout", "file:a"], output: "-")) {
            XCTAssertEqual($0 as? UsageError, UsageError(message))
        }
        XCTAssertThrowsError(try DeliveryPlan.checkStream(destinations: ["file:a"], output: "b")) {
            XCTAssertEqual($0 as? UsageError, UsageError(message))
        }
    }

    func testFinishWithoutServersTouchesNoDeadLetterFile() throws {
        let report = try plan(["stdout"]).finish(interruptedBy: nil)
        XCTAssertEqual(report.servers, [])
        XCTAssertNil(report.failure)
    }

    func testFinishCountsPerServer() throws {
        let servers = try plan(["graphite://h", "mediastream+http://h/p"])
        servers.ledger.countDelivered(4, to: "graphite://h")
        let report = try servers.finish(interruptedBy: nil)
        XCTAssertEqual(
            report.summary,
            [
                "graphite://h: 4 points delivered, 0 undelivered",
                "mediastream+http://h/p: 0 events delivered, 0 undelivered",
            ])
        XCTAssertNil(report.failure)
    }
}
