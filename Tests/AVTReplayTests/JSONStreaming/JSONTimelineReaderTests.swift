import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTTimeline

/// The streamed JSON timeline reader gives what the whole-document decoder gives, a step at a
/// time, whatever the layout and wherever the window's chunks end.
final class JSONTimelineReaderTests: XCTestCase {
    static let trackers = #""trackers": [{"name": "c"}, {"name": "p", "kind": "avplayer"}]"#
    static let steps = """
        "steps": [
          {"t": 0, "tracker": "c", "action": "StreamLoad", "set": {"title": "a]}{[\\"\\\\", "n": 1, "x": null}},
          {"t": 10, "tracker": "p", "observe": {"status": "readyToPlay", "presentationSize": {"width": 1280, "height": 720}}},
          {"t": 20, "tracker": "c", "action": "Start", "attributes": {"note": "é \\u00e9 [{", "d": 1.5, "b": true}},
          {"observe": {"rate": 1, "timeControlStatus": "playing"}, "tracker": "p", "t": 30},
          {"t": 40, "tracker": "c", "set": {"title": null}, "action": "End"}
        ]
        """

    private func assertSame(
        _ text: String, chunks: [Int] = [1, 2, 3, 5, 8, 13, 64, 1 << 18], streamed: Bool = true,
        exact: Bool = true, file: StaticString = #filePath, line: UInt = #line
    ) {
        let whole = JSONStreaming.whole(Array(text.utf8))
        for chunk in chunks {
            let result = JSONStreaming.stream(text, chunk: chunk)
            XCTAssertNil(JSONStreaming.mismatch(result, whole), "chunk \(chunk)", file: file, line: line)
            if exact { XCTAssertEqual(result.error, whole.error, "chunk \(chunk)", file: file, line: line) }
            if streamed { XCTAssertTrue(result.streamed, "chunk \(chunk)", file: file, line: line) }
        }
    }

    func testSettingsBeforeSteps() {
        let text = "{\"startTime\": \"2026-03-01T12:00:00Z\", \(Self.trackers),\n\(Self.steps)}"
        XCTAssertEqual(JSONStreaming.whole(Array(text.utf8)).steps.count, 5)
        assertSame(text)
    }

    func testStepsBeforeSettings() {
        assertSame("{\(Self.steps),\n\(Self.trackers), \"hub\": \"ads\", \"until\": 35, \"metrics\": false}")
        assertSame("{\"until\": 35, \(Self.steps),\n\(Self.trackers), \"pingInterval\": 1000}")
    }

