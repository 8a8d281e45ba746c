import XCTest

@testable import AVTTimeline

/// The access log's rows read by the byte (`AccessLogLine`) must give what reading each line as
/// text gives (the String reading, where Characters decide blanks, prefixes and cuts): the same
/// items, places, sessions, warnings and counts, on the index's reading and on the replay's.
final class AccessLogLineTests: XCTestCase {
    private static let header = [
        "#Version: 1.0",
        "#Software: AppleCoreMedia/1.0.0.22A3354 (iPhone; U; CPU OS 18_0 like Mac OS X; en_us)",
        "#Date: 2025/11/03 20:14:50.050",
        "#Fields: date time uri cs-guid s-ip s-ip-changes sc-count c-duration-downloaded c-start-time "
            + "c-duration-watched bytes c-observed-bitrate sc-indicated-bitrate c-stalls c-frames-dropped "
            + "c-startup-time c-overdue c-reason c-observed-min-bitrate c-observed-max-bitrate "
            + "c-observed-bitrate-sd s-playback-type sc-wwan-count c-switch-bitrate",
    ]
    private static let row =
        "2025/11/03 20:14:30.030 https://media.example.com/show/v360/prog.m3u8 "
        + "00000002-1B9E-4C8A-9E61-000000000002 203.0.113.7 0 8 36.000 30.000 30.250 11250000 "
        + "6000000.000 1080000 1 4 1.500 0 2 - - 120000.000 VOD 0 -"
    private static let otherRow =
        "2025/11/03 20:15:00.000 https://media.example.com/show/v1080/prog.m3u8 "
        + "00000003-1B9E-4C8A-9E61-000000000003 203.0.113.7 0 8 36.000 0.000 12.5 9000 "
        + "2000000.000 3240000 0 0 0.750 0 2 - - 120000.000 VOD 0 -"
    private static let errorLog = [
        "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype",
        "2025/11/03 20:14:36.036 https://media.example.com/show/v360/seg9.ts "
            + "00000002-1B9E-4C8A-9E61-000000000002 203.0.113.7 -12938 \"CoreMediaErrorDomain\" "
            + "\"HTTP 404: File Not Found\" en0",
    ]

    /// What a reading gives: every item, with the scanner's counts after it, and the warnings.
    private struct Reading: Equatable {
        var items: [String] = []
        var warnings: [String] = []
    }

    private func read(_ bytes: [UInt8], checkOnly: Bool, asText: Bool, chunkSize: Int = 1 << 18) throws -> Reading {
        var reading = Reading()
        var said: [String] = []
        var warnings = PlayerLogWarnings(file: "t.log", warn: { said.append($0) })
        var scanner = AccessLogScanner(
            ByteInput(bytes: bytes, name: "t.log"), checkOnly: checkOnly, asText: asText, chunkSize: chunkSize)
        while let item = try scanner.next(&warnings) {
            let what: String
            switch item {
            case .row(let row, let index): what = "row \(index) \(row)"
            case .error(let entry, let index): what = "error \(index) \(entry)"
            case .checked(let guid, let index, let row): what = "checked \(guid) \(index) \(String(describing: row))"
            }
            reading.items.append("\(what) line \(scanner.lineNumber) session \(scanner.session)")
        }
        warnings.finish()
        reading.items.append("recognized \(scanner.recognized) line \(scanner.lineNumber)")
        reading.warnings = said
        return reading
    }

    /// Both readings (the index's and the replay's) of `bytes` by the byte equal those as text.
    private func assertSameAsText(
        _ bytes: [UInt8], chunkSize: Int = 1 << 18, _ message: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        for checkOnly in [false, true] {
            let byBytes = try read(bytes, checkOnly: checkOnly, asText: false, chunkSize: chunkSize)
            let asText = try read(bytes, checkOnly: checkOnly, asText: true)
            XCTAssertEqual(byBytes, asText, "\(message) checkOnly \(checkOnly)", file: file, line: line)
        }
    }

    private func log(_ lines: [String], end: String = "\n") -> [UInt8] {
        Array((lines.joined(separator: "\n") + end).utf8)
    }

    func testRealShapedDumpsReadAlike() throws {
        let text = log(Self.header + [Self.row, Self.otherRow, Self.row] + Self.header + [Self.row, Self.otherRow])
        let reading = try read(text, checkOnly: false, asText: false)
        // Five rows, two #Fields headers; the second dump counts places from 0 again.
        XCTAssertEqual(reading.items.count, 6)
        XCTAssertTrue(reading.items[3].hasPrefix("row 0 "), reading.items[3])
        XCTAssertEqual(reading.items.last, "recognized 7 line 13")
        try assertSameAsText(text, "two dumps")
    }

    func testEmptyBlankAndCRLFLines() throws {
        let lines = Self.header + ["", " ", "\t", " \t ", "\r", "\t" + Self.row + " \t", "  " + Self.otherRow + "\r"]
        try assertSameAsText(log(lines), "LF")
        try assertSameAsText(Array(lines.joined(separator: "\r\n").utf8), "CRLF")
        try assertSameAsText([], "empty input")
        try assertSameAsText(Array("\n\n\r\n".utf8), "empty lines")
    }

    func testARowCutAtEveryByte() throws {
        let row = Array(Self.row.utf8)
        for cut in 0...row.count {
            let part = String(decoding: row[..<cut], as: UTF8.self)
            try assertSameAsText(log(Self.header + [part, Self.otherRow]), "cut at \(cut)")
            try assertSameAsText(log(Self.header + [part], end: ""), "cut at \(cut), last")
        }
    }

