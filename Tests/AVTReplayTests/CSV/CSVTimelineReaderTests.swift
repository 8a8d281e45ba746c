import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTFormats
@testable import AVTTimeline
@testable import AVTTrackers

/// CSV timelines: RFC 4180 fields, typed cells, the settings line, `--tracker` trackers, and
/// errors located at the field.
final class CSVTimelineReaderTests: XCTestCase {
    override class func tearDown() { CSVTestSupport.removeFiles() }

    private let content = [TrackerSpec(name: "content")]

    private func read(_ text: String, trackers: [TrackerSpec]? = nil, chunkSize: Int = 1 << 18) throws -> Timeline {
        var reader = try CSVTestSupport.csv(text, trackers: trackers ?? content, chunkSize: chunkSize)
        return try CSVTestSupport.collect(&reader)
    }

    private func assertError(
        _ text: String, trackers: [TrackerSpec]? = nil, location: String?, path: String?, contains phrase: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let error = CSVTestSupport.timelineError({ _ = try read(text, trackers: trackers) }, file: file, line: line)
        guard let error else { return }
        XCTAssertTrue(error.file.hasSuffix("t.csv"), error.file, file: file, line: line)
        XCTAssertEqual(error.location?.description, location, "\(error)", file: file, line: line)
        XCTAssertEqual(error.path, path, "\(error)", file: file, line: line)
        XCTAssertTrue(error.message.contains(phrase), "message: \(error.message)", file: file, line: line)
    }

    func testReadsTheDocumentedExample() throws {
        let timeline = try read(
            """
            t,tracker,action,set.position,set.duration,attributes.foo
            0,content,StreamLoad,,,
            0,content,,1234,60000,
            500,content,Start,,,1
            """)
        XCTAssertEqual(timeline.settings.trackers, content)
        XCTAssertEqual(timeline.settings.startTime, 0)
        XCTAssertEqual(timeline.settings.pingInterval, 30000)
        XCTAssertNil(timeline.settings.until)
        XCTAssertEqual(timeline.steps.count, 3)
        XCTAssertEqual(timeline.steps[0].action, .streamLoad)
        XCTAssertTrue(timeline.steps[0].set.isEmpty)
        XCTAssertNil(timeline.steps[1].action)
        XCTAssertEqual(timeline.steps[1].set.map(\.attribute), ["position", "duration"])
        XCTAssertEqual(timeline.steps[1].set.map(\.value), [.int(1234), .int(60000)])
        XCTAssertEqual(timeline.steps[2].t, 500)
        XCTAssertEqual(timeline.steps[2].attributes.map(\.attribute), ["foo"])
        XCTAssertEqual(timeline.steps[2].attributes.map(\.value), [.int(1)])
        XCTAssertEqual(timeline.steps[2].origin, StepOrigin(index: 2, location: SourceLocation(line: 4, column: 1)))
    }

