import AVTJSON
import XCTest

/// The same value with every location set to 1:1, so values parsed from differently laid out
/// texts (or re-serialized ones) compare equal exactly when their content is equal.
func withoutLocations(_ value: JSONValue) -> JSONValue {
    let origin = SourceLocation(line: 1, column: 1)
    switch value {
    case .array(let elements):
        return .array(elements.map { JSONNode(withoutLocations($0.value), at: origin) })
    case .object(let members):
        return .object(
            members.map { JSONMember(key: $0.key, node: JSONNode(withoutLocations($0.node.value), at: origin)) })
    default:
        return value
    }
}

func parseValue(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
    do {
        return try JSONParser.parse(text).value
    } catch {
        XCTFail("unexpected error for \(text.debugDescription): \(error)", file: file, line: line)
        return nil
    }
}

/// Asserts that parsing fails at `line:column` with a message containing `phrase`.
func assertSyntaxError(
    _ bytes: [UInt8], at expectedLine: Int, _ expectedColumn: Int, containing phrase: String,
    firstLine: Int = 1, file: StaticString = #filePath, line: UInt = #line
) {
    do {
        let node = try JSONParser.parse(bytes, firstLine: firstLine)
        XCTFail("expected an error, parsed \(node.value)", file: file, line: line)
    } catch {
        XCTAssertEqual(
            error.location, SourceLocation(line: expectedLine, column: expectedColumn),
            "location of \(error)", file: file, line: line)
        XCTAssertTrue(
            error.message.contains(phrase), "\(error.message.debugDescription) lacks \(phrase.debugDescription)",
            file: file, line: line)
    }
}

func assertSyntaxError(
    _ text: String, at expectedLine: Int, _ expectedColumn: Int, containing phrase: String,
    firstLine: Int = 1, file: StaticString = #filePath, line: UInt = #line
) {
    assertSyntaxError(
        Array(text.utf8), at: expectedLine, expectedColumn, containing: phrase,
        firstLine: firstLine, file: file, line: line)
}

func written(_ body: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter(capacity: 16)
    body(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
}

/// A small, fast, seedable PRNG (SplitMix64) so randomized tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