    func testOddLayouts() {
        let compact =
            #"{"trackers":[{"name":"c"}],"steps":[{"t":0,"tracker":"c","action":"Start"},{"t":1,"tracker":"c","action":"End"}]}"#
        assertSame(compact)
        assertSame("\u{FEFF}" + compact)
        assertSame(
            "\r\n\t {\r\n \"steps\"\t:\r\n[\r\n\r\n{ \"t\"\n:\n0 ,\n\"tracker\" : \"c\"\n, \"action\":\"Start\"\n}\n\t,"
                + "{\"t\":1,\n\n\"tracker\":\"c\",\"action\":\"End\"}\r\n] \r\n, \"trackers\" \n: [ {\"name\" :\"c\"} ]\n}\n\n"
        )
        // One step per line, as JSONL would have it, and a pretty-printed document.
        assertSame(
            "{\(Self.trackers), \"steps\": [\n"
                + (0..<20).map { #"{"t": \#($0), "tracker": "c", "action": "A\#($0)"}"# }.joined(separator: ",\n")
                + "\n]}")
    }

    func testEmptySteps() {
        for steps in ["[]", "[ ]", "[\n\n]", "[\t\r\n]"] {
            assertSame("{\(Self.trackers), \"steps\": \(steps)}")
            assertSame("{\"steps\": \(steps), \(Self.trackers)}")
        }
        XCTAssertEqual(JSONStreaming.stream("{\(Self.trackers), \"steps\": []}").steps, [])
    }

    func testStringsWithBracketsBracesAndEscapedQuotes() {
        let tricky = [#"]"#, #"}"#, #"["#, #"{"#, #"\""#, #"\\"#, #"\\\""#, #"a\"]}"#, #"\u005D"#, #"\/"#, #"},{"#]
        for value in tricky {
            assertSame(
                "{\(Self.trackers), \"steps\": [{\"t\": 0, \"tracker\": \"c\", \"action\": \"A\", \"set\": {\"k\": \"\(value)\"}},"
                    + "{\"t\": 1, \"tracker\": \"c\", \"action\": \"B\"}], \"until\": 9}", chunks: [1, 4, 1 << 18])
        }
    }

    func testTrailingGarbageGivesTheSameError() {
        let text = "{\(Self.trackers), \(Self.steps)}"
        for garbage in ["x", "}", "]", " {}", "\n\n  true", ",", "\"s\"", "\u{FEFF}"] {
            let result = JSONStreaming.stream(text + garbage)
            XCTAssertNotNil(result.error, garbage)
            XCTAssertEqual(result.error, JSONStreaming.whole(Array((text + garbage).utf8)).error, garbage)
        }
    }

    func testTruncatedDocumentGivesTheSameError() {
        let text = "{\(Self.trackers),\n\(Self.steps), \"until\": 50}"
        let bytes = Array(text.utf8)
        for end in 0..<bytes.count {
            let prefix = Array(bytes[..<end])
            let whole = JSONStreaming.whole(prefix)
            XCTAssertNotNil(whole.error)
            for chunk in [3, 1 << 18] {
                let result = JSONStreaming.stream(prefix, chunk: chunk)
                XCTAssertEqual(result.error, whole.error, "cut at \(end), chunk \(chunk)")
                // The first pass reads to the end: a document cut short gives no step.
                XCTAssertEqual(result.steps, [], "cut at \(end), chunk \(chunk)")
            }
        }
    }

    func testNestingDepthLimit() {
        // The document's root and steps array count towards the parser's 512 levels.
        for depth in [508, 509, 510, 511, 600] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let inStep =
                "{\(Self.trackers), \"steps\": [{\"t\": 0, \"tracker\": \"c\", \"action\": \"A\", \"set\": {\"k\": \(nested)}}]}"
            assertSame(inStep, chunks: [7, 1 << 18], streamed: false)
            let inSettings = "{\"until\": \(nested), \(Self.trackers), \"steps\": []}"
            assertSame(inSettings, chunks: [7, 1 << 18], streamed: false)
            let asStep = "{\(Self.trackers), \"steps\": [\(nested)]}"
            assertSame(asStep, chunks: [7, 1 << 18], streamed: false)
        }
    }

    func testErrorsInTheStepsAreTheDocumentsErrors() {
        func doc(_ steps: String) -> String {
            "{\"trackers\": [{\"name\": \"c\"}],\n\"steps\": [\n\(steps)], \"until\": 5}"
        }
        let good = #"{"t": 1, "tracker": "c", "action": "Start"}"#
        for bad in [
            #"{"tracker": "c", "action": "Start"}"#, #"{"t": "5", "tracker": "c", "action": "Start"}"#,
            #"{"t": 1, "t": 2, "tracker": "c", "action": "Start"}"#, #"{"t": 1, "tracker": "x", "action": "Start"}"#,
            #"{"t": 0, "tracker": "c", "action": "Start"}"#, "7", "tru", "-", "1x", "{\"t\": 1,}", "{\"t\" 1}",
            "{\"t\": 1, \"tracker\": \"c\", \"action\": \"St\nart\"}", "{\"t\": 1 ]", ",", "}", "NaN", "'a'",
            "{\"t\": 1, \"tracker\": \"c\", \"action\": \"Start\"} {", "\"unterminated",
        ] {
            // `1x`: the step `1` is refused before the `x` after it is met, as in JSONL.
            let exact = bad != "1x"
            assertSame(doc("\(good),\n\(good),\n\(bad)"), chunks: [2, 1 << 18], streamed: false, exact: exact)
            assertSame(
                doc("\(good),\n\(good),\n\(bad),\n\(good)"), chunks: [2, 1 << 18], streamed: false, exact: exact)
        }
        let late = JSONStreaming.stream(doc("\(good),\n\(good),\n1x"))
        XCTAssertEqual(late.steps.count, 2)
        XCTAssertEqual("\(late.error!)", "t.json:5:1: steps[2]: expected an object, found an integer")
        assertSame(doc("\(good),\n"), streamed: false)
        assertSame(doc("\(good) \(good)"), streamed: false)
    }

    func testErrorsOutsideTheStepsAreTheDocumentsErrors() {
        let steps = #""steps": [{"t": 1, "tracker": "c", "action": "Start"}]"#
        for text in [
            "", "  ", "[]", "7", "{", "{}", "{\(steps)}", "{\"trackers\": [{\"name\": \"c\"}]}",
            "{\"trackers\": [{\"name\": \"c\"}], \(steps), \"step\": 1}",
            "{\"trackers\": [{\"name\": \"c\"}], \(steps), \"steps\": []}",
            "{\"trackers\": [{\"name\": \"c\"}], \(steps), \"hub\": \"fancy\"}",
            "{\"trackers\": [{\"name\": \"c\"}], \"steps\": 3}", "{\"trackers\": [{\"name\": \"c\"}], \(steps),}",
            "{\"trackers\": [{\"name\": \"c\"}] \(steps)}",
            "{\"trackers\": [{\"name\": \"c\"}], \(steps) \"until\": 1}",
            "{\"trackers\" [{\"name\": \"c\"}], \(steps)}", "{trackers: 1}",
            "{\"trackers\": [{\"name\": \"c\"}], \(steps), \"until\":",
            "{\"trackers\": [{\"name\": \"c\"}], \(steps), \"until\": 1",
            // A syntax error after the steps is reported before a mistake in them, as ever.
            "{\"trackers\": [{\"name\": \"c\"}], \"steps\": [{\"t\": \"x\"}], \"until\": 1,}",
        ] {
            assertSame(text, chunks: [1, 5, 1 << 18], streamed: false)
        }
    }

    func testDocumentSizeLimit() {
        let text = Array("{\(Self.trackers), \(Self.steps)}".utf8)
        var limits = InputLimits()
        for limit in [10, text.count - 1, text.count] {
            limits.maxDocumentBytes = limit
            let whole = JSONStreaming.whole(text, limits: limits)
            XCTAssertEqual(JSONStreaming.stream(text, chunk: 16, limits: limits).error, whole.error, "\(limit)")
        }
    }

    /// The steps are read as they are needed: a mistake at the end of the steps is met after
    /// the steps before it were given, and the window never holds much more than a step.
    func testStepsAreStreamed() throws {
        let steps = (0..<10_000).map {
            #"{"t": \#($0), "tracker": "c", "action": "Action\#($0)", "set": {"i": \#($0)}}"#
        }
        let text =
            "{\"trackers\": [{\"name\": \"c\"}], \"steps\": [\n" + steps.joined(separator: ",\n") + ",\n{\"t\": }]}"
        let bytes = Array(text.utf8)
        XCTAssertGreaterThan(bytes.count, 500_000)
        let input = ByteInput(bytes: bytes, name: "t.json")
        var source = try XCTUnwrap(
            try JSONTimelineReader.open(input, again: ByteInput(bytes: bytes, name: "t.json"), chunkSize: 256)
                as? JSONTimelineReader)
        var count = 0
        XCTAssertThrowsError(try { while try source.nextStep() != nil { count += 1 } }()) { error in
            XCTAssertEqual("\(error)", "t.json:10002:7: expected a JSON value, found '}'")
        }
        XCTAssertEqual(count, 10_000)
        XCTAssertLessThanOrEqual(source.windowBytes, 1024)
        XCTAssertEqual("\(JSONStreaming.whole(bytes).error!)", "t.json:10002:7: expected a JSON value, found '}'")
    }

    func testFilesAndStandardInput() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("json-stream-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for text in [
            "{\(Self.trackers), \(Self.steps)}", "{\(Self.steps), \(Self.trackers), \"until\": 35}",
            "{\(Self.steps), \(Self.trackers), \"until\": 35,}",
        ] {
            let path = dir.appendingPathComponent("t.json").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            var whole = JSONStreaming.whole(Array(text.utf8))
            whole.error?.file = path
            var fromFile = StreamedTimeline()
            var fromMemory = StreamedTimeline()
            do {
                var source = try TimelineReader.open(path)
                fromFile.streamed = source is JSONTimelineReader
                fromFile.settings = source.settings
                while let step = try source.nextStep() { fromFile.steps.append(step) }
            } catch { fromFile.error = error }
            do {
                var source = try TimelineReader.open(ByteInput(bytes: Array(text.utf8), name: path), format: nil)
                fromMemory.streamed = source is JSONTimelineReader
                fromMemory.settings = source.settings
                while let step = try source.nextStep() { fromMemory.steps.append(step) }
            } catch { fromMemory.error = error }
            XCTAssertNil(JSONStreaming.mismatch(fromFile, whole), text)
            XCTAssertNil(JSONStreaming.mismatch(fromMemory, whole), text)
            XCTAssertEqual(fromFile.streamed, whole.error == nil)
            XCTAssertEqual(fromMemory.streamed, whole.error == nil)
        }
    }
}
