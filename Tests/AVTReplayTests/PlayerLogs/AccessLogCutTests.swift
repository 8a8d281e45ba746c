import XCTest

@testable import AVTTimeline

/// The byte cut of an access log line (`AccessLogLine.cut`, a word at a time on lines without a
/// quote) must find the tokens the text cut (`AccessLogRow.cut`, byte by byte) finds, on every
/// part of a line, whatever the places asked for; the fixed-shape date reading must read what
/// the general one reads.
final class AccessLogCutTests: XCTestCase {
    private static let lines = [
        "2025/11/03 20:14:30.030 https://media.example.com/show/v360/prog.m3u8 "
            + "00000002-1B9E-4C8A-9E61-000000000002 203.0.113.7 0 8 36.000 30.000 30.250 11250000 "
            + "6000000.000 1080000 1 4 1.500 0 2 - - 120000.000 VOD 0 -",
        "  a  bb   ccc    dddd     " + String(repeating: "x", count: 70) + "  " + String(repeating: " ", count: 64)
            + "y",
        String(repeating: "ab ", count: 50),
        String(repeating: "abcdefgh", count: 16) + " " + String(repeating: "z", count: 63) + " q",
        "2025/11/03 20:14:36.036 https://m/seg9.ts g 203.0.113.7 -12938 \"CoreMediaErrorDomain\" "
            + "\"HTTP 404: File Not Found\" en0 a\"b c\" \"open",
        "\ttab\tin  tokens \t ",
    ]

    /// The tokens as the text cut finds them in `bytes[from..<to]`, as places in `bytes`.
    private func reference(_ bytes: [UInt8], _ from: Int, _ to: Int) -> [Range<Int>] {
        let text = String(decoding: bytes[from..<to], as: UTF8.self)
        return AccessLogRow.cut(Substring(text)).cuts.map { ($0.lowerBound + from)..<($0.upperBound + from) }
    }

    private func cut(_ bytes: [UInt8], _ from: Int, _ to: Int, places: Int, room: Int) -> (Int, [Range<Int>]) {
        var cuts = [Int](repeating: -7, count: 2 * room)
        let count = AccessLogLine.cut(bytes, from, to, into: &cuts, places: places)
        let written = count < 0 ? 0 : Swift.min(count, places, room)
        return (count, (0..<written).map { cuts[2 * $0]..<cuts[2 * $0 + 1] })
    }

    func testEveryPartOfALineCutsAsText() {
        for line in Self.lines {
            let bytes = Array(line.utf8)
            for from in 0...bytes.count {
                for to in from...bytes.count {
                    let expected = reference(bytes, from, to)
                    let (count, found) = cut(bytes, from, to, places: .max, room: 256)
                    XCTAssertEqual(count, expected.count, "\(line) \(from)..<\(to)")
                    XCTAssertEqual(found, expected, "\(line) \(from)..<\(to)")
                }
            }
        }
    }

    func testOnlyThePlacesAskedForAreWrittenAndAllAreCounted() {
        for line in Self.lines {
            let bytes = Array(line.utf8)
            let expected = reference(bytes, 0, bytes.count)
            for places in [0, 1, 3, 4, 5, 30, 1000] {
                let (count, found) = cut(bytes, 0, bytes.count, places: places, room: 256)
                XCTAssertEqual(count, expected.count, "\(line) places \(places)")
                XCTAssertEqual(found, Array(expected.prefix(places)), "\(line) places \(places)")
            }
        }
    }

    func testTooLittleRoomIsSaidUnlessOnlyFewPlacesAreAskedFor() {
        let bytes = Array(Self.lines[0].utf8)
        let expected = reference(bytes, 0, bytes.count)
        XCTAssertEqual(cut(bytes, 0, bytes.count, places: .max, room: 4).0, -1)
        let (count, found) = cut(bytes, 0, bytes.count, places: 4, room: 4)
        XCTAssertEqual(count, expected.count)
        XCTAssertEqual(found, Array(expected.prefix(4)))
        // A line taken through `AccessLogLine` with more tokens than its first room.
        var line = AccessLogLine()
        let many = Array(repeating: "7", count: 100).joined(separator: " ")
        line.load(Array(many.utf8))
        line.cut()
        XCTAssertEqual(line.count, 100)
        XCTAssertEqual(line.token(99), 198..<199)
    }

    /// The line reader's refill moves the partial line to the front of its buffer: at every
    /// chunk size (so at every place a line can be split), the lines are those of a plain split.
    func testLinesReadAlikeAtEveryChunkSize() throws {
        let text = Self.lines.joined(separator: "\n") + "\r\n\n" + Self.lines[0] + "\r\nend"
        // By the byte: "\r\n" is one Character, which a split of the String would not cut.
        let expected = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            line in String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        for chunkSize in 1...70 {
            var reader = LineReader(ByteInput(bytes: Array(text.utf8), name: "t.log"), chunkSize: chunkSize)
            var lines: [String] = []
            while let line = try reader.nextLine({ (bytes, _) in String(decoding: bytes, as: UTF8.self) }) {
                lines.append(line)
            }
            XCTAssertEqual(lines, expected, "chunk size \(chunkSize)")
        }
    }

    /// Every byte of a day and a time replaced by each byte that matters to the reading: the
    /// fixed shape reads what the general reading reads, or leaves it to it.
    func testFixedShapeDatesReadAsTheGeneralReading() {
        let alphabet = Array("09/:.-a ".utf8)
        let cases: [(String, UInt8, UInt8?)] = [
            ("2025/11/03", UInt8(ascii: "/"), nil), ("20:14:30.030", UInt8(ascii: ":"), UInt8(ascii: ".")),
            ("20:14:30", UInt8(ascii: ":"), UInt8(ascii: ".")), ("20:14:30.", UInt8(ascii: ":"), UInt8(ascii: ".")),
        ]
        var fixedReads = 0
        for (text, separator, end) in cases {
            let original = Array(text.utf8)
            var variants = [original, Array(original.dropLast()), original + [UInt8(ascii: "7")]]
            for at in original.indices {
                for byte in alphabet {
                    var changed = original
                    changed[at] = byte
                    variants.append(changed)
                }
            }
            for bytes in variants {
                let general = AccessLogRow.numbers(bytes, separator: separator, upTo: end)
                bytes.withUnsafeBufferPointer { buffer in
                    guard let fixed = AccessLogRow.fixed(buffer, separator: separator, upTo: end) else { return }
                    fixedReads += 1
                    let name = String(decoding: bytes, as: UTF8.self)
                    XCTAssertNotNil(general, name)
                    guard let general else { return }
                    XCTAssertTrue(
                        fixed.0 == general.0 && fixed.1 == general.1 && fixed.2 == general.2
                            && fixed.count == general.count, name)
                }
            }
        }
        XCTAssertGreaterThan(fixedReads, 40)
    }
}
