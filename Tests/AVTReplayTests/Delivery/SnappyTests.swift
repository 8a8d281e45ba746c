import XCTest

@testable import AVTDelivery

/// Snappy's block format (format_description.txt), the compression remote write requires.
final class SnappyTests: XCTestCase {
    func testBytesWorkedByHand() {
        // The length as a varint, then a literal: tag (length - 1) << 2.
        XCTAssertEqual(Snappy.compress([]), [0x00])
        XCTAssertEqual(Snappy.compress(Array("abcd".utf8)), [0x04, 0x0C] + Array("abcd".utf8))
        // Under 15 bytes, nothing is looked up: one literal.
        XCTAssertEqual(
            Snappy.compress(Array("abcdabcdabcd".utf8)), [0x0C, 0x2C] + Array("abcdabcdabcd".utf8))
        // "abcd" eight times: the literal, then one copy of 28 bytes from 4 back, in the two-byte
        // offset form (a length over 11): tag (length - 1) << 2 | 10, then the offset, little-endian.
        XCTAssertEqual(
            Snappy.compress(Array(String(repeating: "abcd", count: 8).utf8)),
            [0x20, 0x0C] + Array("abcd".utf8) + [0x6E, 0x04, 0x00])
        // A short copy (length 4 to 11, offset under 2048) takes the one-byte offset form: tag
        // (offset >> 8) << 5 | (length - 4) << 2 | 01, then the offset's low byte.
        let short = Array("0123456789abcdefghij-0123456789-ABCDEFGHIJKLMNOP".utf8)
        XCTAssertEqual(
            Snappy.compress(short),
            [0x30, 0x50] + Array("0123456789abcdefghij-".utf8) + [0x19, 0x15, 0x40] + Array("-ABCDEFGHIJKLMNOP".utf8))
    }

    func testEveryInputDecodesBackWhateverItsSizeAndRepetition() throws {
        var generator = SystemRandomNumberGenerator()
        var inputs: [[UInt8]] = [
            Array(repeating: 0x61, count: 200_000),  // long copies, across 64 KiB fragments
            (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) },  // long literals
            Array(
                String(
                    repeating: "oavt_events_total{action=\"Ping\",tracker=\"content\"} 1 1772366400.000\n", count: 3000
                ).utf8),
        ]
        for n in [1, 2, 3, 4, 5, 14, 15, 16, 17, 59, 60, 61, 255, 256, 257, 65_535, 65_536, 65_537, 200_003] {
            inputs.append((0..<n).map { _ in UInt8.random(in: 0...3, using: &generator) })
        }
        for input in inputs {
            let compressed = Snappy.compress(input)
            XCTAssertEqual(try RemoteWriteDecoder.snappy(compressed), input, "\(input.count) bytes")
        }
        XCTAssertLessThan(Snappy.compress(inputs[2]).count, inputs[2].count / 10, "repetitive text compresses")
    }
}
