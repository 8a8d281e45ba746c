import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// The JUnit XML of `check` validates against the schema CI servers read (junit.xsd beside this
/// file), checked with xmllint. scripts/test installs xmllint; plain `swift test` skips without it.
final class JUnitSchemaTests: XCTestCase {
    func testReportsValidateAgainstTheJUnitSchema() throws {
        guard
            let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first(
                where: FileManager.default.isExecutableFile)
        else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                return XCTFail("xmllint is required (apt-get install libxml2-utils)")
            }
            throw XCTSkip("xmllint not installed (apt-get install libxml2-utils); scripts/test installs it")
        }
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("junit.xsd")
        let record = OutputRecord(
            line: 3, type: "event", t: 1000, label: "Start", tracker: "content", attributes: [("countStarts", .int(1))])
        var changed = record
        changed.attributes = [("countStarts", .int(2))]
        let differing = RecordComparator.compare(expected: [record], actual: [changed], options: ComparisonOptions())
        let equal = RecordComparator.compare(expected: [record], actual: [record], options: ComparisonOptions())
        let reports = [
            JUnitReport.xml([], timestamp: "2026-03-01T12:00:00"),
            JUnitReport.xml(
                [
                    CheckCase(name: "ok & <fine>.json", seconds: 1.5, outcome: .compared(equal)),
                    CheckCase(name: "bad.json", seconds: 0.001, outcome: .compared(differing)),
                    CheckCase(
                        name: "broken.json", seconds: 0, outcome: .error("broken.json:1:1: \u{01}control \"quoted\"")),
                    // --allow-missing: the gaps are listed as skipped.
                    CheckCase(name: "new.json", seconds: 0, outcome: .skipped("no expected output"), strict: false),
                    CheckCase(name: "old.expected.jsonl", seconds: 0, outcome: .orphaned("no timeline"), strict: false),
                ], timestamp: "2026-03-01T12:00:00"),
            // The default: the same gaps as failures.
            JUnitReport.xml(
                [
                    CheckCase(name: "new.json", seconds: 0, outcome: .skipped("no expected output")),
                    CheckCase(name: "old.expected.jsonl", seconds: 0, outcome: .orphaned("no timeline")),
                ], timestamp: "2026-03-01T12:00:00"),
        ]
        let scratch = try ScratchDirectory()
        for (n, xml) in reports.enumerated() {
            let file = try scratch.write("report\(n).xml", xml)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xmllint)
            process.arguments = ["--noout", "--schema", schema.path, file]
            let err = Pipe()
            process.standardError = err
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, message)
            XCTAssertTrue(message.contains("validates"), message)
        }
    }

    /// A long session shifted by 1 ms: the failure text holds the first differences and says
    /// how many more there are, instead of megabytes GitHub annotations would cut.
    func testAFailureIsCappedAndStartsWithTheFirstDifference() {
        let expected = (0..<1000).map {
            OutputRecord(
                line: $0 + 1, type: "metric", t: $0 * 1000, label: "Ping", tracker: nil, value: .int(1), attributes: [])
        }
        let actual = expected.map { record -> OutputRecord in
            var shifted = record
            shifted.t = record.t.map { $0 + 1 }
            return shifted
        }
        let comparison = RecordComparator.compare(expected: expected, actual: actual, options: ComparisonOptions())
        let xml = JUnitReport.xml(
            [CheckCase(name: "long.json", seconds: 0, outcome: .compared(comparison))], timestamp: "")
        XCTAssertTrue(xml.contains(#"<failure message="t=0 metric Ping t 0 → 1; 1000 differences"#), xml)
        XCTAssertTrue(xml.contains(#"type="RecordsDiffer">~ t=0 metric Ping = 1"#), xml)
        XCTAssertTrue(xml.contains("… 950 more differences\n1000 differences: 1000 changed"), xml)
        XCTAssertLessThan(xml.utf8.count, 64 * 1024)
    }

    func testTheSchemaRejectsWhatCIServersWouldNot() throws {
        guard let xmllint = ["/usr/bin/xmllint"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("xmllint not installed")
        }
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("junit.xsd")
        let scratch = try ScratchDirectory()
        // A testcase without a name, a negative time, and what Jenkins' junit-4.xsd refuses
        // (testcase@file, skipped@message): all invalid.
        let bad = [
            #"<testcase time="-1"/>"#, #"<testcase name="a" file="a.json"/>"#,
            #"<testcase name="a"><skipped message="no golden"/></testcase>"#,
        ]
        for (n, testcase) in bad.enumerated() {
            let file = try scratch.write(
                "bad\(n).xml", #"<testsuites><testsuite name="s" tests="1">"# + testcase + "</testsuite></testsuites>")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xmllint)
            process.arguments = ["--noout", "--schema", schema.path, file]
            process.standardError = Pipe()
            try process.run()
            process.waitUntilExit()
            XCTAssertNotEqual(process.terminationStatus, 0, testcase)
        }
    }
}
