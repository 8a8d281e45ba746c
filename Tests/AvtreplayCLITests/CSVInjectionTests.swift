import Foundation
import XCTest

/// CSV outputs people open in a spreadsheet: text from the timeline that starts like a formula
/// (`=`, `+`, `-`, `@`) is written JSON-quoted, so the cell starts with `"` and shows as text,
/// while numbers stay numbers and `convert` reads every string back exactly.
final class CSVInjectionTests: XCTestCase {
    static let timeline = #"""
        {"trackers": [{"name": "=HYPERLINK(\"http://x\")"}], "steps": [
          {"t": 0, "tracker": "=HYPERLINK(\"http://x\")", "action": "Start",
           "set": {"@SUM(A1)": "+1+2", "dash": "-2+3", "n": -5, "eq": "=1+1"}},
          {"t": 10, "tracker": "=HYPERLINK(\"http://x\")", "action": "=cmd|' /C calc'!A0"}
        ]}
        """#

    /// Every cell of a CSV text (RFC 4180 unquoting), row by row.
    static func cells(_ csv: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var cell = ""
        var quoted = false
        var chars = Array(csv)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        cell.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(cell)
                cell = ""
            } else if c == "\n" {
                row.append(cell)
                rows.append(row)
                (row, cell) = ([], "")
            } else {
                cell.append(c)
            }
        }
        return rows
    }

    static func assertInert(_ csv: String, file: StaticString = #filePath, line: UInt = #line) {
        for row in cells(csv) {
            for cell in row {
                guard let first = cell.first else { continue }
                if first == "-", Double(cell) != nil { continue }
                XCTAssertFalse(
                    "=+-@\t\r".contains(first), "a cell a spreadsheet evaluates: \(cell)", file: file, line: line)
            }
        }
    }

    func testRunCSVCellsAreInert() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("t.json")
        try Self.timeline.write(to: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["run", path.path, "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        Self.assertInert(result.stdout)
        XCTAssertTrue(result.stdout.contains(#","""=cmd|' /C calc'!A0""","#), result.stdout)
        XCTAssertTrue(result.stdout.contains(",-5,"), "a negative number stays a number: \(result.stdout)")
    }

    func testKPICSVCellsAreInert() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.timeline.write(to: dir.appendingPathComponent("=1+1.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["kpi", "=1+1.json", "--format", "csv"], in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        Self.assertInert(result.stdout)
        XCTAssertTrue(result.stdout.contains(#""""=1+1.json""","#), result.stdout)
    }

    func testConvertRoundTripsFormulaText() throws {
        let dir = try CLI.temporaryDirectory()
        let json = dir.appendingPathComponent("t.json")
        try Self.timeline.write(to: json, atomically: true, encoding: .utf8)
        let csv = dir.appendingPathComponent("t.csv")
        let back = dir.appendingPathComponent("back.jsonl")
        XCTAssertEqual(try CLI.run(["convert", json.path, csv.path]).status, 0)
        Self.assertInert(
            String(decoding: try Data(contentsOf: csv), as: UTF8.self).split(separator: "\n").dropFirst().joined(
                separator: "\n") + "\n")
        XCTAssertEqual(try CLI.run(["convert", csv.path, back.path]).status, 0)
        let text = String(decoding: try Data(contentsOf: back), as: UTF8.self)
        for exact in [
            #""=HYPERLINK(\"http://x\")""#, #""+1+2""#, #""-2+3""#, #""=1+1""#, #""n":-5"#, #""=cmd|' /C calc'!A0""#,
        ] {
            XCTAssertTrue(text.contains(exact), "\(exact) in \(text)")
        }
        let original = try CLI.run(["run", json.path])
        let converted = try CLI.run(["run", back.path])
        XCTAssertEqual(original.stdout, converted.stdout)
    }
}
