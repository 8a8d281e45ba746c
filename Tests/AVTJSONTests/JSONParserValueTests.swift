import AVTJSON
import XCTest

/// What the parser produces for valid input.
final class JSONParserValueTests: XCTestCase {
    // MARK: Numbers

    func testIntegerLiteralsAreInts() {
        XCTAssertEqual(parseValue("0"), .int(0))
        XCTAssertEqual(parseValue("-0"), .int(0))
        XCTAssertEqual(parseValue("42"), .int(42))
        XCTAssertEqual(parseValue("-42"), .int(-42))
        XCTAssertEqual(parseValue("1234567890123456789"), .int(1_234_567_890_123_456_789))
        XCTAssertEqual(parseValue("9223372036854775807"), .int(Int.max))
        XCTAssertEqual(parseValue("-9223372036854775808"), .int(Int.min))
    }

    func testIntegersBeyondIntBecomeDoubles() {
        XCTAssertEqual(parseValue("9223372036854775808"), .double(9_223_372_036_854_775_808.0))
        XCTAssertEqual(parseValue("-9223372036854775809"), .double(-9_223_372_036_854_775_809.0))
        XCTAssertEqual(parseValue("18446744073709551616"), .double(18_446_744_073_709_551_616.0))
        XCTAssertEqual(parseValue("123456789012345678901234567890"), .double(1.2345678901234568e29))
    }

    func testFractionOrExponentMakesADouble() {
        XCTAssertEqual(parseValue("1.0"), .double(1.0))
        XCTAssertEqual(parseValue("0.5"), .double(0.5))
        XCTAssertEqual(parseValue("-2.25"), .double(-2.25))
        XCTAssertEqual(parseValue("1e2"), .double(100))
        XCTAssertEqual(parseValue("1E2"), .double(100))
        XCTAssertEqual(parseValue("1e+2"), .double(100))
        XCTAssertEqual(parseValue("1e-2"), .double(0.01))
        XCTAssertEqual(parseValue("0e0"), .double(0))
        XCTAssertEqual(parseValue("123.456e-2"), .double(1.23456))
        XCTAssertEqual(parseValue("29.97"), .double(29.97))
        XCTAssertEqual(parseValue("1.7976931348623157e308"), .double(.greatestFiniteMagnitude))
        XCTAssertEqual(parseValue("5e-324"), .double(.leastNonzeroMagnitude))
        XCTAssertEqual(parseValue("1e-400"), .double(0))
    }

    func testNegativeZeroDoubleKeepsItsSign() throws {
        guard case .double(let zero)? = parseValue("-0.0") else { return XCTFail("not a double") }
        XCTAssertEqual(zero.sign, .minus)
        guard case .double(let zero2)? = parseValue("-0e5") else { return XCTFail("not a double") }
        XCTAssertEqual(zero2.sign, .minus)
    }

    /// Literals that sit on rounding boundaries or leave the exact fast path must agree with the
    /// standard library's correctly rounded conversion, bit for bit.
    func testDoublesAreCorrectlyRounded() {
        let literals = [
            "0.1", "0.2", "0.3", "4.35", "1e22", "1e23", "8.5e-22", "9007199254740993.0",
            "9007199254740995.0", "0.30000000000000004", "2.2250738585072011e-308",
            "2.2250738585072014e-308", "1.00000000000000011102230246251565404236316680908203125",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999",
            "7.2057594037927933e16", "1234567.8901234567e-3", "0.000000000000000000000000000001",
        ]
        for literal in literals {
            guard case .double(let parsed)? = parseValue(literal), let expected = Double(literal) else {
                XCTFail("\(literal) did not parse as a double")
                continue
            }
            XCTAssertEqual(parsed.bitPattern, expected.bitPattern, literal)
        }
    }