    func testCellsAreTyped() throws {
        let timeline = try read(
            #"""
            t,tracker,action,set.a,set.b,set.c,set.d,set.e,set.f,set.g,set.h,set.i,set.j
            0,content,Start,1,1.0,true,hello,"""123""",null,-2.5e3,01,2026-03-01T12:00:00Z, x 
            """#)
        let set = timeline.steps[0].set
        XCTAssertEqual(set.map(\.attribute.name), ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
        XCTAssertEqual(
            set.map(\.value),
            [
                .int(1), .double(1.0), .bool(true), .string("hello"), .string("123"), nil, .double(-2500),
                .string("01"),
                .string("2026-03-01T12:00:00Z"), .string(" x "),
            ])
    }

    func testRFC4180Quoting() throws {
        let text =
            "\u{FEFF}t,tracker,action,\"set.a,b\",set.text\r\n"
            + "0,content,Start,\"x,y\",\"line one\r\nline \"\"two\"\"\"\r\n"
            + "10,\"content\",End,,\"\"\"quoted\\nJSON\"\"\"\r\n"
        for chunkSize in [1, 2, 3, 5, 7, 64, 1 << 18] {
            let timeline = try read(text, chunkSize: chunkSize)
            XCTAssertEqual(timeline.steps.count, 2, "chunk \(chunkSize)")
            XCTAssertEqual(timeline.steps[0].set.map(\.attribute.name), ["a,b", "text"])
            XCTAssertEqual(timeline.steps[0].set.map(\.value), [.string("x,y"), .string("line one\r\nline \"two\"")])
            XCTAssertEqual(timeline.steps[1].set.map(\.value), [.string("quoted\nJSON")])
            XCTAssertEqual(
                timeline.steps[1].origin.location, SourceLocation(line: 4, column: 1), "lines count inside quotes")
        }
    }

    func testBlankLinesAndEmptyRowsAreSkipped() throws {
        let timeline = try read("t,tracker,action\n\n0,content,Start\n,,\n\n5,content,End\n\n")
        XCTAssertEqual(timeline.steps.map(\.t), [0, 5])
        XCTAssertEqual(timeline.steps.map(\.origin.index), [0, 1])
        XCTAssertEqual(
            try read("\n\nt,tracker,action\n0,content,Start\n").steps.count, 1, "blank lines before the header")
        let noNewline = try read("t,tracker,action\n0,content,Start")
        XCTAssertEqual(noNewline.steps.count, 1)
    }

    func testSettingsLineDeclaresTheTimeline() throws {
        let timeline = try read(
            """
            #avtreplay {"startTime": "2026-03-01T12:00:00Z", "hub": "ads", "metrics": false, "pingInterval": 10000, "until": 9000, "trackers": [{"name": "c", "kind": "generic", "emitTrackerInit": true}, {"name": "ads", "isAdsTracker": true}]}
            t,tracker,action
            0,c,Start
            5,ads,AdBegin
            """, trackers: [TrackerSpec(name: "ignored")])
        XCTAssertEqual(timeline.settings.startTime, 1_772_366_400_000)
        XCTAssertEqual(timeline.settings.hub, .ads)
        XCTAssertFalse(timeline.settings.metrics)
        XCTAssertEqual(timeline.settings.pingInterval, 10000)
        XCTAssertEqual(timeline.settings.until, 9000)
        XCTAssertEqual(
            timeline.settings.trackers,
            [TrackerSpec(name: "c", emitTrackerInit: true), TrackerSpec(name: "ads", isAdsTracker: true)],
            "the line's trackers win over the argument")
        XCTAssertEqual(timeline.steps.map(\.tracker), [0, 1])
        XCTAssertEqual(timeline.steps[0].origin.location?.line, 3)
        let reader = try CSVTestSupport.csv("#avtreplay {\"trackers\": [{\"name\": \"c\"}]}\nt,tracker\n")
        XCTAssertTrue(reader.declaresSettings)
        XCTAssertFalse(try CSVTestSupport.csv("t,tracker\n", trackers: content).declaresSettings)
    }

    func testTrackersFromTheArgumentKeepTheirKinds() throws {
        let specs = [TrackerSpec(name: "content", kind: .avplayer), TrackerSpec(name: "ads", kind: .ima)]
        let timeline = try read("t,tracker,action\n0,ads,AdBreakBegin\n", trackers: specs)
        XCTAssertEqual(timeline.settings.trackers, specs)
        XCTAssertEqual(timeline.settings.effectiveHub, .ads)
        XCTAssertEqual(timeline.steps[0].tracker, 1)
    }

    func testColumnsMayComeInAnyOrder() throws {
        let timeline = try read("action,set.position,tracker,t\nStart,5,content,100\n")
        XCTAssertEqual(timeline.steps[0].t, 100)
        XCTAssertEqual(timeline.steps[0].action, .start)
        XCTAssertEqual(timeline.steps[0].set.map(\.value), [.int(5)])
    }

    func testObservationsAreCheckedAgainstTheTrackerKind() throws {
        let (kind, key, value) = try XCTUnwrap(PlayerObservation.sample())
        var cell: JSONWriter = JSONWriter()
        CSVField.appendField(value, to: &cell)
        let text = "t,tracker,observe.\(key)\n0,player,\(String(decoding: cell.bytes, as: UTF8.self))\n"
        let timeline = try read(text, trackers: [TrackerSpec(name: "player", kind: kind)])
        XCTAssertEqual(timeline.steps[0].observe.map(\.key), [key])
        XCTAssertEqual(timeline.steps[0].observe.map(\.value), [value])
        assertError(
            "t,tracker,observe.\(key)\n0,content,\(String(decoding: cell.bytes, as: UTF8.self))\n", location: "2:11",
            path: "field \"observe.\(key)\"", contains: "a generic tracker takes no observations")
        assertError(
            "t,tracker,observe.noSuchKey\n0,player,1\n", trackers: [TrackerSpec(name: "player", kind: kind)],
            location: "2:10", path: "field \"observe.noSuchKey\"",
            contains: "unknown observation \"noSuchKey\" for a \(kind.rawValue) tracker: expected one of:")
    }

    func testObservationObjectsInCells() throws {
        let player = [TrackerSpec(name: "player", kind: .avplayer)]
        let timeline = try read(
            "t,tracker,observe.presentationSize\n0,player,\"{\"\"width\"\":1280,\"\"height\"\":720}\"\n",
            trackers: player)
        guard case .object(let members) = timeline.steps[0].observe[0].value else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["width", "height"])
        // Broken JSON reads as text; the message says why the cell was not JSON.
        assertError(
            "t,tracker,observe.presentationSize\n0,player,\"{\"\"width\"\":1280,\"\"height\"\":}\"\n", trackers: player,
            location: "2:10", path: "field \"observe.presentationSize\"", contains: "(the cell is not valid JSON:")
    }

    // MARK: Errors

    func testHeaderErrors() {
        assertError("", location: "1:1", path: nil, contains: "empty timeline: expected a header row")
        assertError(
            "t,tracker,colour\n", location: "1:11", path: "header",
            contains:
                "unknown column \"colour\": expected t, tracker, action, set.<key>, observe.<key> or attributes.<key>")
        assertError("t,tracker,set.\n", location: "1:11", path: "header", contains: "unknown column \"set.\"")
        assertError("t,tracker,,action\n", location: "1:11", path: "header", contains: "an empty column name")
        assertError("t,tracker,set.a,set.a\n", location: "1:17", path: "header", contains: "duplicate column \"set.a\"")
        assertError("t,action\n", location: "1:1", path: "header", contains: "missing column \"tracker\"")
        assertError(
            "#comment\nt,tracker\n", location: "1:1", path: nil,
            contains: "expected the header row, or #avtreplay followed by the settings object")
    }

    func testSettingsLineErrors() {
        assertError(
            "#avtreplay {\"trackers\": [{\"name\": \"c\"}], \"untill\": 5}\nt,tracker\n", location: "1:52",
            path: "#avtreplay", contains: "unknown key \"untill\"")
        assertError("#avtreplay {\"trackers\": [}\nt,tracker\n", location: "1:26", path: nil, contains: "expected")
        assertError(
            "#avtreplay {\"hub\": \"big\", \"trackers\": [{\"name\": \"c\"}]}\nt,tracker\n", location: "1:20",
            path: "hub",
            contains: "unknown hub \"big\"")
        assertError(
            "#avtreplay {\"trackers\": [{\"name\": \"c\"}], \"steps\": []}\nt,tracker\n", location: "1:51",
            path: "#avtreplay", contains: "holds the settings only")
        assertError(
            "#avtreplay {\"startTime\": 0}\nt,tracker\n", location: "1:12", path: nil, contains: "missing \"trackers\"")
    }

    func testErrorsPointAtTheFieldEvenAfterAMultiLineField() {
        assertError(
            "t,tracker,action,set.text,set.bad\n0,content,Start,\"multi\nline\",[1]\n", location: "3:7",
            path: "field \"set.bad\"", contains: "expected a string, number, boolean or null, found an array")
    }

    func testTimeErrors() {
        let head = "t,tracker,action\n"
        assertError(
            head + ",content,Start\n", location: "2:1", path: "field \"t\"",
            contains: "missing t: expected the step's virtual time")
        assertError(
            head + "abc,content,Start\n", location: "2:1", path: "field \"t\"",
            contains: "expected an integer number of milliseconds, found \"abc\"")
        assertError(head + "1.5,content,Start\n", location: "2:1", path: "field \"t\"", contains: "found 1.5")
        assertError(
            head + "-5,content,Start\n", location: "2:1", path: "field \"t\"",
            contains: "expected milliseconds ≥ 0, found -5")
        assertError(
            head + "9007199254740992,content,Start\n", location: "2:1", path: "field \"t\"", contains: "too large")
        assertError(
            head + "500,content,Start\n400,content,End\n", location: "3:1", path: "field \"t\"",
            contains: "t 400 is earlier than the previous row's t 500")
    }

    func testTrackerErrorsSayHowToDeclare() {
        let head = "t,tracker,action\n"
        assertError(
            head + "0,ad,Start\n", location: "2:3", path: "field \"tracker\"",
            contains: "unknown tracker \"ad\": expected one of: content; declare it with --tracker ad=KIND")
        assertError(
            head + "0,ad,Start\n", trackers: [], location: "2:3", path: "field \"tracker\"",
            contains: "unknown tracker \"ad\": no trackers are declared; declare trackers with --tracker ad=KIND")
        assertError(
            "#avtreplay {\"trackers\": [{\"name\": \"c\"}]}\n" + head + "0,ad,Start\n", location: "3:3",
            path: "field \"tracker\"",
            contains: "expected one of: c (add it to the trackers of the #avtreplay line)")
        assertError(
            head, trackers: [], location: nil, path: nil,
            contains: "no trackers declared: declare trackers with --tracker")
        assertError(
            head + "0,,Start\n", location: "2:3", path: "field \"tracker\"",
            contains: "missing tracker: expected one of: content")
        assertError(
            head + "0,1,Start\n", location: "2:3", path: "field \"tracker\"",
            contains: "expected a tracker name, found 1")
        assertError(
            head + "0,content,Start\n", trackers: [TrackerSpec(name: "a"), TrackerSpec(name: "a")], location: nil,
            path: nil,
            contains: "tracker \"a\" is declared twice")
    }

    func testCellErrors() {
        assertError(
            "t,tracker,action,set.size\n0,content,Start,\"{\"\"w\"\":1}\"\n", location: "2:17",
            path: "field \"set.size\"",
            contains: "expected a string, number, boolean or null, found an object")
        assertError(
            "t,tracker,action\n0,content,true\n", location: "2:11", path: "field \"action\"",
            contains: "expected an action name such as Start, found true")
        assertError(
            "t,tracker,action,attributes.foo\n0,content,,1\n", location: "2:12", path: "field \"attributes.foo\"",
            contains: "attributes need an action in the same row")
        assertError(
            "t,tracker,action,set.a\n0,content,,\n", location: "2:1", path: nil,
            contains: "a row needs an action, a set.<key> or an observe.<key> cell")
        let invalid: [UInt8] = Array("t,tracker,action\n0,content,St".utf8) + [0xFF] + Array("art\n".utf8)
        let error = CSVTestSupport.timelineError {
            let path = try CSVTestSupport.bytesFile(invalid, name: "t.csv")
            var reader = try CSVTimelineReader(try ByteInput(path: path), trackers: self.content)
            _ = try CSVTestSupport.collect(&reader)
        }
        XCTAssertEqual(error?.path, "field \"action\"")
        XCTAssertEqual(error?.message, "invalid UTF-8")
    }

    func testSyntaxErrors() {
        assertError(
            "t,tracker,action\n0,content,\"Start\n", location: "2:11", path: nil,
            contains: "unterminated quoted field: expected a closing \" before the end of the input")
        assertError(
            "t,tracker,action\n0,content,\"Sta\"rt\n", location: "2:16", path: nil,
            contains: "expected ',' or the end of the line after a closing quote, found 'r'")
        assertError(
            "t,tracker,action\n0,content,Start,extra\n", location: "2:17", path: nil,
            contains: "expected 3 fields as in the header row, found 4")
        assertError(
            "t,tracker,action\n0,content\n", location: "2:1", path: nil,
            contains: "expected 3 fields as in the header row, found 2")
    }

    func testColumnsCountUTF8BytesAfterTheBOM() {
        assertError("\u{FEFF}t,tracker,action\n0,cöntent,Start,x\n", location: "2:18", path: nil, contains: "found 4")
        assertError("\u{FEFF}t,tracker,bad\n", location: "1:11", path: "header", contains: "unknown column")
    }

    func testStreamsOneRowAtATime() throws {
        // 20,000 rows through 4 KiB chunks: the reader's buffer never grows beyond a chunk plus a row.
        var text = "t,tracker,action,set.position\n"
        for i in 0..<20_000 { text += "\(i),content,Ping,\(i * 10)\n" }
        var reader = try CSVTestSupport.csv(text, trackers: content, chunkSize: 4096)
        var count = 0
        while let step = try reader.nextStep() {
            XCTAssertEqual(step.set.first?.value, .int(count * 10))
            count += 1
        }
        XCTAssertEqual(count, 20_000)
    }
}

/// A tracker kind that takes observations, one of its keys and a value it accepts (nil until
/// player trackers exist).
enum PlayerObservation {
    static func sample() -> (TrackerKind, String, JSONValue)? {
        for kind in TrackerKind.allCases {
            for key in kind.observationRules.keys.sorted() {
                if let value = acceptedValue(kind.observationRules[key]!) { return (kind, key, value) }
            }
        }
        return nil
    }

    /// A value the rule accepts: one of its quoted choices, or a typical value of each type.
    static func acceptedValue(_ rule: ObservationRule) -> JSONValue? {
        var candidates: [JSONValue] = []
        for part in rule.expected.split(separator: "|") {
            let text = part.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
                candidates.append(.string(String(text.dropFirst().dropLast())))
            }
        }
        candidates += [
            .int(1), .double(0.5), .bool(true), .string("text"), .null,
            (try? JSONParser.parse(#"{"width": 1280, "height": 720}"#).value) ?? .null,
        ]
        return candidates.first { rule.check($0) }
    }
}
