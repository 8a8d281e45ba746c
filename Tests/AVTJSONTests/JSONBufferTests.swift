import XCTest

@testable import AVTJSON

/// `JSONBuffer` (the output hot path) must write exactly what `JSONWriter` writes.
final class JSONBufferTests: XCTestCase {
    private func viaBuffer(_ body: (inout JSONBuffer) -> Void) -> [UInt8] {
        var buffer = JSONBuffer(capacity: 8)  // tiny, so growth is exercised
        body(&buffer)
        return buffer.bytes
    }

    private func viaWriter(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        body(&writer)
        return writer.bytes
    }

    func testStringsMatchTheWriterWhereverTheEscapeFalls() {
        // An escape at every offset around the 8-byte words the clean-prefix scan reads.
        for special in ["\"", "\\", "\n", "\u{01}", "\u{7F}", "\t"] {
            for offset in 0..<20 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "é", count: 3) + "z"
                XCTAssertEqual(
                    viaBuffer { $0.string(text) }, viaWriter { $0.string(text) },
                    "\(special.debugDescription) at \(offset)")
            }
        }
        // Every length and every position, so the special byte also sits in the last partial
        // word (which the scan reads as an overlapping final word).
        for special in ["\"", "\u{7F}", "\u{1F}"] {
            for length in 1...26 {
                for position in 0..<length {
                    let text =
                        String(repeating: "a", count: position) + special
                        + String(repeating: "b", count: length - position - 1)
                    XCTAssertEqual(
                        viaBuffer { $0.string(text) }, viaWriter { $0.string(text) },
                        "\(special.debugDescription) at \(position) of \(length)")
                }
            }
        }
        for text in ["", "plain", "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0", "ünïcødé \"quoted\"", "😀 emoji", "/slash"] {
            XCTAssertEqual(viaBuffer { $0.string(text) }, viaWriter { $0.string(text) }, text)
        }
        XCTAssertEqual(
            String(decoding: viaBuffer { $0.string("a\"b\\c\nd\u{1F}") }, as: UTF8.self), #""a\"b\\c\nd\u001f""#)
    }

    func testTheLaneDivisionsAreExactInTheirRanges() {
        // eightDigits divides 32-bit lanes by 100 and 16-bit lanes by 10 with a multiply and a
        // shift; both must be exact over every value a lane can hold.
        for x: UInt64 in 0..<10_000 { XCTAssertEqual((x &* 10_486) >> 20, x / 100, "\(x)") }
        for y: UInt64 in 0..<100 { XCTAssertEqual((y &* 103) >> 10, y / 10, "\(y)") }
        for x: UInt64 in [0, 1, 9, 10, 99, 100, 1234, 9999, 10_000, 12_345_678, 99_999_999, 10_203_040] {
            let digits = JSONEncoding.eightDigits(x)
            let text = String(x)
            let padded = String(repeating: "0", count: 8 - text.count) + text
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: digits >> (8 * $0)) + 0x30 }
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), padded)
        }
    }

    func testIntegersMatchTheWriter() {
        for value in [0, 7, 9, 10, 99, 100, 12345, -1, -10, 1_000_000_000_000, Int.max, Int.min] {
            XCTAssertEqual(viaBuffer { $0.int(value) }, Array(String(value).utf8), "\(value)")
        }
        // Every digit count, on both sides of each power of ten (1–8, 9–16 and 17–19 digits
        // take different paths through the 8-digit groups).
        var power = 1
        for _ in 0..<18 {
            power *= 10
            for value in [power - 1, power, power + 1, -(power - 1), -power] {
                XCTAssertEqual(viaBuffer { $0.int(value) }, Array(String(value).utf8), "\(value)")
            }
        }
        // Zeros inside each 8-digit group, and random values of every length.
        for value in [
            100_000_000, 100_000_001, 10_000_000_000_000_000, 1_000_000_000_000_000_000, 1_000_000_010_000_000_001,
        ] {
            XCTAssertEqual(viaBuffer { $0.int(value) }, Array(String(value).utf8), "\(value)")
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // SplitMix64, so a failure reproduces
        for _ in 0..<20_000 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let value = Int(truncatingIfNeeded: z) >> Int(z % 63)
            XCTAssertEqual(viaBuffer { $0.int(value) }, Array(String(value).utf8), "\(value)")
        }
    }

    func testMixedPrimitivesAndGrowth() {
        let bytes = viaBuffer { b in
            b.raw("{\"k\":")
            b.double(29.97)
            b.raw(UInt8(ascii: ","))
            b.bool(false)
            b.raw(UInt8(ascii: ","))
            b.double(.nan)
            for _ in 0..<100 { b.string("0123456789") }
            b.raw("}")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{\"k\":29.97,false,null\"0123456789\""))
        XCTAssertEqual(bytes.count, 21 + 100 * 12 + 1)
    }
}
