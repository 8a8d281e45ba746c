import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTFormats
@testable import AVTOutput
@testable import AVTTimeline
@testable import AVTTrackers

/// `convert` is lossless: every timeline, converted in every direction, replays to byte-identical
/// records.
final class CSVConvertTests: XCTestCase {
    override class func tearDown() { CSVTestSupport.removeFiles() }

    /// JSON → JSONL → CSV → JSON and JSON → CSV → JSONL → JSON (all six directions), through files
    /// and `TimelineConverter.convert`; every stage replays like the original.
    private func assertLossless(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let name = url.lastPathComponent
        let original = try CSVTestSupport.collect(path: url.path)
        let expected = try CSVTestSupport.replay(original)
        let text = try String(contentsOf: url, encoding: .utf8)
        for chain: [TimelineFormat] in [[.json, .jsonl, .csv, .json], [.json, .csv, .jsonl, .json]] {
            var current = text
            for (from, to) in zip(chain, chain.dropFirst()) {
                current = try CSVTestSupport.convert(text: current, from: from, to: to)
                let back = try CSVTestSupport.read(current, format: to)
                let replayed = try CSVTestSupport.replay(back)
                if replayed != expected {
                    XCTFail(
                        "\(name): \(from.rawValue)→\(to.rawValue) (chain \(chain.map(\.rawValue))) replays differently:\n\(current)",
                        file: file, line: line)
                    return
                }
            }
        }
        // A second conversion to CSV gives the same text: the writer's output is a fixed point.
        let csv = try CSVTestSupport.convert(text: text, from: .json, to: .csv)
        let again = try CSVTestSupport.convert(
            text: try CSVTestSupport.convert(text: csv, from: .csv, to: .json), from: .json, to: .csv)
        XCTAssertEqual(csv, again, name, file: file, line: line)
    }

