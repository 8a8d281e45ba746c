import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

#if canImport(FoundationXML)
import FoundationXML
#endif

/// check/diff: normalisation, alignment, tolerance, order, and the three report formats.
final class RecordComparatorTests: XCTestCase {
    private let session = """
        {"trackers": [{"name": "content"}], "steps": [
          {"t": 0, "tracker": "content", "action": "StreamLoad"},
          {"t": 1000, "tracker": "content", "set": {"position": 5}, "action": "Start"},
          {"t": 5000, "tracker": "content", "action": "PauseBegin"},
          {"t": 8000, "tracker": "content", "action": "PauseFinish"},
          {"t": 61000, "tracker": "content", "action": "End"}]}
        """

    private func output(_ options: RunOptions = RunOptions()) throws -> [OutputRecord] {
        let timeline = try TimelineDecoder.decode(Array(session.utf8), file: "t.json")
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: options, sink: sink)
        return try OutputLog.read(ByteInput(bytes: sink.bytes, name: "out"))
    }

    private func edited(_ records: [OutputRecord], _ edit: (inout [OutputRecord]) -> Void) -> [OutputRecord] {
        var copy = records
        edit(&copy)
        return copy
    }

    private func compare(
        _ a: [OutputRecord], _ b: [OutputRecord], _ configure: (inout ComparisonOptions) -> Void = { _ in }
    )
        -> Comparison
    {
        var options = ComparisonOptions()
        configure(&options)
        return RecordComparator.compare(expected: a, actual: b, options: options)
    }

    func testOutputsWithRandomIdsCompareEqual() throws {
        var random = RunOptions()
        random.randomIds = true
        let comparison = compare(try output(), try output(random))
        XCTAssertTrue(comparison.isEqual, DiffReport.text(comparison, color: false))
        XCTAssertEqual(comparison.summary, "equal: 15 records")
    }

    func testAChangedRecordNamesTheFieldWithExpectedAndActual() throws {
        let expected = try output()
        let actual = edited(expected) { records in
            let index = records.firstIndex { $0.label == "PauseFinish" }!
            records[index].attributes = records[index].attributes.map {
                $0.key == "accumPauseTime" ? ($0.key, .int(2999)) : $0
            }
        }
        let comparison = compare(expected, actual)
        XCTAssertEqual(comparison.changed, 1)
        XCTAssertEqual(comparison.missing + comparison.extra, 0)
        guard case .changed(let e, _, let changes)? = comparison.entries.first(where: \.isDifference) else {
            return XCTFail()
        }
        XCTAssertEqual(e.label, "PauseFinish")
        XCTAssertEqual(
            changes, [FieldChange(field: "attributes.accumPauseTime", expected: .int(3000), actual: .int(2999))])
        let text = DiffReport.text(comparison, color: false)
        XCTAssertTrue(text.contains("~ t=8000 event PauseFinish (content)"), text)
        XCTAssertTrue(text.contains("    attributes.accumPauseTime: 3000 → 2999"), text)
        XCTAssertTrue(text.hasSuffix("1 difference: 1 changed, 0 missing, 0 extra (15 expected, 15 actual)\n"))
        XCTAssertTrue(compare(expected, actual) { $0.tolerance = 1 }.isEqual, "within tolerance")
        XCTAssertTrue(compare(expected, actual) { $0.ignore = ["accumPauseTime"] }.isEqual, "ignored")
    }

    func testMissingAndExtraRecordsDoNotShiftTheRest() throws {
        let expected = try output()
        let actual = edited(expected) { records in
            records.remove(at: records.firstIndex { $0.label == "PauseBegin" }!)
            var extra = records.first { $0.type == "event" }!
            extra.label = "Error"
            extra.t = 9000
            records.insert(extra, at: records.firstIndex { $0.label == "PauseFinish" }! + 1)
        }
        let comparison = compare(expected, actual)
        XCTAssertEqual(comparison.missing, 1)
        XCTAssertEqual(comparison.extra, 1)
        XCTAssertEqual(comparison.changed, 0, "everything after the gap still lines up")
        let text = DiffReport.text(comparison, color: false)
        XCTAssertTrue(text.contains("- t=5000 event PauseBegin (content)   (expected line"), text)
        XCTAssertTrue(text.contains("+ t=9000 event Error (content)   (actual line"), text)
        XCTAssertFalse(DiffReport.text(comparison, color: false).contains("\u{1B}["))
        XCTAssertTrue(DiffReport.text(comparison, color: true).contains("\u{1B}[31m- t=5000"))
    }

    func testOrderWithinAnInstantMattersUnlessIgnored() throws {
        let expected = try output()
        let actual = edited(expected) { records in
            // The metrics of Start (t=1000) in the other order.
            let first = records.firstIndex { $0.label == "StartTime" }!
            records.swapAt(first, first + 1)
        }
        XCTAssertFalse(compare(expected, actual).isEqual)
        XCTAssertTrue(compare(expected, actual) { $0.ignoreOrder = true }.isEqual)
    }

    func testAShiftedTimeIsAChangeOfT() throws {
        let expected = try output()
        let actual = edited(expected) { records in
            for i in records.indices where records[i].label == "End" || records[i].t == 61000 { records[i].t = 61040 }
        }
        let comparison = compare(expected, actual)
        XCTAssertGreaterThan(comparison.changed, 0)
        XCTAssertTrue(DiffReport.text(comparison, color: false).contains("t: 61000 → 61040"))
        XCTAssertTrue(compare(expected, actual) { $0.tolerance = 40 }.isEqual)
    }

    func testJSONReportIsAContractForTools() throws {
        let expected = try output()
        let actual = Array(expected.dropLast())
        var w = JSONWriter()
        DiffReport.json(compare(expected, actual), name: "case", into: &w)
        guard case .object(let members) = try JSONParser.parse(w.bytes).value else { return XCTFail() }
        let fields = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.node.value) })
        XCTAssertEqual(fields["equal"], .bool(false))
        XCTAssertEqual(fields["missing"], .int(1))
        guard case .array(let differences)? = fields["differences"], case .object(let first)? = differences.first?.value
        else {
            return XCTFail()
        }
        XCTAssertEqual(first.first { $0.key == "kind" }?.node.value, .string("missing"))
        XCTAssertEqual(first.first { $0.key == "action" }?.node.value, .string("End"))
    }

    func testJUnitXMLHasOneTestCasePerTimelineAndCarriesTheDiff() throws {
        let expected = try output()
        let failing = compare(expected, Array(expected.dropLast()))
        let xml = JUnitReport.xml(
            [
                CheckCase(name: "a & b.json", seconds: 0.0125, outcome: .compared(compare(expected, expected))),
                CheckCase(name: "c.json", seconds: 0.5, outcome: .compared(failing)),
                CheckCase(name: "d.json", seconds: 0, outcome: .error("d.json:1:1: expected a JSON value \u{1B} <x>")),
            ], timestamp: "2026-03-01T12:00:00")
        let document = try XMLDocument(data: Data(xml.utf8))
        let root = try XCTUnwrap(document.rootElement())
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "3")
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "1")
        XCTAssertEqual(root.attribute(forName: "errors")?.stringValue, "1")
        let suite = try XCTUnwrap(root.elements(forName: "testsuite").first)
        for required in ["name", "tests", "failures", "errors", "time", "timestamp"] {
            XCTAssertNotNil(suite.attribute(forName: required), required)
        }
        let cases = suite.elements(forName: "testcase")
        XCTAssertEqual(cases.map { $0.attribute(forName: "name")?.stringValue }, ["a & b.json", "c.json", "d.json"])
        XCTAssertTrue(cases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "avtreplay.check" })
        XCTAssertEqual(cases[0].attribute(forName: "time")?.stringValue, "0.013")
        XCTAssertTrue(cases[0].children?.isEmpty ?? true)
        let failure = try XCTUnwrap(cases[1].elements(forName: "failure").first)
        XCTAssertEqual(failure.attribute(forName: "type")?.stringValue, "RecordsDiffer")
        XCTAssertTrue(failure.stringValue?.contains("- t=61000 event End (content)") ?? false)
        XCTAssertEqual(cases[2].elements(forName: "error").first?.attribute(forName: "type")?.stringValue, "BadInput")
    }

    func testAlignmentIsAShortestEditScript() {
        let steps = SequenceAlignment.align(Array("ABCABBA"), Array("CBABAC"))
        XCTAssertEqual(
            steps.filter { if case .match = $0 { return false } else { return true } }.count, 5,
            "D = 5 for this classic pair")
        var i = 0
        var j = 0
        for step in steps {
            switch step {
            case .match(let x, let y):
                XCTAssertEqual(x, i)
                XCTAssertEqual(y, j)
                i += 1
                j += 1
            case .delete(let x):
                XCTAssertEqual(x, i)
                i += 1
            case .insert(let y):
                XCTAssertEqual(y, j)
                j += 1
            }
        }
        XCTAssertEqual(i, 7)
        XCTAssertEqual(j, 6)
    }
}
