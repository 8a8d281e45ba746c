import XCTest

@testable import AVTTimeline

/// Where a value ends, found in one scan or in pieces split anywhere.
final class JSONValueExtentTests: XCTestCase {
    /// The end found by scanning `text` in pieces of `piece` bytes, and the lines counted.
    private func end(_ text: String, piece: Int) -> (end: Int?, line: Int, lineStart: Int) {
        let bytes = Array(text.utf8)
        var extent = JSONValueExtent()
        var (line, lineStart) = (1, 0)
        var from = 0
        while from < bytes.count {
            let to = min(bytes.count, from + piece)
            if let end = extent.scan(bytes, from..<to, base: 0, line: &line, lineStart: &lineStart) {
                return (end, line, lineStart)
            }
            from = to
        }
        return (nil, line, lineStart)
    }

    func testValuesEndWhereTheirTextEnds() {
        let cases: [(text: String, end: Int?)] = [
            (#"{"a": [1, {"b": "]}"}]}, 2"#, 23), (#"[[], {}]]"#, 8), (#""a\"b\\" , 1"#, 8), (#""\\\\"x"#, 6),
            ("123,", 3), ("-1.5e3]", 6), ("true}", 4), ("null ", 4), ("1\n", 1), ("tru", nil), (",", nil),
            ("}", nil), ("x\"", 1), (#"{"unterminated": "}"#, nil), (#""a"#, nil), ("{\"a\":\n[\n]\n}\n", 11),
        ]
        for (text, expected) in cases {
            for piece in 1...text.utf8.count {
                XCTAssertEqual(end(text, piece: piece).end, expected, "\(text) in pieces of \(piece)")
            }
        }
    }

    func testLineEndsAreCounted() {
        let text = "{\"a\":\n[\n1]\r\n}"
        for piece in 1...text.utf8.count {
            let found = end(text, piece: piece)
            XCTAssertEqual(found.end, text.utf8.count)
            XCTAssertEqual(found.line, 4)
            XCTAssertEqual(found.lineStart, 12)
        }
    }

    func testAnEmptyRangeEndsNothing() {
        var extent = JSONValueExtent()
        var (line, lineStart) = (1, 0)
        XCTAssertNil(extent.scan(Array("{}".utf8), 0..<0, base: 0, line: &line, lineStart: &lineStart))
        XCTAssertEqual(extent.scan(Array("{}".utf8), 0..<2, base: 0, line: &line, lineStart: &lineStart), 2)
    }
}
