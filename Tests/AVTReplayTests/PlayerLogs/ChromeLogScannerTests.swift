import XCTest

@testable import AVTTimeline

/// `ChromeLogScanner` finds most strings eight bytes at a time and compares a closed one with
/// the names it looks for; any other string (an escape, a chunk's end, a newline) is read byte
/// by byte; between strings it passes at once over what changes nothing. Both readings must
/// give the same items wherever the input is cut and wherever the chunks end: the
/// byte-by-byte scanner is the reference.
final class ChromeLogScannerTests: XCTestCase {
    /// Two players, the names looked for as values, escaped or cut by a newline, non-ASCII
    /// text, nested objects and a string longer than a word. (A name looked for anywhere as a
    /// member's name starts a player; the mutations below put them everywhere.)
    static let sample = """
        Pasted from "media-internals (the quote ends at the line):
        [{"properties": {"url": "https://e.com/v.m3u8", "error": "", "title": "events"},
          "events": [
            {"time": 0, "key": "event", "value": "kLoad"},
            {"time": 1.5, "key": "event", "value": "événement \\"events\\": ok"},
            {"time": 2, "key": "pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH", "reason": ""}},
            {"time": 3, "key": "info", "value": {"nested": {"a": [1, 2]}, "s": "a\\\\b"}},
            {"time": 4, "key": "events", "value": "properties"},
            {"time": 5, "key": "duration", "value": 12.25}]},
         {"ev\\u0065nts": [{"time": 0, "key": "x"}], "propertiez": {"a": 1},
          "properties" :{"pipeline_error": "PIPELINE_ERROR_DECODE"},
          "allEvents"\t:  [
            {"time": 0, "key": "event", "value": "kPlay"},
            {"time": 7, "key": "url", "value": "https://e.com/a-much-longer-url-than-a-word/segment.ts"},
            {"time": 8, "key": "pipeline_state", "value": "kPlaying"}]}]

        """

    private struct Reading: Equatable {
        var items: [ChromeLogScanner.Item] = []
        var startedInside = false
        var endedInside = false
    }

    private func read(_ bytes: [UInt8], chunkSize: Int = 1 << 18, fast: Bool, reducing: Bool = false) throws
        -> Reading
    {
        var scanner = ChromeLogScanner(
            ByteInput(bytes: bytes, name: "t.json"), chunkSize: chunkSize, fastPaths: fast)
        scanner.reducesValues = reducing
        var reading = Reading()
        while let item = try scanner.next() { reading.items.append(item) }
        reading.startedInside = scanner.startedInside
        reading.endedInside = scanner.endedInside
        return reading
    }

    func testTheSampleReadsAsWritten() throws {
        let reading = try read(Array(Self.sample.utf8), fast: true)
        var players = 0
        var keys: [String] = []
        for item in reading.items {
            switch item {
            case .player: players += 1
            case .entry(_, let key, _, _): keys.append(key.text)
            case .properties: keys.append("(properties)")
            }
        }
        // `"ev\u0065nts"` is not the name `events` (escapes are not decoded): its entry is read
        // as one of the first player's, and its object is no player's properties.
        XCTAssertEqual(players, 2)
        XCTAssertEqual(
            keys,
            [
                "(properties)", "event", "event", "pipeline_buffering_state", "info", "events", "duration", "x",
                "(properties)", "event", "url", "pipeline_state",
            ])
        XCTAssertFalse(reading.startedInside)
        XCTAssertFalse(reading.endedInside)
    }

    func testFastStringsAgreeAtEveryChunkSize() throws {
        let bytes = Array(Self.sample.utf8)
        let reference = try read(bytes, fast: false)
        for size in Array(1...80) + [127, 128, 255, 256, 1000] {
            XCTAssertEqual(try read(bytes, chunkSize: size, fast: true), reference, "chunk size \(size)")
            XCTAssertEqual(try read(bytes, chunkSize: size, fast: false), reference, "slow, chunk size \(size)")
        }
    }

    func testFastStringsAgreeWhereverTheInputIsCut() throws {
        let bytes = Array(Self.sample.utf8)
        for cut in 0...bytes.count {
            for part in [Array(bytes[..<cut]), Array(bytes[cut...])] {
                let reference = try read(part, fast: false)
                XCTAssertEqual(try read(part, fast: true), reference, "cut at \(cut)")
                XCTAssertEqual(try read(part, chunkSize: 13, fast: true), reference, "cut at \(cut), chunks of 13")
            }
        }
    }

