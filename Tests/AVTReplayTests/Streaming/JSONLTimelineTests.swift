import Foundation
import XCTest

@testable import AVTTimeline

/// JSON Lines timelines stream and replay exactly like the JSON document they come from.
final class JSONLTimelineTests: XCTestCase {
    func testEveryFixtureAndConformanceCaseReplaysIdenticallyAsJSONL() throws {
        let scratch = try ScratchDirectory()
        var timelines = Streaming.fixtures
        timelines += try Conformance.cases(in: "random")
        timelines += try Conformance.cases(in: "scenarios")
        XCTAssertGreaterThanOrEqual(timelines.count, 6)
        for url in timelines {
            let document = try String(contentsOf: url, encoding: .utf8)
            let jsonl = try scratch.write(
                url.deletingPathExtension().lastPathComponent + ".jsonl", try Streaming.jsonl(fromDocument: document))
            XCTAssertEqual(try Streaming.replay(jsonl), try Streaming.replay(url.path), url.lastPathComponent)
        }
    }

    func testBlankLinesAndCRLFAreAccepted() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(
            "t.jsonl",
            "{\"trackers\": [{\"name\": \"c\"}]}\r\n\r\n  \n{\"t\": 0, \"tracker\": \"c\", \"action\": \"StreamLoad\"}\r\n{\"t\": 5, \"tracker\": \"c\", \"action\": \"Start\"}"
        )
        let out = try Streaming.replay(path)
        XCTAssertEqual(out.split(separator: "\n").count, 5, out)
    }

    func testErrorsNameTheLine() throws {
        let scratch = try ScratchDirectory()
        func error(_ text: String) throws -> String {
            let path = try scratch.write("bad.jsonl", text)
            do {
                _ = try Streaming.replay(path)
                return "no error"
            } catch let error as TimelineError {
                return error.description.replacingOccurrences(of: path, with: "F")
            }
        }
        let header = "{\"trackers\": [{\"name\": \"c\"}]}\n"
        XCTAssertEqual(
            try error(""),
            "F: empty timeline: expected a settings line such as {\"trackers\": [{\"name\": \"content\"}]}")
        XCTAssertTrue(try error("{\"trackers\": [{\"name\": \"c\"}], \"steps\": []}\n").hasPrefix("F:1:"))
        XCTAssertTrue(try error("{\"trackers\": [{\"name\": \"c\"}], \"steps\": []}\n").contains("settings only"))
        XCTAssertEqual(
            try error(
                header
                    + "{\"t\": 0, \"tracker\": \"c\", \"action\": \"Start\"}\n\n{\"t\": 1, \"tracker\": \"x\", \"action\": \"End\"}\n"
            ),
            "F:4:21: steps[1].tracker: unknown tracker \"x\": expected one of: c")
        XCTAssertTrue(try error(header + "{\"t\": 1,}\n").hasPrefix("F:2:9: "))
        XCTAssertEqual(
            try error(
                header
                    + "{\"t\": 9, \"tracker\": \"c\", \"action\": \"Start\"}\n{\"t\": 3, \"tracker\": \"c\", \"action\": \"End\"}\n"
            ),
            "F:3:7: steps[1].t: t 3 is earlier than the previous step's t 9: steps must be in non-decreasing time order"
        )
    }

    func testLineReaderHandlesLinesAcrossChunkBoundaries() throws {
        let scratch = try ScratchDirectory()
        let lines = (0..<200).map { String(repeating: "x", count: $0 % 37) + "\($0)" }
        let path = try scratch.write("lines.txt", lines.joined(separator: "\n"))
        var reader = LineReader(try ByteInput(path: path), chunkSize: 7)
        var read: [String] = []
        while let line = try reader.nextLine({ bytes, number in (String(decoding: bytes, as: UTF8.self), number) }) {
            read.append(line.0)
            XCTAssertEqual(line.1, read.count)
        }
        XCTAssertEqual(read, lines)
    }

    func testFormatIsSniffedFromContentWhenTheExtensionSaysNothing() {
        XCTAssertEqual(TimelineFormat.sniff(Array("{\"trackers\": [], \"steps\": []}".utf8)), .json)
        XCTAssertEqual(TimelineFormat.sniff(Array("{\n  \"trackers\": []\n}".utf8)), .json)
        XCTAssertEqual(TimelineFormat.sniff(Array("{\"trackers\": []}\n{\"t\": 0}\n".utf8)), .jsonl)
        XCTAssertEqual(TimelineFormat.sniff(Array("\u{FEFF}  {\"trackers\": []}\n".utf8)), .jsonl)
        XCTAssertEqual(TimelineFormat.sniff(Array("t,tracker,action\n0,c,Start\n".utf8)), .csv)
        XCTAssertEqual(TimelineFormat.fromExtension(of: "a/B.NDJSON"), .jsonl)
        XCTAssertEqual(TimelineFormat.fromExtension(of: "x.csv"), .csv)
        XCTAssertNil(TimelineFormat.fromExtension(of: "x.txt"))
    }
}
