import AVTJSON
import XCTest

/// What the parser rejects, where it says the mistake is, and how it words it.
final class JSONParserErrorTests: XCTestCase {
    func testEmptyInput() {
        assertSyntaxError("", at: 1, 1, containing: "expected a JSON value, found end of input")
        assertSyntaxError("  \n ", at: 2, 2, containing: "expected a JSON value, found end of input")
        assertSyntaxError([0xEF, 0xBB, 0xBF], at: 1, 1, containing: "found end of input")
    }

    func testContentAfterTheValue() {
        assertSyntaxError("{} x", at: 1, 4, containing: "unexpected content after the JSON value")
        assertSyntaxError("true false", at: 1, 6, containing: "unexpected content after the JSON value")
        assertSyntaxError("1 2", at: 1, 3, containing: "unexpected content after the JSON value")
        assertSyntaxError("[1]]", at: 1, 4, containing: "unexpected content after the JSON value, found ']'")
        assertSyntaxError("\"a\"\n\"b\"", at: 2, 1, containing: "unexpected content after the JSON value")
        // A byte order mark is only skipped at the very start.
        assertSyntaxError([0x31, 0xEF, 0xBB, 0xBF], at: 1, 2, containing: "unexpected content after the JSON value")
    }

    func testTrailingCommas() {
        assertSyntaxError("[1,]", at: 1, 4, containing: "expected a JSON value, found ']'")
        assertSyntaxError("[1,]", at: 1, 4, containing: "trailing comma")
        assertSyntaxError(#"{"a": 1,}"#, at: 1, 9, containing: "expected a string key, found '}'")
        assertSyntaxError("{\n  \"a\": 1,\n}", at: 3, 1, containing: "trailing comma")
        assertSyntaxError("[\n  1,\n  2,\n  ]", at: 4, 3, containing: "trailing comma")
        assertSyntaxError("[,]", at: 1, 2, containing: "expected a JSON value, found ','")
    }

    func testMissingSeparators() {
        assertSyntaxError("[1 2]", at: 1, 4, containing: "expected ',' or ']' after an array element, found '2'")
        assertSyntaxError(#"{"a": 1]"#, at: 1, 8, containing: "expected ',' or '}' after an object member, found ']'")
        assertSyntaxError(
            #"{"a": 1 "b": 2}"#, at: 1, 9, containing: "expected ',' or '}' after an object member, found '\"'")
        assertSyntaxError(#"{"a" 1}"#, at: 1, 6, containing: "expected ':' after an object key, found '1'")
        assertSyntaxError(#"{"a": }"#, at: 1, 7, containing: "expected a JSON value, found '}'")
    }

    func testKeysMustBeDoubleQuotedStrings() {
        assertSyntaxError("{1: 2}", at: 1, 2, containing: "expected a string key, found '1'")
        assertSyntaxError("{a: 2}", at: 1, 2, containing: "expected a string key, found 'a'")
        assertSyntaxError("{'a': 2}", at: 1, 2, containing: "expected a string key, found \"'\"")
        assertSyntaxError("['a']", at: 1, 2, containing: "double quotes")
    }

    func testUnexpectedEndOfInput() {
        assertSyntaxError("[", at: 1, 2, containing: "unexpected end of input inside an array")
        assertSyntaxError("[1", at: 1, 3, containing: "unexpected end of input inside an array")
        assertSyntaxError("[1,\n", at: 2, 1, containing: "unexpected end of input inside an array")
        assertSyntaxError("{", at: 1, 2, containing: "unexpected end of input inside an object")
        assertSyntaxError(#"{"a""#, at: 1, 5, containing: "unexpected end of input inside an object")
        assertSyntaxError(#"{"a":"#, at: 1, 6, containing: "unexpected end of input inside an object")
        assertSyntaxError(#"{"a":1"#, at: 1, 7, containing: "unexpected end of input inside an object")
        assertSyntaxError(#"[{"a":[1]}"#, at: 1, 11, containing: "unexpected end of input inside an array")
    }

    func testNonJSONValues() {
        assertSyntaxError("x", at: 1, 1, containing: "expected a JSON value, found 'x'")
        assertSyntaxError("[NaN]", at: 1, 2, containing: "expected a JSON value, found 'NaN'")
        assertSyntaxError("Infinity", at: 1, 1, containing: "found 'Infinity'")
        assertSyntaxError("-Infinity", at: 1, 2, containing: "expected a digit after '-', found 'Infinity'")
        assertSyntaxError("True", at: 1, 1, containing: "found 'True'")
        assertSyntaxError("tru", at: 1, 1, containing: "found 'tru'")
        assertSyntaxError("nul", at: 1, 1, containing: "expected a JSON value")
        assertSyntaxError("nulls", at: 1, 1, containing: "found 'nulls'")
        assertSyntaxError("[undefined]", at: 1, 2, containing: "found 'undefined'")
        assertSyntaxError("// note\n1", at: 1, 1, containing: "expected a JSON value, found '/'")
        assertSyntaxError("[1, /* c */ 2]", at: 1, 5, containing: "found '/'")
        assertSyntaxError("é", at: 1, 1, containing: "found 'é'")
        assertSyntaxError([0x01], at: 1, 1, containing: "found byte 0x01")
        assertSyntaxError([0x5B, 0xFF, 0x5D], at: 1, 2, containing: "found byte 0xFF")
    }

    func testNumberGrammar() {
        assertSyntaxError("01", at: 1, 2, containing: "leading zeros are not allowed")
        assertSyntaxError("-012", at: 1, 3, containing: "leading zeros are not allowed")
        assertSyntaxError("+1", at: 1, 1, containing: "expected a JSON value, found '+'")
        assertSyntaxError(".5", at: 1, 1, containing: "expected a JSON value, found '.'")
        assertSyntaxError("-", at: 1, 2, containing: "expected a digit after '-', found end of input")
        assertSyntaxError("- 1", at: 1, 2, containing: "expected a digit after '-', found a space")
        assertSyntaxError("1.", at: 1, 3, containing: "expected a digit after '.', found end of input")
        assertSyntaxError("[1.]", at: 1, 4, containing: "expected a digit after '.', found ']'")
        assertSyntaxError("1.e5", at: 1, 3, containing: "expected a digit after '.', found 'e'")
        assertSyntaxError("1e", at: 1, 3, containing: "expected a digit in the exponent")
        assertSyntaxError("1e+", at: 1, 4, containing: "expected a digit in the exponent")
        assertSyntaxError("1E-x", at: 1, 4, containing: "expected a digit in the exponent")
        assertSyntaxError("0x10", at: 1, 2, containing: "unexpected content after the JSON value, found 'x'")
        assertSyntaxError("1.5.2", at: 1, 4, containing: "unexpected content after the JSON value")
    }

    func testNumbersOutOfRange() {
        assertSyntaxError("1e400", at: 1, 1, containing: "number out of range")
        assertSyntaxError("[0, -1.5e309]", at: 1, 5, containing: "number out of range")
        assertSyntaxError("1" + String(repeating: "0", count: 400), at: 1, 1, containing: "number out of range")
        // Huge exponents saturate instead of overflowing.
        assertSyntaxError("1e99999999999999999999999", at: 1, 1, containing: "number out of range")
        XCTAssertEqual(parseValue("1e-99999999999999999999999"), .double(0))
        XCTAssertEqual(parseValue("0e99999999999999999999999"), .double(0))
    }

    func testStringErrors() {
        assertSyntaxError(#""abc"#, at: 1, 1, containing: "unterminated string")
        assertSyntaxError(#"["abc\"#, at: 1, 2, containing: "unterminated string")
        assertSyntaxError(#""\q""#, at: 1, 2, containing: #"invalid escape '\q'"#)
        assertSyntaxError(#""ab\x41""#, at: 1, 4, containing: #"invalid escape '\x'"#)
        assertSyntaxError(#""\'""#, at: 1, 2, containing: #"invalid escape '\''"#)
        assertSyntaxError([0x22, 0x5C, 0x01, 0x22], at: 1, 2, containing: "invalid escape, found byte 0x01")
        assertSyntaxError(#""\u12G4""#, at: 1, 6, containing: #"expected 4 hex digits after '\u', found 'G'"#)
        assertSyntaxError(#""\u12""#, at: 1, 6, containing: "expected 4 hex digits")
        assertSyntaxError(#""\u"#, at: 1, 4, containing: "expected 4 hex digits after '\\u', found end of input")
    }

    func testSurrogateErrors() {
        assertSyntaxError(#""\ud800""#, at: 1, 2, containing: "lone surrogate '\\ud800'")
        assertSyntaxError(#""\uD800x""#, at: 1, 2, containing: "lone surrogate")
        assertSyntaxError(#""\uD800\n""#, at: 1, 2, containing: "lone surrogate")
        assertSyntaxError(#""a\udc00""#, at: 1, 3, containing: "lone surrogate '\\udc00'")
        assertSyntaxError(#""\ud83d\ud83d""#, at: 1, 2, containing: "mismatched surrogate pair")
        assertSyntaxError(#""\ud83d\u0041""#, at: 1, 2, containing: "mismatched surrogate pair")
        assertSyntaxError(#""\ude00\ud83d""#, at: 1, 2, containing: "lone surrogate")
    }

    func testRawControlCharactersInStrings() {
        assertSyntaxError("\"a\tb\"", at: 1, 3, containing: "unescaped control character inside a string, found a tab")
        assertSyntaxError("[\"ab\ncd\"]", at: 1, 5, containing: "found a newline")
        assertSyntaxError("\"\r\"", at: 1, 2, containing: "found a carriage return")
        assertSyntaxError([0x22, 0x00, 0x22], at: 1, 2, containing: "found byte 0x00")
        assertSyntaxError([0x22, 0x1F, 0x22], at: 1, 2, containing: "found byte 0x1F")
    }

    func testInvalidUTF8InStrings() {
        let invalid: [[UInt8]] = [
            [0xFF],  // never valid
            [0x80],  // stray continuation byte
            [0xC0, 0xAF],  // overlong '/'
            [0xE0, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // encoded surrogate
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xE4, 0xB8],  // truncated before the closing quote
            [0xC3, 0x28],  // bad continuation
        ]
        for sequence in invalid {
            assertSyntaxError([0x22, 0x61] + sequence + [0x22], at: 1, 3, containing: "invalid UTF-8 inside a string")
        }
        assertSyntaxError([0x22, 0xF0, 0x9F, 0x98], at: 1, 2, containing: "invalid UTF-8")  // truncated by end of input
    }

    func testErrorLocationsCountLinesAndBytes() {
        assertSyntaxError("{\n  \"a\": [1, 2],\n  \"b\": tru\n}", at: 3, 8, containing: "found 'tru'")
        assertSyntaxError("[\"é\", x]", at: 1, 8, containing: "found 'x'")
        assertSyntaxError("[\r\n1,\r\n?]", at: 3, 1, containing: "found '?'")
        assertSyntaxError("\n\n  \"\\q\"", at: 3, 4, containing: "invalid escape")
    }

    func testNestingLimit() throws {
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNoThrow(try JSONParser.parse(allowed))
        let objects = String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512)
        XCTAssertNoThrow(try JSONParser.parse(objects))

        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        assertSyntaxError(tooDeep, at: 1, 513, containing: "nesting deeper than 512 levels")
        let tooDeepObjects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        assertSyntaxError(tooDeepObjects, at: 1, 512 * 5 + 1, containing: "nesting deeper than 512 levels")
        // Hostile input fails fast instead of exhausting the stack.
        assertSyntaxError(String(repeating: "[", count: 1_000_000), at: 1, 513, containing: "nesting deeper")
    }
}
