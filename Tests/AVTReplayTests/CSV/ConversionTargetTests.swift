import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTimeline
@testable import AVTTrackers

/// `convert`'s output format and its `--tracker` warning.
final class ConversionTargetTests: XCTestCase {
    func testTheFormatIsGivenOrFromTheExtension() throws {
        XCTAssertEqual(try ConversionTarget.format(of: "a.csv", given: nil), .csv)
        XCTAssertEqual(try ConversionTarget.format(of: "a.ndjson", given: nil), .jsonl)
        XCTAssertEqual(try ConversionTarget.format(of: "a.csv", given: .json), .json)
        XCTAssertEqual(try ConversionTarget.format(of: "-", given: .csv), .csv)
        XCTAssertThrowsError(try ConversionTarget.format(of: "-", given: nil)) {
            XCTAssertEqual(
                $0 as? UsageError, UsageError("Writing to standard output needs --output-format json, jsonl or csv."))
        }
        XCTAssertThrowsError(try ConversionTarget.format(of: "a.txt", given: nil)) {
            XCTAssertEqual(
                $0 as? UsageError,
                UsageError(
                    "Cannot tell the output format from 'a.txt': use a .json, .jsonl or .csv name, or --output-format.")
            )
        }
    }

    func testTrackersOnlyMatterToCSVWithoutSettings() throws {
        let json = try TimelineReader.open(
            ByteInput(bytes: Array(#"{"trackers": [{"name": "c"}], "steps": []}"#.utf8), name: "a.json"), format: nil)
        XCTAssertNil(ConversionTarget.trackerWarning(json, trackersGiven: false))
        XCTAssertEqual(
            ConversionTarget.trackerWarning(json, trackersGiven: true),
            "--tracker ignored: it applies to CSV timelines only")
        let content = [TrackerSpec(name: "c")]
        let plain = try CSVTestSupport.csv("t,tracker\n", trackers: content)
        XCTAssertNil(ConversionTarget.trackerWarning(plain, trackersGiven: true))
        let declared = try CSVTestSupport.csv(
            "#avtreplay {\"trackers\": [{\"name\": \"c\"}]}\nt,tracker\n", trackers: content)
        XCTAssertEqual(
            ConversionTarget.trackerWarning(declared, trackersGiven: true),
            "--tracker ignored: \(declared.name) declares its trackers in its #avtreplay line")
    }

    func testADirectoryOrSeveralSessionsGetAnOverview() {
        XCTAssertFalse(ReportInput.wantsOverview(sessions: 1, inputs: ["a.json"]))
        XCTAssertTrue(ReportInput.wantsOverview(sessions: 2, inputs: ["a.jsonl"]))
        XCTAssertTrue(ReportInput.wantsOverview(sessions: 1, inputs: ["-", NSTemporaryDirectory()]))
        XCTAssertFalse(ReportInput.wantsOverview(sessions: 1, inputs: ["-"]))
    }
}