    func testRandomDecimalLiteralsMatchTheStandardLibrary() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            let integerDigits = Int.random(in: 1...12, using: &random)
            let fractionDigits = Int.random(in: 1...12, using: &random)
            var literal = Bool.random(using: &random) ? "-" : ""
            literal += String(Int.random(in: 1...9, using: &random))
            for _ in 1..<integerDigits { literal += String(Int.random(in: 0...9, using: &random)) }
            literal += "."
            for _ in 0..<fractionDigits { literal += String(Int.random(in: 0...9, using: &random)) }
            if Bool.random(using: &random) { literal += "e\(Int.random(in: -40...40, using: &random))" }
            guard case .double(let parsed)? = parseValue(literal), let expected = Double(literal) else {
                return XCTFail("\(literal) did not parse as a double")
            }
            XCTAssertEqual(parsed.bitPattern, expected.bitPattern, literal)
        }
    }

    // MARK: Literals and strings

    func testLiterals() {
        XCTAssertEqual(parseValue("true"), .bool(true))
        XCTAssertEqual(parseValue("false"), .bool(false))
        XCTAssertEqual(parseValue("null"), .null)
        XCTAssertEqual(parseValue(" \t\r\n null \n"), .null)
    }

    func testEveryEscape() {
        XCTAssertEqual(parseValue(#""\"\\\/\b\f\n\r\t""#), .string("\"\\/\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(parseValue(#""a\u0041\u00e9\u4E2D\u0000z""#), .string("aAé中\u{0}z"))
        XCTAssertEqual(parseValue(#""é\n中""#), .string("é\n中"))
        XCTAssertEqual(parseValue(#""\\\\""#), .string("\\\\"))
        XCTAssertEqual(parseValue(#""""#), .string(""))
    }

    func testSurrogatePairsJoin() {
        XCTAssertEqual(parseValue(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertEqual(parseValue(#""x\uD834\uDD1Ey""#), .string("x𝄞y"))
        XCTAssertEqual(parseValue(#""\uDBFF\uDFFF""#), .string("\u{10FFFF}"))
    }

    func testNonASCIIPassesThrough() {
        let text = "héllo 中文 😀 \u{7F}"
        XCTAssertEqual(parseValue("\"\(text)\""), .string(text))
        XCTAssertEqual(
            parseValue("{\"ключ\": \"значение\"}"),
            .object([
                JSONMember(key: "ключ", node: JSONNode(.string("значение"), at: SourceLocation(line: 1, column: 14)))
            ]))
    }

    func testLongStringsWithAndWithoutEscapes() {
        let long = String(repeating: "abcdefghij", count: 100)
        XCTAssertEqual(parseValue("\"\(long)\""), .string(long))
        XCTAssertEqual(parseValue("\"\(long)\\n\(long)\""), .string(long + "\n" + long))
    }

    // MARK: Structure

    func testContainers() {
        XCTAssertEqual(parseValue("[]").map(withoutLocations), .array([]))
        XCTAssertEqual(parseValue("{}").map(withoutLocations), .object([]))
        XCTAssertEqual(
            parseValue("[ [ ] , { } ]").map(withoutLocations),
            withoutLocations(
                .array([
                    JSONNode(.array([]), at: SourceLocation(line: 1, column: 3)),
                    JSONNode(.object([]), at: SourceLocation(line: 1, column: 9)),
                ])))
    }

    func testDuplicateKeysAreKeptInOrder() {
        guard case .object(let members)? = parseValue(#"{"a": 1, "b": 2, "a": 3}"#) else { return XCTFail() }
        XCTAssertEqual(members.map(\.key), ["a", "b", "a"])
        XCTAssertEqual(members.map(\.node.value), [.int(1), .int(2), .int(3)])
    }

    func testNestedDocument() {
        let text = #"{"steps": [{"t": 0, "on": true}, {"t": 1.5, "tags": ["a", null]}], "n": -3}"#
        let expected: JSONValue = .object([
            JSONMember(
                key: "steps",
                node: node(
                    .array([
                        node(
                            .object([
                                JSONMember(key: "t", node: node(.int(0))),
                                JSONMember(key: "on", node: node(.bool(true))),
                            ])),
                        node(
                            .object([
                                JSONMember(key: "t", node: node(.double(1.5))),
                                JSONMember(key: "tags", node: node(.array([node(.string("a")), node(.null)]))),
                            ])),
                    ]))),
            JSONMember(key: "n", node: node(.int(-3))),
        ])
        XCTAssertEqual(parseValue(text).map(withoutLocations), expected)
    }

    /// Editors hide the byte order mark, so columns start after it.
    func testByteOrderMarkIsSkipped() throws {
        let node = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
        XCTAssertEqual(
            node,
            JSONNode(
                .array([JSONNode(.int(1), at: SourceLocation(line: 1, column: 2))]),
                at: SourceLocation(line: 1, column: 1)))
        assertSyntaxError([0xEF, 0xBB, 0xBF] + Array("[x]".utf8), at: 1, 2, containing: "found 'x'")
    }

    func testAllEntryPointsAgree() throws {
        let text = "{\"a\": [1, \"é\"]}\n"
        let bytes = Array(text.utf8)
        let fromString = try JSONParser.parse(text)
        let fromArray = try JSONParser.parse(bytes)
        let fromBuffer = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            try JSONParser.parse(buffer)
        }
        XCTAssertEqual(fromString, fromArray)
        XCTAssertEqual(fromString, fromBuffer)
    }

    /// A buffer that is a slice of a larger one must be parsed alone, never read past its end.
    func testParsesOnlyTheGivenSlice() throws {
        let bytes = Array("[1]trailing garbage".utf8)
        let node = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            try JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[0..<3]))
        }
        XCTAssertEqual(node.value, .array([JSONNode(.int(1), at: SourceLocation(line: 1, column: 2))]))
    }

    // MARK: Locations

    func testLocationsOfNestedNodes() throws {
        let text = [
            "{",
            "  \"name\": \"x\",",
            "  \"list\": [1, {\"k\": null}],",
            "  \"t\": true",
            "}",
        ].joined(separator: "\n")
        let root = try JSONParser.parse(text)
        XCTAssertEqual(root.location, SourceLocation(line: 1, column: 1))
        guard case .object(let members) = root.value, members.count == 3 else { return XCTFail() }
        XCTAssertEqual(members[0].node.location, SourceLocation(line: 2, column: 11))
        XCTAssertEqual(members[1].node.location, SourceLocation(line: 3, column: 11))
        XCTAssertEqual(members[2].node.location, SourceLocation(line: 4, column: 8))
        guard case .array(let list) = members[1].node.value, list.count == 2 else { return XCTFail() }
        XCTAssertEqual(list[0].location, SourceLocation(line: 3, column: 12))
        XCTAssertEqual(list[1].location, SourceLocation(line: 3, column: 15))
        guard case .object(let inner) = list[1].value else { return XCTFail() }
        XCTAssertEqual(inner[0].node.location, SourceLocation(line: 3, column: 21))
    }

    func testColumnsCountBytesAndCRLFEndsLines() throws {
        let root = try JSONParser.parse("[\"é\", 2,\r\n  3]")
        guard case .array(let elements) = root.value else { return XCTFail() }
        XCTAssertEqual(
            elements.map(\.location),
            [
                SourceLocation(line: 1, column: 2),
                SourceLocation(line: 1, column: 8),  // "é" is two bytes
                SourceLocation(line: 2, column: 3),
            ])
    }

    func testFirstLineOffsetsEveryLocation() throws {
        let root = try JSONParser.parse("{\"a\":\n [true]}", firstLine: 41)
        XCTAssertEqual(root.location, SourceLocation(line: 41, column: 1))
        guard case .object(let members) = root.value else { return XCTFail() }
        XCTAssertEqual(members[0].node.location, SourceLocation(line: 42, column: 2))
        assertSyntaxError("{\"a\": x}", at: 7, 7, containing: "expected a JSON value, found 'x'", firstLine: 7)
    }

    private func node(_ value: JSONValue) -> JSONNode {
        JSONNode(value, at: SourceLocation(line: 1, column: 1))
    }
}
