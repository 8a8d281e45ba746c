import Foundation
import XCTest

@testable import AVTAnalysis

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
                    CheckCase(name: "new.json", seconds: 0, outcome: .skipped("no expected output")),
                    CheckCase(name: "old.expected.jsonl", seconds: 0, outcome: .orphaned("no timeline")),
                ], timestamp: "2026-03-01T12:00:00"),
            // --strict: the same gaps as failures.
            JUnitReport.xml(
                [
                    CheckCase(name: "new.json", seconds: 0, outcome: .skipped("no expected output"), strict: true),
                    CheckCase(name: "old.expected.jsonl", seconds: 0, outcome: .orphaned("no timeline"), strict: true),
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

    func testTheSchemaRejectsWhatCIServersWouldNot() throws {
        guard let xmllint = ["/usr/bin/xmllint"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("xmllint not installed")
        }
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("junit.xsd")
        let scratch = try ScratchDirectory()
        // A testcase without a name, and a negative time: both invalid.
        let file = try scratch.write(
            "bad.xml", #"<testsuites><testsuite name="s" tests="1"><testcase time="-1"/></testsuite></testsuites>"#)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xmllint)
        process.arguments = ["--noout", "--schema", schema.path, file]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 0)
    }
}
