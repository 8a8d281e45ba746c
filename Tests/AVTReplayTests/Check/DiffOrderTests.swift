import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTTimeline

/// Differences come in time order, records far apart are never one "changed" record, and each
/// difference names the id a reviewer can search the files for.
final class DiffOrderTests: XCTestCase {
    private func parse(_ text: String) throws -> [OutputRecord] {
        try OutputLog.read(ByteInput(bytes: Array(text.utf8), name: "x"))
    }

    private func event(_ t: Int, _ action: String, id: String = "9F2C-AAAA") -> String {
        #"{"type":"event","t":\#(t),"action":"\#(action)","tracker":"content","attributes":{"playbackId":"\#(id)"}}"#
            + "\n"
    }

    /// The same record 36 s later is another record: missing at 1000, extra at 37000.
    func testRecordsFarApartAreMissingAndExtra() throws {
        let expected = try parse(event(1000, "Error") + event(40000, "End"))
        let actual = try parse(event(37000, "Error") + event(40000, "End"))
        let comparison = RecordComparator.compare(expected: expected, actual: actual, options: ComparisonOptions())
        XCTAssertEqual(comparison.summary, "2 differences: 0 changed, 1 missing, 1 extra (2 expected, 2 actual)")
        // Within the pairing window (and beyond it by --tolerance) it is one changed record.
        let near = try parse(event(3000, "Error") + event(40000, "End"))
        XCTAssertEqual(
            RecordComparator.compare(expected: expected, actual: near, options: ComparisonOptions()).changed, 1)
        var tolerant = ComparisonOptions()
        tolerant.tolerance = 40_000
        XCTAssertTrue(RecordComparator.compare(expected: expected, actual: actual, options: tolerant).isEqual)
    }

    /// An extra record written late in the file but early in time is reported where it happened.
    func testDifferencesAreInTimeOrder() throws {
        let expected = try parse(event(1000, "Start") + event(2000, "Ping") + event(3000, "End"))
        let actual = try parse(event(1000, "Start") + event(2000, "Ping") + event(3000, "End") + event(1500, "Error"))
        let text = DiffReport.text(
            RecordComparator.compare(expected: expected, actual: actual, options: ComparisonOptions()), color: false)
        let times = text.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: #"t=\d+"#, options: .regularExpression) else { return nil }
            return Int(line[range].dropFirst(2))
        }
        XCTAssertEqual(times, [1000, 1500, 2000, 3000], text)
    }

    /// A missing, an extra and a changed record each show their normalised playback id with the
    /// one the file holds.
    func testDifferencesShowTheOriginalId() throws {
        let expected = try parse(event(1000, "Start") + event(2000, "Ping"))
        let actual = try parse(event(1000, "Start", id: "77-BBBB") + event(2500, "Ping", id: "77-BBBB"))
        let text = DiffReport.text(
            RecordComparator.compare(expected: expected, actual: actual, options: ComparisonOptions()), color: false)
        XCTAssertTrue(
            text.contains(#"(expected line 2, actual line 2; playbackId "P1" ("9F2C-AAAA" in the file))"#), text)
        let gone = try parse(event(1000, "Start", id: "77-BBBB"))
        let missing = DiffReport.text(
            RecordComparator.compare(expected: expected, actual: gone, options: ComparisonOptions()), color: false)
        XCTAssertTrue(
            missing.contains(#"(expected line 2, missing; playbackId "P1" ("9F2C-AAAA" in the file))"#), missing)
    }
}
