import AVTJSON
import XCTest

/// Seeded mutations of valid documents. Reaching the end proves no input crashes the parser;
/// every error must point inside the input, and every success must survive a write → parse round trip.
final class JSONFuzzTests: XCTestCase {
    private let seeds: [String] = [
        #"{"t": 1234, "tracker": "content", "action": "BufferBegin", "attributes": {"foo": 1, "ratio": 0.5}}"#,
        "{\n  \"steps\": [\n    {\"t\": 0, \"on\": true, \"x\": null},\n    {\"t\": -1.5e3, \"tags\": [\"a\", \"b\"]}\n  ],\n  \"n\": 9223372036854775807\n}\n",
        #"["esc \"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00", "héllo 中文", [], {}, [[[0]]], -0.0, 1E+2, false]"#,
        #"{"a":{"b":{"c":[1,2,{"d":"e"}]}},"a":12345678901234567890}"#,
    ]

    /// Bytes that steer mutations toward the parser's interesting branches.
    private let interesting: [UInt8] =
        Array(#"{}[]",:\/-+.eE0123456789tfnu "#.utf8) + [
            0x00, 0x0A, 0x0D, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF,
        ]

    func testMutatedDocumentsNeverCrash() {
        var random = SplitMix64(seed: 0xA57_2024)
        var parsedCount = 0
        var errorCount = 0
        for _ in 0..<20_000 {
            var bytes = Array(seeds[Int(random.next() % UInt64(seeds.count))].utf8)
            for _ in 0..<(1 + random.next() % 4) { mutate(&bytes, using: &random) }
            do {
                let node = try JSONParser.parse(bytes)
                parsedCount += 1
                assertRoundTrips(node, from: bytes)
            } catch {
                errorCount += 1
                assertPointsInside(error, bytes)
            }
        }
        // Both outcomes must be exercised, or the mutations are too weak or too strong.
        XCTAssertGreaterThan(parsedCount, 500)
        XCTAssertGreaterThan(errorCount, 5_000)
    }

    func testRandomBytesNeverCrash() {
        var random = SplitMix64(seed: 99)
        for _ in 0..<5_000 {
            let count = Int(random.next() % 40)
            let bytes = (0..<count).map { _ in
                random.next() % 2 == 0
                    ? interesting[Int(random.next() % UInt64(interesting.count))]
                    : UInt8(truncatingIfNeeded: random.next())
            }
            do {
                assertRoundTrips(try JSONParser.parse(bytes), from: bytes)
            } catch {
                assertPointsInside(error, bytes)
            }
        }
    }

    private func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
        let replacement =
            random.next() % 2 == 0
            ? interesting[Int(random.next() % UInt64(interesting.count))]
            : UInt8(truncatingIfNeeded: random.next())
        switch random.next() % 5 {
        case 0 where !bytes.isEmpty:
            bytes[position] ^= 1 << UInt8(random.next() % 8)
        case 1 where !bytes.isEmpty:
            bytes[position] = replacement
        case 2:
            bytes.insert(replacement, at: position)
        case 3 where !bytes.isEmpty:
            bytes.remove(at: position)
        default:
            // Duplicate a run, which also builds deeper nesting and longer tokens.
            guard !bytes.isEmpty else { return }
            let length = min(Int(random.next() % 16) + 1, bytes.count - position)
            bytes.insert(contentsOf: bytes[position..<(position + length)], at: position)
        }
    }

    private func assertRoundTrips(
        _ node: JSONNode, from bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line
    ) {
        var writer = JSONWriter()
        writer.value(node.value)
        do {
            let reparsed = try JSONParser.parse(writer.bytes)
            XCTAssertEqual(
                withoutLocations(reparsed.value), withoutLocations(node.value),
                "round trip of \(String(decoding: bytes, as: UTF8.self).debugDescription)", file: file, line: line)
        } catch {
            XCTFail(
                "writer output of \(String(decoding: bytes, as: UTF8.self).debugDescription) does not parse: \(error)",
                file: file, line: line)
        }
    }

    /// The reported line and column must name a byte of the input, or the position just past its end.
    private func assertPointsInside(
        _ error: JSONSyntaxError, _ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        var lineStarts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
        let lineIndex = error.location.line - 1
        guard lineIndex >= 0, lineIndex < lineStarts.count, error.location.column >= 1 else {
            return XCTFail("\(error) is outside the input", file: file, line: line)
        }
        // Columns on the first line are counted after a byte order mark.
        let columnOrigin = lineIndex == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : lineStarts[lineIndex]
        let lineEnd = lineIndex + 1 < lineStarts.count ? lineStarts[lineIndex + 1] - 1 : bytes.count
        XCTAssertLessThanOrEqual(
            columnOrigin + error.location.column - 1, lineEnd,
            "\(error) is past the end of its line", file: file, line: line)
    }
}
