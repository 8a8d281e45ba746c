import XCTest

@testable import AVTTimeline

/// `ChromeEntryParser` reads the common shape of a media-internals entry from its bytes: when it
/// answers, it must answer exactly what the general JSON parser does (values, rounding, source
/// locations); when it is unsure it must say nothing, so that the general parser decides.
final class ChromeEntryParserTests: XCTestCase {
    /// What the scanner makes of one object's bytes, read both ways: the fast reading when it
    /// answers (nil when it leaves the object to the general parser) and the general one.
    private typealias Item = ChromeLogScanner.Item

    private func readings(_ text: String, line: Int = 7) -> (fast: Item??, general: Item?) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            let fast = ChromeEntryParser.parse(buffer, line: line).map { ChromeLogScanner.item($0, line: line) }
            return (fast, ChromeLogScanner.parsedItem(buffer, line: line, isProperties: false))
        }
    }

    /// The fast reading answers, and as the general parser does.
    private func assertFast(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let (fast, general) = readings(text)
        XCTAssertNotNil(fast, "read fast: \(text)", file: file, line: line)
        if let fast { XCTAssertEqual(fast, general, text, file: file, line: line) }
    }

    /// Whatever the fast reading does, it agrees with the general parser when it answers.
    private func assertAgrees(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let (fast, general) = readings(text)
        if let fast { XCTAssertEqual(fast, general, text, file: file, line: line) }
    }

    func testCommonEntriesReadFastAsTheGeneralParserReadsThem() {
        assertFast(#"{"time": 0, "key": "event", "value": "kLoad"}"#)
        assertFast(#"{"time": 102.000, "key": "info", "value": "Selected video decoder: VDAVideoDecoder"}"#)
        assertFast(
            #"{"time": 100.000, "key": "pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH", "reason": "", "for_suspended_start": false}}"#
        )
        assertFast(#"{"key": "duration", "value": 600.100000, "time": 105.5}"#)
        assertFast(#"{"time": 3, "key": "x", "value": null}"#)
        assertFast(#"{"time": 3, "key": "x", "value": true, "extra": -0.5}"#)
        assertFast(#"{"time": 3, "key": "x"}"#)
        assertFast(#"{"time": 3, "time": 4, "key": "first", "key": "second", "value": 1, "value": 2}"#)
        // Not entries, but of the common shape: nothing, as the general parser says.
        assertFast(#"{"key": "x", "value": 1}"#)
        assertFast(#"{"time": "3", "key": "x"}"#)
        assertFast(#"{"time": 3, "key": 4}"#)
        assertFast("{}")
    }

    func testOddWhitespaceKeepsTheGeneralParsersLocations() {
        assertFast("{ \"time\" :\t1 ,\r\n  \"key\":\"k\",\n\n   \"value\" : { \"state\" :\n \"S\" } }")
        assertFast("{\"time\":1,\"key\":\"k\",\"value\":{\"a\":1,\"b\":\"c\",\"d\":null}}")
        assertFast("\n {\"time\":1,\"key\":\"k\"} \n")
    }

    func testNumbersInEveryJSONFormAgree() {
        let numbers = [
            "0", "-0", "7", "-7", "0.5", "-0.5", "0.0", "-0.0", "1.000", "100.000", "0.000123",
            "123456789012345", "1234567890123456", "12345678901234567890", "9007199254740993",
            "1.23456789012345", "1.234567890123456789", "0.1234567890123456789012345", "1e3", "1E-3",
            "-2.5e+2", "0.1e1", "00", "01", "-", "1.", ".5", "+1", "1e", "1.e3", "--1", "1ee2",
            "179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.0",
            "1e400",
        ]
        for number in numbers {
            assertAgrees(#"{"time": \#(number), "key": "k"}"#)
            assertAgrees(#"{"time": 1, "key": "k", "value": \#(number)}"#)
            assertAgrees(#"{"time": 1, "key": "k", "value": {"n": \#(number)}}"#)
        }
        for number in ["0", "-0", "7", "0.5", "-0.0", "100.000", "0.000123", "123456789012345", "1.23456789012345"] {
            assertFast(#"{"time": \#(number), "key": "k", "value": \#(number)}"#)
        }
    }

    func testEscapesUnicodeAndOtherShapesAreLeftToTheGeneralParser() {
        let odd = [
            #"{"time": 1, "key": "ev\"ent", "value": "x"}"#,
            #"{"time": 1, "key": "\u0065vent", "value": "kPlay"}"#,
            #"{"time": 1, "key": "event", "value": "caf\u00e9 \ud83d\ude00"}"#,
            #"{"time": 1, "key": "event", "value": "café"}"#,
            #"{"ti\u006de": 1, "key": "event"}"#,
            #"{"time": 1, "key": "event", "value": [1, 2]}"#,
            #"{"time": 1, "key": "event", "value": {"a": {"b": 1}}}"#,
            #"{"time": 1, "key": "event", "value": {}}"#,
            "{\"time\": 1, \"key\": \"event\", \"value\": \"tab\tinside\"}",
            #"{"time": 1, "key": "event", "value": "\ud800"}"#,
        ]
        for text in odd {
            let (fast, general) = readings(text)
            XCTAssertNil(fast, "left to the general parser: \(text)")
            _ = general
        }
    }

    func testCutAndMalformedEntriesAreNeverReadDifferently() {
        let whole =
            #"{"time": 100.000, "key": "pipeline_buffering_state", "#
            + #""value": {"state": "BUFFERING_HAVE_ENOUGH", "reason": "", "x": false}}"#
        let bytes = Array(whole.utf8)
        for end in 0...bytes.count {
            assertAgrees(String(decoding: bytes[..<end], as: UTF8.self))
            assertAgrees(String(decoding: bytes[end...], as: UTF8.self))
        }
        for text in [
            #"{"time": 1, "key": "k",}"#, #"{"time": 1 "key": "k"}"#, #"{"time": 1, "key": "k"} x"#,
            #"{"time": 1, "key": "k", "value": tru}"#, #"{"time": 1, "key": "k", "value": nullx}"#,
            #"{"time": 1, "key": "k", "value": {"a": 1,}}"#, #"{"time": 1, "key": "k", "value": {"a" 1}}"#,
            #"{"time": 1, "key": "k", "value": "a"b"}"#, #"{"time": 1, "key": "k"}}"#, #"{time: 1}"#,
        ] {
            let (fast, general) = readings(text)
            if let fast { XCTAssertEqual(fast, general, text) }
            XCTAssertNil(general, text)
        }
    }

    /// Entries straddling the scanner's chunk boundary, cut at every byte of one entry.
    func testEntriesSplitAcrossChunksReadAsWhole() throws {
        let entry = #"{"time": 12.5, "key": "pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH"}}"#
        let chunk = 1 << 18
        let header = #"[{"events": ["# + "\n"
        for shift in 0...entry.utf8.count {
            let padding = chunk - header.utf8.count - shift
            var text = header + String(repeating: " ", count: padding)
            text += entry + ",\n" + #"{"time": 13, "key": "event", "value": "kPause"}"# + "]}]\n"
            var scanner = ChromeLogScanner(ByteInput(bytes: Array(text.utf8), name: "split.json"))
            var items: [ChromeLogScanner.Item] = []
            while let item = try scanner.next() { items.append(item) }
            XCTAssertEqual(items.count, 3, "shift \(shift)")
            guard items.count == 3, case .entry(let time, let key, let value, _) = items[1],
                case .entry(let time2, let key2, _, _) = items[2]
            else { continue }
            XCTAssertEqual(time, 12.5)
            XCTAssertEqual(key, "pipeline_buffering_state")
            XCTAssertEqual(ChromeMediaLogReader.bufferingState(value), "BUFFERING_HAVE_ENOUGH")
            XCTAssertEqual(time2, 13)
            XCTAssertEqual(key2, "event")
        }
    }
}
