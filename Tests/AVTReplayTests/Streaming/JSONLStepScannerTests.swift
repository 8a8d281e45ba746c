import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTTimeline
@testable import AVTTrackers

/// The JSONL scanner is a shortcut: whatever it decodes must be exactly what the general path
/// (parser + StepReader) decodes, and whatever the general path rejects it must leave alone.
final class JSONLStepScannerTests: XCTestCase {
    private let trackers = [
        TrackerSpec(name: "content"), TrackerSpec(name: "player", kind: .avplayer),
        TrackerSpec(name: "ads", kind: .ima),
    ]

    /// Decodes one line both ways. Returns the scanner's step (nil when it declined).
    @discardableResult
    private func check(_ line: String, previousT: Int? = nil, file: StaticString = #filePath, lineNumber: UInt = #line)
        -> Step?
    {
        var scanner = JSONLStepScanner(trackers: trackers)
        var bytes = Array(line.utf8)
        let fast = bytes.withUnsafeMutableBufferPointer {
            scanner.step(UnsafeBufferPointer($0), line: 7, index: 3, previousT: previousT)
        }
        var reader = StepReader(trackers: trackers, reader: FieldReader(file: "t.jsonl"))
        if let previousT { reader.accepted(t: previousT) }
        let general: Step? = bytes.withUnsafeMutableBufferPointer { buffer in
            guard let node = try? JSONParser.parse(UnsafeBufferPointer(buffer), firstLine: 7) else { return nil }
            return try? reader.step(node, index: 3)
        }
        if let fast {
            XCTAssertEqual(fast, general, "scanner and general path disagree on \(line)", file: file, line: lineNumber)
        }
        return fast
    }

    func testCommonShapesAreDecodedExactlyAsTheGeneralPathDoes() throws {
        let lines = [
            #"{"t":0,"tracker":"content","set":{"source":"https://e.com/v.m3u8","duration":600000},"action":"MediaRequest"}"#,
            #"  {"t": 195, "tracker": "content", "action": "StreamLoad"}  "#,
            #"{"tracker":"content","t":204,"action":"BufferBegin","attributes":{"note":"x","gone":null,"ok":true}}"#,
            #"{"t":1,"tracker":"content","set":{"bitrate":null,"isLive":false}}"#,
            #"{"t":9,"tracker":"player","observe":{"rate":1,"timeControlStatus":"playing"}}"#,
            #"{"observe":{"presentationSize":{"width":1280,"height":720},"status":"readyToPlay"},"t":12,"tracker":"player"}"#,
            #"{"t":12,"tracker":"player","observe":{"presentationSize": { "width" : 640 , "height" : 360 }}}"#,
            "{\"t\":3,\"tracker\":\"content\",\"action\":\"Start\"}\r",
        ]
        for line in lines {
            XCTAssertNotNil(check(line), "the scanner should handle \(line)")
        }
        let step = try XCTUnwrap(check(lines[5]))
        XCTAssertEqual(step.origin, StepOrigin(index: 3, location: SourceLocation(line: 7, column: 1)))
        XCTAssertEqual(
            step.observe.first?.value,
            .object([
                JSONMember(key: "width", node: JSONNode(.int(1280), at: SourceLocation(line: 7, column: 41))),
                JSONMember(key: "height", node: JSONNode(.int(720), at: SourceLocation(line: 7, column: 55))),
            ]))
        XCTAssertEqual(check(lines[1])?.origin.location, SourceLocation(line: 7, column: 3))
    }

    func testStringsAreReadAWordAtATimeWhereverTheyEndOrTurnUnusual() {
        // Plain strings of every length end at every offset of the 8-byte words the scanner
        // reads; each must decode, as a value and as a key.
        for length in 0...24 {
            let text = String(repeating: "abcdefgh", count: 4).prefix(length)
            XCTAssertNotNil(
                check(#"{"t":1,"tracker":"content","set":{"note":"\#(text)"}}"#), "value of length \(length)")
            if length > 0 {
                XCTAssertNotNil(check(#"{"t":1,"tracker":"content","set":{"\#(text)":1}}"#), "key of length \(length)")
            }
        }
        // Anything but plain ASCII, at every offset, is left to the general path (which decodes
        // the escapes and the UTF-8 itself).
        for special in [#"\n"#, #"\""#, #"\u0041"#, "\u{7F}", "é", "\t", "\u{01}"] {
            for offset in 0...17 {
                let text = String(repeating: "x", count: offset) + special + "yz"
                let line = #"{"t":1,"tracker":"content","set":{"note":"\#(text)"}}"#
                XCTAssertNil(check(line), "\(special.debugDescription) at \(offset)")
            }
        }
    }

    func testEverythingUnusualOrWrongIsLeftToTheGeneralPath() {
        let declined = [
            #"{"t":1.5,"tracker":"content","action":"Start"}"#,  // not an integer
            #"{"t":-1,"tracker":"content","action":"Start"}"#,
            #"{"t":01,"tracker":"content","action":"Start"}"#,  // leading zero
            #"{"t":1e3,"tracker":"content","action":"Start"}"#,
            #"{"t":9007199254740992,"tracker":"content","action":"Start"}"#,  // over 2^53 − 1
            // overflows Int (found by scripts/fuzz)
            #"{"t":1,"tracker":"content","set":{"n":12345678901234567890123}}"#,
            #"{"t":1,"tracker":"nobody","action":"Start"}"#,
            #"{"t":1,"tracker":"content","action":""}"#,
            #"{"t":1,"tracker":"content","action":"St\u0061rt"}"#,  // escapes
            #"{"t":1,"tracker":"content","set":{"title":"café"}}"#,  // non-ASCII
            #"{"t":1,"tracker":"content","set":{"a":1,"a":2}}"#,  // duplicate attribute
            #"{"t":1,"tracker":"content","set":{"":1}}"#,
            #"{"t":1,"tracker":"content","set":{"a":[1]}}"#,
            #"{"t":1,"t":2,"tracker":"content","action":"Start"}"#,
            #"{"t":1,"tracker":"content"}"#,  // nothing to do
            #"{"t":1,"tracker":"content","attributes":{"a":1}}"#,  // attributes without action
            #"{"t":1,"tracker":"content","action":"Start","extra":1}"#,
            #"{"t":1,"tracker":"content","action":"Start"} x"#,
            #"{"t":1,"tracker":"content","action":"Start",}"#,
            #"{"t":1,"tracker":"content","action":"Start""#,
            #"{"t":1,"tracker":"content","observe":{"rate":1}}"#,  // generic trackers observe nothing
            #"{"t":1,"tracker":"player","observe":{"rate":"fast"}}"#,
            #"{"t":1,"tracker":"player","observe":{"nope":1}}"#,
            #"{"t":1,"tracker":"player","observe":{"rate":1,"rate":0}}"#,
            #"{"t":1,"tracker":"player","observe":{"presentationSize":{"width":1}}}"#,
            #"[1]"#,
            "",
        ]
        for line in declined {
            XCTAssertNil(check(line), "the scanner should decline \(line)")
        }
        XCTAssertNil(check(#"{"t":5,"tracker":"content","action":"Start"}"#, previousT: 6), "time running backwards")
        XCTAssertNotNil(check(#"{"t":6,"tracker":"content","action":"Start"}"#, previousT: 6))
    }

    /// Random edits of valid lines: the scanner must never accept what the general path rejects
    /// or decode anything differently.
    func testMutatedLinesNeverDisagree() {
        var generator = SplitMix64(seed: 42)
        let seeds = [
            #"{"t":10,"tracker":"player","observe":{"presentationSize":{"width":1280,"height":720},"rate":1}}"#,
            #"{"t":0,"tracker":"content","set":{"source":"https://e.com/v.m3u8","duration":600000},"action":"MediaRequest","attributes":{"x":true}}"#,
            #"{"t":22,"tracker":"ads","observe":{"adEvent":"Started"}}"#,
        ]
        let alphabet = Array(#"{}[]":,.-+eE0123456789 tfnulr\"abc"#.utf8)
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = Array(seeds[Int(generator.next() % UInt64(seeds.count))].utf8)
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                }
            }
            if check(String(decoding: bytes, as: UTF8.self)) != nil { accepted += 1 }
        }
        // Some mutations (a changed digit, a changed letter of a value) stay valid.
        XCTAssertGreaterThan(accepted, 500)
    }
}
