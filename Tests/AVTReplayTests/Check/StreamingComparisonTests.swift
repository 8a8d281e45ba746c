import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTimeline

/// `check` compares a golden file read line by line with records as the replay writes them.
/// Its reports must be those of the whole comparison (`RecordComparator`), and it must keep
/// only the differences and their context, never every record.
final class StreamingComparisonTests: XCTestCase {
    /// A session: pings every second, a playback id, a few metrics, with some instants holding
    /// several records.
    private func records(_ count: Int) -> [String] {
        (0..<count).map { i in
            let t = 1000 * (i / 2)
            if i % 2 == 0 {
                return
                    #"{"type":"event","t":\#(t),"action":"Ping","tracker":"content","attributes":{"playbackId":"AB-\#(i / 400)","n":\#(i)}}"#
            }
            return
                #"{"type":"metric","t":\#(t),"name":"PlayTime","metricType":"gauge","tracker":"content","value":\#(i)}"#
        }
    }

    private func parse(_ lines: [String]) throws -> [OutputRecord] {
        try OutputLog.read(ByteInput(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), name: "x"))
    }

    private func streamed(_ expected: [String], _ actual: [String], _ options: ComparisonOptions) throws -> Comparison {
        let golden = ByteInput(bytes: Array((expected.joined(separator: "\n") + "\n").utf8), name: "golden")
        let comparison = StreamingComparison(golden: golden, options: options)
        for record in try parse(actual) { comparison.add(record) }
        return try comparison.finish()
    }

    /// Equal, a changed value, a missing record, an extra one, a renamed metric, a tail shifted
    /// in time, a shuffled instant (with and without --ignore-order), a shorter and a longer
    /// output, an empty one: the streamed reports are the whole comparison's, byte for byte.
    func testTheStreamedReportsAreTheWholeComparisons() throws {
        let base = records(600)
        var variants: [(String, [String], ComparisonOptions)] = [("equal", base, ComparisonOptions())]
        func variant(_ name: String, _ edit: (inout [String]) -> Void) {
            var copy = base
            edit(&copy)
            variants.append((name, copy, ComparisonOptions()))
        }
        variant("changed") { $0[301] = $0[301].replacingOccurrences(of: #""value":301"#, with: #""value":3010"#) }
        variant("missing") { $0.remove(at: 250) }
        variant("extra") { $0.insert($0[100], at: 100) }
        variant("renamed") { $0[401] = $0[401].replacingOccurrences(of: "PlayTime", with: "PlayTimes") }
        variant("shifted tail") { lines in
            for i in 500..<lines.count {
                let t = 1000 * (i / 2)
                lines[i] = lines[i].replacingOccurrences(of: #""t":\#(t),"#, with: #""t":\#(t + 1),"#)
            }
        }
        variant("shuffled instant") { $0.swapAt(200, 201) }
        variant("shorter") { $0.removeLast(7) }
        variant("longer") { $0 += records(620).suffix(20) }
        variant("empty") { $0 = [] }
        variant("other ids") { lines in
            lines = lines.map { $0.replacingOccurrences(of: "AB-", with: "CD-") }
        }
        var unordered = ComparisonOptions()
        unordered.ignoreOrder = true
        variants.append(("shuffled, --ignore-order", variants[7].1, unordered))
        var tolerant = ComparisonOptions()
        tolerant.tolerance = 5
        tolerant.ignore = ["n", "nothing"]
        variants.append(("shifted, --tolerance", variants[6].1, tolerant))
        for (name, actual, options) in variants {
            let whole = RecordComparator.compare(expected: try parse(base), actual: try parse(actual), options: options)
            let stream = try streamed(base, actual, options)
            XCTAssertEqual(stream.isEqual, whole.isEqual, name)
            XCTAssertEqual(stream.summary, whole.summary, name)
            XCTAssertEqual(
                DiffReport.text(stream, color: false), DiffReport.text(whole, color: false), name)
            XCTAssertEqual(
                DiffReport.text(stream, color: false, context: 0, maxDifferences: 3),
                DiffReport.text(whole, color: false, context: 0, maxDifferences: 3), name)
            var a = JSONWriter()
            var b = JSONWriter()
            DiffReport.json(stream, name: name, into: &a)
            DiffReport.json(whole, name: name, into: &b)
            XCTAssertEqual(String(decoding: a.bytes, as: UTF8.self), String(decoding: b.bytes, as: UTF8.self), name)
            XCTAssertEqual(stream.unmatchedIgnores, whole.unmatchedIgnores, name)
            XCTAssertEqual(DiffReport.firstDifference(stream), DiffReport.firstDifference(whole), name)
        }
        XCTAssertFalse(try streamed(base, variants[1].1, ComparisonOptions()).isEqual, "the test can fail")
    }

    /// Memory follows the differences: of 4,000 records with one changed, the comparison keeps
    /// that one and two records of context on each side, and counts the rest.
    func testOnlyDifferencesAndTheirContextAreKept() throws {
        let base = records(4000)
        let equal = try streamed(base, base, ComparisonOptions())
        XCTAssertTrue(equal.isEqual)
        XCTAssertEqual(equal.entries.count, 0)
        XCTAssertEqual(equal.expectedCount, 4000)
        var actual = base
        actual[3901] = actual[3901].replacingOccurrences(of: #""value":3901"#, with: #""value":1"#)
        let one = try streamed(base, actual, ComparisonOptions())
        XCTAssertEqual(one.summary, "1 difference: 1 changed, 0 missing, 0 extra (4000 expected, 4000 actual)")
        XCTAssertLessThanOrEqual(one.entries.count, 5)
        XCTAssertEqual(one.positions?.count, one.entries.count)
    }

    /// A golden file that stops being JSON Lines half-way is an error, thrown once the replay's
    /// records are all in (the timeline's own errors come first).
    func testAnUnreadableGoldenLineIsAnError() throws {
        var broken = records(10)
        broken[5] = "{not json"
        XCTAssertThrowsError(try streamed(broken, records(10), ComparisonOptions())) { error in
            XCTAssertTrue("\(error)".contains("golden:6"), "\(error)")
        }
    }
}

extension StreamingComparisonTests {
    /// A difference early in a long case holds only its span: once three instants agree again
    /// on both sides, streaming resumes, and a second difference later is found as well.
    func testAnUnequalSpanIsReleasedOnceTheOutputsAgreeAgain() throws {
        let base = records(4000)
        var actual = base
        actual[1_001] = actual[1_001].replacingOccurrences(of: #""value":1001"#, with: #""value":1"#)
        actual.remove(at: 3000)
        let golden = ByteInput(bytes: Array((base.joined(separator: "\n") + "\n").utf8), name: "golden")
        let comparison = StreamingComparison(golden: golden, options: ComparisonOptions())
        for record in try parse(actual) { comparison.add(record) }
        let result = try comparison.finish()
        XCTAssertEqual(result.summary, "2 differences: 1 changed, 1 missing, 0 extra (4000 expected, 3999 actual)")
        XCTAssertLessThan(comparison.largestSpan, 50)
        let whole = RecordComparator.compare(
            expected: try parse(base), actual: try parse(actual), options: ComparisonOptions())
        XCTAssertEqual(DiffReport.text(result, color: false), DiffReport.text(whole, color: false))
    }
}
