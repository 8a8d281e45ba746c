import XCTest

@testable import AVTKPI

/// A table cell written as bytes is the text `KPIReport.pad(KPIReport.text(value))` gives (the
/// table's own rule), after a blank when it is not the first column.
final class KPITableCellTests: XCTestCase {
    private func expected(_ value: KPIValue?, width: Int, separated: Bool) -> [UInt8] {
        let text = (separated ? " " : "") + KPIReport.pad(value.map(KPIReport.text) ?? "–", width, right: true)
        return Array(text.utf8)
    }

    func testCellsAreThePaddedTextOfTheirValue() {
        var ints = [0, 1, -1, 9, 10, -10, 99, 100, 12_345, -98_765, 1_234_567_890_123, -12_345_678_901_234]
        ints += [Int.max, Int.min, Int.max - 1, Int.min + 1, 99_999_999_999_999, -9_999_999_999_999]
        var values: [KPIValue?] = ints.map { .int($0) }
        values += [nil, .bool(true), .bool(false), .double(0.5), .double(1 / 3), .double(-2.25), .double(1e20)]
        for value in values {
            for width in [0, 1, 5, 14, 20] {
                for separated in [false, true] {
                    var line: [UInt8] = [UInt8(ascii: "x")]
                    KPITableCell.append(value, width: width, separated: separated, to: &line)
                    XCTAssertEqual(
                        line, [UInt8(ascii: "x")] + expected(value, width: width, separated: separated),
                        "\(String(describing: value)) in \(width) columns")
                }
            }
        }
    }

    /// Right-aligned in 14 columns: the digits end at the column's right edge.
    func testAWholeNumberEndsAtTheRightEdge() {
        var line: [UInt8] = []
        KPITableCell.append(.int(-42), width: 14, separated: true, to: &line)
        XCTAssertEqual(String(decoding: line, as: UTF8.self), "            -42")
        line = []
        KPITableCell.append(nil, width: 14, separated: false, to: &line)
        XCTAssertEqual(String(decoding: line, as: UTF8.self), "             –")
    }
}