    func testHeadersGluedToRows() throws {
        for directive in Self.header {
            try assertSameAsText(log(Self.header + [Self.row + directive, Self.otherRow]), directive)
            try assertSameAsText(log(Self.header + [Self.row + "  " + directive + " ", Self.otherRow]), directive)
        }
        try assertSameAsText(log(Self.header + ["  #Fields: a b", Self.row, "x#Date: now", "#"]), "odd headers")
        try assertSameAsText(log(Self.header + [Self.row + "#Fields:" + "\u{301} a", Self.row]), "combining")
    }

    func testRowsBeforeAnyHeaderAndWrongValues() throws {
        let odd = Self.row.replacingOccurrences(of: " 11250000 ", with: " 99999999999999999999 ")
            .replacingOccurrences(of: " 30.250 ", with: " nan ").replacingOccurrences(of: " 1 4 ", with: " +1 -4 ")
            .replacingOccurrences(of: " 1080000 ", with: " 1e400 ")
        let badDate = Self.row.replacingOccurrences(of: "2025/11/03", with: "2025-11-03")
        let noGuid = Self.row.replacingOccurrences(of: "00000002-1B9E-4C8A-9E61-000000000002", with: "-")
        let noDate = Self.row.replacingOccurrences(of: "2025/11/03 20:14:30.030", with: "- -")
        let many = Array(repeating: "1", count: 100).joined(separator: " ")
        let lines = [Self.row] + Self.header + [odd, badDate, noGuid, noDate, "2025-11-03 20:16:00 log line", many]
        try assertSameAsText(log(lines), "odd values")
    }

    func testARowAcrossEveryChunkBoundary() throws {
        // A first line of growing length moves the row across the reader's 64-byte chunks.
        let rest = Self.header + [Self.row, Self.otherRow]
        for offset in 0..<64 {
            let lines = [String(repeating: "x", count: offset)] + rest
            try assertSameAsText(log(lines), chunkSize: 64, "offset \(offset)")
        }
    }

    func testBytesPastASCII() throws {
        let guid = Self.row.replacingOccurrences(of: "00000002-1B9E", with: "00000002-1B9É")
        let decomposed = Self.row.replacingOccurrences(of: "00000002-1B9E", with: "00000002-1B9E\u{301}")
        let uri = Self.row.replacingOccurrences(of: "/show/", with: "/émission/")
        let blank = Self.row + " \u{301}"
        try assertSameAsText(log(Self.header + [guid, decomposed, Self.row, uri, blank, "\u{A0}" + Self.row]), "UTF-8")
        // Invalid UTF-8: a lone continuation byte, a cut sequence, an overlong one.
        for bad: [UInt8] in [[0x80], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xFF]] {
            var text = log(Self.header)
            let row = Array(Self.row.utf8)
            text += row[..<100] + bad + row[100...] + Array("\n".utf8)
            text += Array(Self.otherRow.utf8) + bad + Array("\n".utf8)
            try assertSameAsText(text, "bytes \(bad)")
        }
    }

    func testAnErrorLogAndSessionsAcrossDumps() throws {
        let lines =
            Self.header + [Self.row, Self.otherRow] + Self.errorLog + Self.header + [Self.otherRow, Self.row, Self.row]
            + Self.errorLog
        try assertSameAsText(log(lines), "access and error log")
    }

    func testTheLineReadsItsTokens() {
        var line = AccessLogLine()
        let bytes = Array(" \ta  \"b c\" -  12 \t".utf8)
        bytes.withUnsafeBufferPointer { line.load($0) }
        line.cut()
        // Blanks around are left out; tabs inside a token are not separators.
        XCTAssertEqual(line.count, 4)
        XCTAssertEqual((0..<line.count).map { line.string(line.token($0)) }, ["a", "\"b c\"", "-", "12"])
        XCTAssertTrue(line.isMissing(line.token(2)))
        XCTAssertEqual(line.digits(line.token(3)), 12)
        XCTAssertNil(line.digits(line.token(0)))
        XCTAssertTrue(line.isASCII)
        // Tokens of every length up to past two words, and more tokens than the first room for them.
        let words = (0..<300).map {
            String(repeating: Character(UnicodeScalar(UInt8(97 + $0 % 26))), count: 1 + $0 % 19)
        }
        for separator in [" ", "  ", "   "] {
            let text = Array(words.joined(separator: separator).utf8)
            text.withUnsafeBufferPointer { line.load($0) }
            line.cut()
            XCTAssertEqual((0..<line.count).map { line.string(line.token($0)) }, words, "separator \(separator.count)")
        }
        for count in 0...20 {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
            XCTAssertTrue(bytes.withUnsafeBufferPointer { AccessLogLine.isASCII($0) })
            for at in 0..<count {
                bytes[at] = 0xC3
                XCTAssertFalse(bytes.withUnsafeBufferPointer { AccessLogLine.isASCII($0) }, "\(count) \(at)")
                bytes[at] = UInt8(ascii: "a")
            }
        }
    }

    func testDecimalsByTheByteEqualStrtod() {
        for text in ["0", "36.000", "30.250", ".5", "5.", "", ".", "-1.5", "+2", "1e5", "nan", "12345678901234567.5"] {
            let bytes = Array(text.utf8)
            let read = bytes.withUnsafeBufferPointer { DecimalText.double($0) }
            XCTAssertEqual(read?.bitPattern, Double(text)?.bitPattern, text)
        }
    }
}