    /// Every byte of the sample replaced by a quote, a backslash, a newline, a letter, a
    /// separator, a blank, a bracket or a brace: strings and nesting change everywhere, the two
    /// readings do not part.
    func testFastStringsAgreeOnMutatedInput() throws {
        let bytes = Array(Self.sample.utf8)
        for index in bytes.indices {
            for replacement: UInt8 in [0x22, 0x5C, 0x0A, 0x78, 0x3A, 0x2C, 0x20, 0x5B, 0x5D, 0x7B, 0x7D]
            where bytes[index] != replacement {
                var mutated = bytes
                mutated[index] = replacement
                let reference = try read(mutated, fast: false)
                XCTAssertEqual(
                    try read(mutated, chunkSize: 29, fast: true), reference, "byte \(index) → \(replacement)")
            }
        }
    }

    /// The run finder against a byte-by-byte search, from every start to every end, with each
    /// stop byte at every position of a word.
    func testPlainRunEndFindsTheFirstStopByte() {
        for stop: UInt8 in [0x22, 0x5C, 0x0A] {
            for position in 0..<24 {
                var bytes = [UInt8](repeating: 0x61, count: 24)
                bytes[position] = stop
                // Bytes that differ from a stop byte by one bit or a borrow.
                bytes[(position + 5) % 24] = stop &+ 1
                bytes[(position + 11) % 24] = 0x80 | stop
                bytes.withUnsafeBufferPointer { buffer in
                    for start in 0...24 {
                        for end in start...24 {
                            let expected = (start..<end).first { [0x22, 0x5C, 0x0A].contains(buffer[$0]) } ?? end
                            XCTAssertEqual(
                                ChromeLogScanner.plainRunEnd(buffer, from: start, to: end), expected,
                                "stop \(stop) at \(position), \(start)..<\(end)")
                        }
                    }
                }
            }
        }
    }

    /// The entry parser's run of plain-string bytes against a byte-by-byte search: each byte
    /// that ends it (control, non-ASCII, quote, backslash) and its neighbours at every position
    /// of a word, from every start; the run stops at the first one or within 8 bytes of the end.
    func testPlainPrefixEndStopsBeforeTheFirstBytePlainStringsLack() {
        let ends: [UInt8] = [0x00, 0x0A, 0x1F, 0x22, 0x5C, 0x7F, 0x80, 0xC3, 0xFF]
        let plain: (UInt8) -> Bool = { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }
        for stop in ends {
            for position in 0..<24 {
                var bytes = [UInt8](repeating: 0x61, count: 24)
                bytes[position] = stop
                bytes[(position + 3) % 24] = 0x20
                bytes[(position + 7) % 24] = stop &+ 1 == 0x22 || stop &+ 1 == 0x5C ? 0x7E : stop &+ 1
                bytes.withUnsafeBufferPointer { buffer in
                    for start in 0...24 {
                        let first = (start..<24).first { !plain(buffer[$0]) } ?? 24
                        let end = ChromeEntryParser.plainPrefixEnd(buffer, from: start)
                        XCTAssertTrue(
                            end <= first && (end == first || end > 24 - 8), "\(stop) at \(position) from \(start)")
                        XCTAssertTrue((start..<end).allSatisfy { plain(buffer[$0]) })
                    }
                }
            }
        }
    }

    /// Reduced values (`reducesValues`) are the whole values reduced, whichever way (fast or
    /// general) each entry was read, at any chunk size.
    func testReducedValuesAreTheWholeValuesReduced() throws {
        let bytes = Array(Self.sample.utf8)
        let whole = try read(bytes, fast: false)
        var expected = whole
        expected.items = whole.items.map { item in
            guard case .entry(let time, let key, let value, let line) = item else { return item }
            return .entry(time: time, key: key, value: key.reduced(value), line: line)
        }
        for size in [1, 7, 64, 1 << 18] {
            XCTAssertEqual(try read(bytes, chunkSize: size, fast: true, reducing: true), expected, "chunk size \(size)")
        }
    }
}
