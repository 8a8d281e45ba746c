import XCTest

@testable import AVTJSON

/// A value parsed alone, out of a larger document: locations and the nesting limit are the
/// document's, and what follows the value is left alone.
final class JSONParserPieceTests: XCTestCase {
    private func piece(_ text: String, at location: SourceLocation, depth: Int = 0) throws(JSONSyntaxError) -> (
        node: JSONNode, count: Int
    ) {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
            try JSONParser.parseValue(buffer, at: location, depth: depth)
        }
    }

    func testLocationsAreTheDocuments() throws {
        let (node, count) = try piece("{\"a\":\n  [1, 2]} , 3", at: SourceLocation(line: 7, column: 12))
        XCTAssertEqual(count, 15)
        XCTAssertEqual(node.location, SourceLocation(line: 7, column: 12))
        guard case .object(let members) = node.value, case .array(let items) = members[0].node.value else {
            return XCTFail("\(node)")
        }
        XCTAssertEqual(members[0].node.location, SourceLocation(line: 8, column: 3))
        XCTAssertEqual(items[1].location, SourceLocation(line: 8, column: 7))
        XCTAssertThrowsError(try piece("{\"a\": tru}", at: SourceLocation(line: 3, column: 5))) {
            XCTAssertEqual("\($0)", "3:11: expected a JSON value, found 'tru'")
        }
        XCTAssertThrowsError(try piece("[1,\n 2,\n ]", at: SourceLocation(line: 3, column: 5))) {
            XCTAssertEqual("\($0)", "5:2: expected a JSON value, found ']' (trailing commas are not allowed)")
        }
        XCTAssertThrowsError(try piece("{\"a\": 1", at: SourceLocation(line: 2, column: 2))) {
            XCTAssertEqual("\($0)", "2:9: unexpected end of input inside an object")
        }
    }

    func testTokensStopAtWhatFollowsThem() throws {
        XCTAssertEqual(try piece("12x", at: SourceLocation(line: 1, column: 1)).count, 2)
        XCTAssertEqual(try piece("\"a\"]", at: SourceLocation(line: 1, column: 1)).count, 3)
        XCTAssertThrowsError(try piece("-\"", at: SourceLocation(line: 1, column: 4))) {
            XCTAssertEqual("\($0)", "1:5: expected a digit after '-', found '\"'")
        }
    }

    func testEnclosingContainersCountTowardsTheNestingLimit() throws {
        let nested = String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
        XCTAssertNoThrow(try piece(nested, at: SourceLocation(line: 1, column: 1), depth: 2))
        XCTAssertThrowsError(try piece(nested, at: SourceLocation(line: 1, column: 1), depth: 3)) {
            XCTAssertEqual("\($0)", "1:510: nesting deeper than 512 levels")
        }
    }

    func testDescribesTheInputAsErrorsDo() {
        let bytes = Array("NaN, é".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            XCTAssertEqual(JSONParser.describe(buffer, at: 0), "'NaN'")
            XCTAssertEqual(JSONParser.describe(buffer, at: 4), "a space")
            XCTAssertEqual(JSONParser.describe(buffer, at: 5), "'é'")
            XCTAssertEqual(JSONParser.describe(buffer, at: bytes.count), "end of input")
        }
    }
}
