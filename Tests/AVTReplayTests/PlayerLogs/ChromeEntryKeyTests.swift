import AVTJSON
import XCTest

@testable import AVTTimeline

/// An entry's key is decoded once into `ChromeEntryKey`, and with `reducing` the fast entry
/// reader builds only what the Chrome reader reads of a value. Whatever it answers must be what
/// the general parser's whole value reduces to (`ChromeEntryKey.reduced`).
final class ChromeEntryKeyTests: XCTestCase {
    static let names = [
        "event", "pipeline_buffering_state", "audio_buffering_state", "video_buffering_state", "seek_target",
        "error", "pipeline_error", "duration", "width", "height", "url", "pipeline_state",
    ]

    func testKeysFromBytesAndFromTextAgree() {
        for text in Self.names + ["info", "debug", "Event", "events", "url ", "pipeline_states", "", "é"] {
            let fromBytes = Array(text.utf8).withUnsafeBufferPointer { ChromeEntryKey($0) }
            XCTAssertEqual(fromBytes, ChromeEntryKey(text), text)
            XCTAssertEqual(fromBytes.text, text)
        }
        XCTAssertEqual(Set(Self.names.map { ChromeEntryKey($0) }).count, Self.names.count)
        XCTAssertFalse(Self.names.contains { ChromeEntryKey($0) == .other($0) })
        XCTAssertEqual(ChromeEntryKey("info"), .other("info"))
    }

    func testReductionKeepsWhatTheReaderReads() {
        let object = JSONValue.object([
            JSONMember(key: "reason", node: JSONNode(.string(""), at: SourceLocation(line: 1, column: 1))),
            JSONMember(key: "state", node: JSONNode(.string("S"), at: SourceLocation(line: 1, column: 1))),
            JSONMember(key: "state", node: JSONNode(.string("T"), at: SourceLocation(line: 1, column: 1))),
        ])
        XCTAssertEqual(ChromeEntryKey.pipelineBufferingState.reduced(object), .string("S"))
        XCTAssertEqual(ChromeEntryKey.pipelineBufferingState.reduced(.string("X")), .string("X"))
        XCTAssertEqual(ChromeEntryKey.pipelineBufferingState.reduced(.int(3)), .null)
        XCTAssertEqual(ChromeEntryKey.videoBufferingState.reduced(object), .null)
        XCTAssertEqual(ChromeEntryKey.other("info").reduced(.string("x")), .null)
        XCTAssertEqual(ChromeEntryKey.duration.reduced(.double(1.5)), .double(1.5))
        XCTAssertEqual(ChromeEntryKey.error.reduced(object), object)
    }

    private static let entries = [
        #"{"time": 100.000, "key": "pipeline_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH", "reason": "", "for_suspended_start": false}}"#,
        #"{"time": 1, "key": "pipeline_buffering_state", "value": {"reason": "x", "state": 5, "state": "S"}}"#,
        #"{"time": 1, "key": "pipeline_buffering_state", "value": "BUFFERING_HAVE_NOTHING", "value": 3}"#,
        #"{"value": {"state": "S"}, "time": 1, "key": "pipeline_buffering_state"}"#,
        #"{"time": 102.000, "key": "info", "value": "Selected video decoder: VDAVideoDecoder"}"#,
        #"{"time": 107.000, "key": "video_buffering_state", "value": {"state": "BUFFERING_HAVE_ENOUGH"}}"#,
        #"{"time": 3, "key": "debug", "value": -12.5e3, "extra": [1]}"#,
        #"{"time": 3, "key": 7, "value": "x"}"#,
        #"{"time": 3, "key": "duration", "value": 600.100000}"#,
        #"{"time": 3, "key": "event", "value": "kPlay"}"#,
    ]

    private func assertAgrees(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            let general = ChromeLogScanner.parsedItem(buffer, line: 3, isProperties: false)
            let reducedGeneral = ChromeLogScanner.parsedItem(buffer, line: 3, isProperties: false, reducing: true)
            var expected = general
            if case .entry(let time, let key, let value, let at)? = general {
                expected = .entry(time: time, key: key, value: key.reduced(value), line: at)
            }
            XCTAssertEqual(reducedGeneral, expected, text, file: file, line: line)
            if let fast = ChromeEntryParser.parse(buffer, line: 3, reducing: true) {
                XCTAssertEqual(ChromeLogScanner.item(fast, line: 3), expected, text, file: file, line: line)
            }
        }
    }

    func testTheCommonEntriesReadReducedAndFast() {
        for text in Self.entries where !text.contains("[") && !text.contains("e3") {
            let fast = Array(text.utf8).withUnsafeBufferPointer { ChromeEntryParser.parse($0, line: 1, reducing: true) }
            XCTAssertNotNil(fast, text)
            assertAgrees(text)
        }
    }

    /// Each entry cut at every byte, and each byte replaced by what changes a JSON reading (a
    /// quote, a backslash, braces, a comma, a digit, a letter, non-ASCII): the fast reduced
    /// reading answers as the general one or not at all.
    func testMutatedEntriesReduceAsTheGeneralParserReads() {
        let replacements: [[UInt8]] = [
            [0x22], [0x5C], [0x7B], [0x7D], [0x2C], [0x3A], [0x31], [0x65], [0x20], [0x5B], [0xC3, 0xA9], [],
        ]
        for text in Self.entries {
            let bytes = Array(text.utf8)
            for cut in 0...bytes.count {
                assertAgrees(String(decoding: bytes[..<cut], as: UTF8.self))
                assertAgrees(String(decoding: bytes[cut...], as: UTF8.self))
            }
            for index in bytes.indices {
                for replacement in replacements {
                    var mutated = bytes
                    mutated.replaceSubrange(index...index, with: replacement)
                    assertAgrees(String(decoding: mutated, as: UTF8.self))
                }
            }
        }
    }
}
