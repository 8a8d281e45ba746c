import AVTJSON
import XCTest

final class JSONWriterTests: XCTestCase {
    func testIntegers() {
        XCTAssertEqual(written { $0.int(0) }, "0")
        XCTAssertEqual(written { $0.int(7) }, "7")
        XCTAssertEqual(written { $0.int(-7) }, "-7")
        XCTAssertEqual(written { $0.int(1_234_567_890) }, "1234567890")
        XCTAssertEqual(written { $0.int(Int.max) }, "9223372036854775807")
        XCTAssertEqual(written { $0.int(Int.min) }, "-9223372036854775808")
    }

    func testDoublesUseShortestRoundTripForm() {
        XCTAssertEqual(written { $0.double(25.0) }, "25.0")
        XCTAssertEqual(written { $0.double(29.97) }, "29.97")
        XCTAssertEqual(written { $0.double(0.1) }, "0.1")
        XCTAssertEqual(written { $0.double(-2.5) }, "-2.5")
        XCTAssertEqual(written { $0.double(1e-7) }, "1e-07")
        XCTAssertEqual(written { $0.double(1e20) }, "1e+20")
        XCTAssertEqual(written { $0.double(-0.0) }, "-0.0")
        XCTAssertEqual(written { $0.double(.leastNonzeroMagnitude) }, "5e-324")
        XCTAssertEqual(written { $0.double(.greatestFiniteMagnitude) }, "1.7976931348623157e+308")
    }

    func testNonFiniteDoublesBecomeNull() {
        XCTAssertEqual(written { $0.double(.nan) }, "null")
        XCTAssertEqual(written { $0.double(.signalingNaN) }, "null")
        XCTAssertEqual(written { $0.double(.infinity) }, "null")
        XCTAssertEqual(written { $0.double(-.infinity) }, "null")
        XCTAssertEqual(
            written { $0.value(.array([JSONNode(.double(.nan), at: SourceLocation(line: 1, column: 1))])) }, "[null]")
    }

    /// Every finite double the writer prints must read back as the same double (not an int).
    func testRandomDoublesRoundTripBitForBit() throws {
        var random = SplitMix64(seed: 42)
        var writer = JSONWriter()
        for _ in 0..<10_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            writer.removeAll()
            writer.double(value)
            guard case .double(let parsed) = try JSONParser.parse(writer.bytes).value else {
                return XCTFail("\(value) did not read back as a double")
            }
            XCTAssertEqual(parsed.bitPattern, value.bitPattern, "\(value)")
        }
    }

    func testStringEscaping() {
        XCTAssertEqual(written { $0.string("") }, #""""#)
        XCTAssertEqual(written { $0.string("plain text") }, #""plain text""#)
        XCTAssertEqual(written { $0.string("a\"b\\c/d") }, #""a\"b\\c/d""#)
        XCTAssertEqual(written { $0.string("\u{8}\u{C}\n\r\t") }, #""\b\f\n\r\t""#)
        XCTAssertEqual(written { $0.string("\u{0}\u{1}\u{1B}\u{1F}\u{7F}") }, #""\u0000\u0001\u001b\u001f\u007f""#)
        XCTAssertEqual(written { $0.string("é中😀\u{2028}") }, "\"é中😀\u{2028}\"")
        XCTAssertEqual(written { $0.string("x\ny") }, #""x\ny""#)
    }

    func testLiteralsAndRawStructure() {
        let text = written { writer in
            writer.raw("{\"type\":")
            writer.string("event")
            writer.raw(UInt8(ascii: ","))
            writer.raw("\"ok\":")
            writer.bool(true)
            writer.raw(",\"off\":")
            writer.bool(false)
            writer.raw(",\"none\":")
            writer.null()
            writer.raw(UInt8(ascii: "}"))
        }
        XCTAssertEqual(text, #"{"type":"event","ok":true,"off":false,"none":null}"#)
    }

    func testValueIsCompactAndKeepsMemberOrder() {
        let at = SourceLocation(line: 1, column: 1)
        let value: JSONValue = .object([
            JSONMember(key: "b", node: JSONNode(.int(1), at: at)),
            JSONMember(
                key: "a",
                node: JSONNode(
                    .array([
                        JSONNode(.bool(true), at: at), JSONNode(.null, at: at),
                        JSONNode(.double(2.5), at: at), JSONNode(.string("x"), at: at),
                        JSONNode(.array([]), at: at),
                    ]), at: at)),
            JSONMember(key: "b", node: JSONNode(.object([]), at: at)),
        ])
        XCTAssertEqual(written { $0.value(value) }, #"{"b":1,"a":[true,null,2.5,"x",[]],"b":{}}"#)
    }

    func testRemoveAllKeepsCapacity() {
        var writer = JSONWriter(capacity: 1024)
        writer.string(String(repeating: "x", count: 500))
        let capacity = writer.bytes.capacity
        writer.removeAll()
        XCTAssertTrue(writer.bytes.isEmpty)
        XCTAssertEqual(writer.bytes.capacity, capacity)
        writer.int(5)
        XCTAssertEqual(writer.bytes, Array("5".utf8))
        writer.removeAll(keepingCapacity: false)
        XCTAssertTrue(writer.bytes.isEmpty)
    }

    /// Every character that needs escaping, and many that don't, survive write → parse.
    func testEscapingRoundTrips() throws {
        var everything = ""
        for scalar in 0..<0x80 { everything.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        everything += "é中😀\u{FEFF}\u{10FFFF}\\u0041\""
        let at = SourceLocation(line: 1, column: 1)
        let value: JSONValue = .object([
            JSONMember(key: everything, node: JSONNode(.string(everything), at: at)),
            JSONMember(
                key: "numbers",
                node: JSONNode(
                    .array([
                        JSONNode(.int(Int.min), at: at), JSONNode(.int(Int.max), at: at), JSONNode(.int(0), at: at),
                        JSONNode(.double(1.0), at: at), JSONNode(.double(-0.0), at: at),
                        JSONNode(.double(1e300), at: at),
                        JSONNode(.double(1e-300), at: at), JSONNode(.double(123.456), at: at),
                    ]), at: at)),
        ])
        var writer = JSONWriter()
        writer.value(value)
        let parsed = try JSONParser.parse(writer.bytes)
        XCTAssertEqual(withoutLocations(parsed.value), value)
    }
}