    func testBundledFixturesConvertLosslessly() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(
            at: CSVTestSupport.packageRoot.appendingPathComponent("fixtures"), includingPropertiesForKeys: nil
        )
        .filter { $0.pathExtension == "json" }
        XCTAssertGreaterThanOrEqual(fixtures.count, 2)
        for fixture in fixtures.sorted(by: { $0.path < $1.path }) { try assertLossless(fixture) }
    }

    func testSharedConformanceTimelinesConvertLosslessly() throws {
        var count = 0
        for suite in ["scenarios", "random"] {
            for timeline in try Conformance.cases(in: suite) {
                try assertLossless(timeline)
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 80)
    }

    func testTheHappyPathAsCSV() throws {
        let csv = try CSVTestSupport.convert(
            text: try String(
                contentsOf: CSVTestSupport.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
                encoding: .utf8),
            from: .json, to: .csv)
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(
            lines[0],
            #"#avtreplay {"startTime":"2026-03-01T12:00:00.000Z","hub":"core","metrics":true,"pingInterval":30000,"until":150000,"trackers":[{"name":"content","kind":"generic","isAdsTracker":false,"emitTrackerInit":true}]}"#
        )
        XCTAssertEqual(
            lines[1],
            "t,tracker,action,set.bitrate,set.duration,set.position,set.resolutionHeight,set.resolutionWidth,set.source,set.trackerTarget"
        )
        XCTAssertEqual(lines[2], "0,content,,,120000,,,,https://example.com/vod/master.m3u8,AVPlayer")
        XCTAssertEqual(lines[6], "1350,content,BufferFinish,2500000,,0,720,1280,,")
        XCTAssertEqual(lines.last, "", "ends with a newline")
    }

    // MARK: Values

    private static let trickyStrings = [
        "123", "true", "false", "null", "", " x", "x ", "\t", "a,b", "line\nbreak", "cr\r\nlf", "quote\"d", "\"",
        "\"\"",
        "héllo ✓ 🎬", "{x", "[1]", "{\"a\":1}", "-", "-1", "1e5", "01", "#avtreplay {}", "t", "2026-03-01T12:00:00Z",
        "back\\slash", "NaN", "Infinity", "\u{7F}", "nul\u{0}l",
    ]
    private static let numbers: [AttributeValue] = [
        .double(25.0), .double(1e-7), .double(-0.0), .double(1e300), .double(0.1), .double(-2.5), .int(0), .int(-1),
        // The largest integers a timeline may hold (JSON's exact range).
        .int(9_007_199_254_740_991), .int(-9_007_199_254_740_991), .bool(true), .bool(false),
    ]

    func testTrickyValuesRoundTripInEveryFormat() throws {
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "content"), TrackerSpec(name: "a,\"b\"")]
        var steps: [Step] = []
        let values = Self.trickyStrings.map(AttributeValue.string) + Self.numbers
        for (i, value) in values.enumerated() {
            steps.append(
                Step(
                    t: i * 10, tracker: i % 2,
                    set: [(Attribute("value"), value), (Attribute("k\(i % 3)"), i % 4 == 0 ? nil : value)],
                    action: Action(i % 5 == 0 ? "Custom, \"odd\"" : "Start"),
                    attributes: [(Attribute("extra"), value), (Attribute("with space"), .int(i))],
                    origin: StepOrigin(index: i)))
        }
        let timeline = Timeline(settings: settings, steps: steps)
        let expected = try CSVTestSupport.replay(timeline)
        for format in TimelineFormat.allCases where format.isWritable {
            let text = try CSVTestSupport.convert(timeline, to: format)
            let back = try CSVTestSupport.read(text, format: format)
            XCTAssertEqual(back.settings, settings, format.rawValue)
            XCTAssertEqual(back.steps.count, steps.count, format.rawValue)
            for (a, b) in zip(steps, back.steps) {
                XCTAssertEqual(a.t, b.t)
                XCTAssertEqual(a.tracker, b.tracker)
                XCTAssertEqual(a.action, b.action)
                // CSV orders set keys by column; JSON and JSONL keep the step's order.
                func sorted(_ set: [(attribute: Attribute, value: AttributeValue?)]) -> [String] {
                    set.map { "\($0.attribute.name)=\(String(describing: $0.value))" }.sorted()
                }
                XCTAssertEqual(sorted(a.set), sorted(b.set), "\(format.rawValue) t=\(a.t)")
                XCTAssertEqual(
                    a.attributes.map { "\($0.attribute.name)=\($0.value)" }.sorted(),
                    b.attributes.map { "\($0.attribute.name)=\($0.value)" }.sorted(), "\(format.rawValue) t=\(a.t)")
                let valueOf = { (step: Step) in step.set.first { $0.attribute == Attribute("value") }?.value ?? nil }
                if case .double(let x) = valueOf(a), case .double(let y) = valueOf(b) {
                    XCTAssertEqual(x.bitPattern, y.bitPattern, "doubles keep every bit (-0.0 too)")
                }
            }
            XCTAssertEqual(try CSVTestSupport.replay(back), expected, format.rawValue)
        }
    }

    func testCSVCellsOfTrickyStrings() throws {
        func cell(_ value: AttributeValue) -> String {
            var w = JSONWriter()
            CSVField.appendField(value, to: &w)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        XCTAssertEqual(cell(.string("hello")), "hello")
        XCTAssertEqual(cell(.string("123")), #""""123""""#)
        XCTAssertEqual(cell(.string("true")), #""""true""""#)
        XCTAssertEqual(cell(.bool(true)), "true")
        XCTAssertEqual(cell(.string("")), #""""""""#)
        XCTAssertEqual(cell(.string(" x")), #"""" x""""#)
        XCTAssertEqual(cell(.string("a,b")), #""a,b""#)
        XCTAssertEqual(
            cell(.string("line\nbreak")), #""""line\nbreak""""#,
            "control characters are JSON-escaped: one row, one line")
        XCTAssertEqual(cell(.string("quote\"d")), #""quote""d""#)
        XCTAssertEqual(cell(.string("2026-03-01T12:00:00Z")), "2026-03-01T12:00:00Z")
        XCTAssertEqual(cell(.string("héllo")), "héllo")
        XCTAssertEqual(cell(.double(25.0)), "25.0")
        XCTAssertEqual(cell(.double(1e-7)), "1e-07")
        XCTAssertEqual(cell(.int(25)), "25")
        for text in Self.trickyStrings {
            var w = JSONWriter()
            CSVField.appendField(string: text, to: &w)
            // Undo the CSV quoting as a reader does, then type the cell.
            var unquoted = w.bytes
            if unquoted.first == 0x22 {
                unquoted = Array(
                    String(decoding: unquoted.dropFirst().dropLast(), as: UTF8.self).replacingOccurrences(
                        of: "\"\"", with: "\""
                    ).utf8)
            }
            XCTAssertEqual(CSVField.cell(unquoted), .value(.string(text)), text.debugDescription)
        }
    }

    // MARK: Steps without a CSV row

    func testAStepThatOnlyMovesTheClockKeepsTheReplayEnd() throws {
        let json = """
            {"trackers": [{"name": "content"}], "steps": [
              {"t": 0, "tracker": "content", "action": "Start"},
              {"t": 40000, "tracker": "content", "set": {}},
              {"t": 65000, "tracker": "content", "set": {}}
            ]}
            """
        let original = try TimelineDecoder.decode(Array(json.utf8), file: "noop.json")
        let expected = try CSVTestSupport.replay(original)
        XCTAssertEqual(expected.components(separatedBy: "\"action\":\"Ping\"").count - 1, 2, "pings at 30 s and 60 s")
        let csv = try CSVTestSupport.convert(original, to: .csv)
        XCTAssertTrue(
            csv.hasPrefix(
                #"#avtreplay {"startTime":"1970-01-01T00:00:00.000Z","metrics":true,"pingInterval":30000,"until":65000,"#
            ), csv)
        XCTAssertEqual(csv.split(separator: "\n").count, 3, "settings, header, one row")
        XCTAssertEqual(try CSVTestSupport.replay(try CSVTestSupport.read(csv, format: .csv)), expected)
        for format in [TimelineFormat.json, .jsonl] {
            let text = try CSVTestSupport.convert(original, to: format)
            XCTAssertTrue(text.contains(#"{"t":40000,"tracker":"content","set":{}}"#), text)
            XCTAssertEqual(try CSVTestSupport.read(text, format: format).steps.count, 3)
        }
    }

    func testObservationsOutOfColumnOrderBecomeSeveralRows() throws {
        let kind = TrackerKind.avplayer
        let rules = kind.observationRules
        let keys = rules.keys.sorted().filter { PlayerObservation.acceptedValue(rules[$0]!) != nil }.prefix(3)
        // Reverse column order: three rows at the same t, set on the first, action on the last.
        let observations = keys.reversed().map { Observation($0, PlayerObservation.acceptedValue(rules[$0]!)!) }
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "player", kind: kind)]
        let step = Step(
            t: 100, tracker: 0, set: [(Attribute("title"), .string("x"))], observe: observations,
            action: Action("Mark"),
            attributes: [(Attribute("a"), .int(1))], origin: StepOrigin(index: 0))
        let timeline = Timeline(settings: settings, steps: [step])
        let csv = try CSVTestSupport.convert(timeline, to: .csv)
        let back = try CSVTestSupport.read(csv, format: .csv)
        XCTAssertEqual(back.steps.count, keys.count, csv)
        XCTAssertEqual(back.steps.flatMap { $0.observe.map(\.key) }, observations.map(\.key), "the original order")
        XCTAssertEqual(back.steps.first?.set.count, 1)
        XCTAssertEqual(back.steps.last?.action, Action("Mark"))
        XCTAssertEqual(back.steps.last?.attributes.count, 1)
        XCTAssertEqual(Set(back.steps.map(\.t)), [100])
        XCTAssertEqual(try CSVTestSupport.replay(back), try CSVTestSupport.replay(timeline))
    }

    // MARK: Writers

    func testCSVRowsSpillToATemporaryFileWithTheSameResult() throws {
        let url = CSVTestSupport.packageRoot.appendingPathComponent("fixtures/preroll-ads.json")
        let timeline = try CSVTestSupport.collect(path: url.path)
        let inMemory = try CSVTestSupport.convert(timeline, to: .csv)
        let spilled = try CSVTestSupport.convert(timeline, to: .csv, spillThreshold: 64)
        XCTAssertEqual(inMemory, spilled)
    }

    func testJSONWriterStreamsADocument() throws {
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "c", kind: .ima)]
        settings.startTime = 253_402_300_800_000  // year 10000: written as epoch milliseconds
        let empty = try CSVTestSupport.convert(Timeline(settings: settings, steps: []), to: .json)
        XCTAssertEqual(
            empty,
            """
            {
              "startTime": 253402300800000,
              "metrics": true,
              "pingInterval": 30000,
              "trackers": [{"name":"c","kind":"ima","isAdsTracker":true,"emitTrackerInit":true}],
              "steps": []
            }

            """)
        XCTAssertEqual(try TimelineDecoder.decode(Array(empty.utf8), file: "x").settings, settings)
    }

    func testWritersRejectAStepOfAnUnknownTracker() throws {
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "c")]
        for format in TimelineFormat.allCases {
            let writer = TimelineConverter.writer(format, settings: settings, sink: MemorySink())
            let error = CSVTestSupport.timelineError {
                try writer.write(Step(t: 0, tracker: 3, action: .start, origin: StepOrigin(index: 7)))
            }
            XCTAssertEqual(error?.path, "steps[7].tracker")
        }
    }

    func testConvertStopsAtBadInputWithoutClosingTheSink() throws {
        final class CountingSink: ByteSink {
            var closed = false
            func write(_ bytes: [UInt8]) throws(OutputError) {}
            func close() throws(OutputError) { closed = true }
        }
        let path = try CSVTestSupport.file("t,tracker,action\n0,content,Start\n5,nobody,End\n")
        var source = try TimelineReader.open(path, csvTrackers: [TrackerSpec(name: "content")])
        let sink = CountingSink()
        XCTAssertThrowsError(try TimelineConverter.convert(&source, to: .jsonl, sink: sink)) { error in
            XCTAssertTrue(
                (error as? TimelineError)?.description.contains(":3:3: field \"tracker\": unknown tracker") == true,
                "\(error)")
        }
        XCTAssertFalse(sink.closed)
    }
}

/// The number check the CSV cells use agrees with the JSON parser on every text it is given.
final class CSVNumberCellTests: XCTestCase {
    func testNumberGrammarMatchesTheParser() {
        let texts = [
            "0", "-0", "1", "-1", "01", "-01", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "-", "--1",
            "1.2.3",
            "123abc", "2026-03-01", "1e400", "12345678901234567890", "0x10", "1_000", "+1", "1 ", " 1", "0.0e0", "9.",
            "-.5", "1e5.5", "06C45D18-8009",
        ]
        for text in texts {
            let isNumber = Array(text.utf8).withUnsafeBufferPointer { CSVField.isNumber($0) }
            let parses: Bool
            if case .value(let value) = CSVField.cell(text), case .string = value {
                parses = false
            } else {
                parses = true
            }
            let grammar =
                (try? JSONParser.parse(text)).map { node -> Bool in
                    if case .int = node.value { return true }
                    if case .double = node.value { return true }
                    return false
                } ?? false
            let padded = text.first == " " || text.last == " "
            // White space is part of a cell: " 1" is text, though JSON would allow the spaces.
            XCTAssertEqual(parses, grammar && !padded, text)
            if grammar && !padded { XCTAssertTrue(isNumber, text) }
            // A string is written plain only if it reads back as itself (JSON when in doubt: 1e400).
            if CSVField.cell(text) != .value(.string(text)) || padded { XCTAssertTrue(CSVField.needsJSON(text), text) }
            // Text a spreadsheet would take for a formula (`-01`, `+1`) is JSON too, so it shows as text.
            if CSVField.startsLikeFormula(text) { XCTAssertTrue(CSVField.needsJSON(text), text) }
            if !isNumber && !padded && !CSVField.startsLikeFormula(text) {
                XCTAssertFalse(CSVField.needsJSON(text), text)
            }
        }
    }
}
