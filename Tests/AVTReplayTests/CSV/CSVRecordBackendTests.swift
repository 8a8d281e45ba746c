import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Replays a small timeline into a record backend and returns what it wrote.
enum BackendHarness {
    static let timeline = """
        {"startTime": "2026-03-01T12:00:00Z", "pingInterval": 1000, "trackers": [{"name": "content"}],
         "steps": [
          {"t": 0, "tracker": "content", "set": {"title": "Big \\"Buck\\", Bunny", "fps": 25.0, "flag": "true"}, "action": "StreamLoad"},
          {"t": 1500, "tracker": "content", "action": "Start", "attributes": {"isLive": true, "note": ""}},
          {"t": 2100, "tracker": "content", "action": "BufferBegin"},
          {"t": 2350, "tracker": "content", "action": "BufferFinish"}
         ]}
        """

    static func run(
        _ text: String = timeline, filter: RecordFilter = RecordFilter(), session: String? = nil,
        _ make: (ByteSink, RecordEncoder, RecordFilter) -> RecordBackend
    ) throws -> String {
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "small.json")
        let sink = MemorySink()
        let encoder = RecordEncoder(
            trackerNames: timeline.settings.trackers.map(\.name), startTime: timeline.settings.startTime,
            session: session)
        let backend = make(sink, encoder, filter)
        var source = DocumentSource(timeline, name: "small.json")
        _ = try Replayer.replay(&source, options: RunOptions(), backend: backend)
        XCTAssertNil(backend.writeError)
        return sink.text
    }

    static func fixture(_ name: String) throws -> String {
        try String(
            contentsOf: CSVTestSupport.packageRoot.appendingPathComponent("fixtures/\(name).json"), encoding: .utf8)
    }
}

/// `--format csv`: one row per record, attribute columns, typed cells.
final class CSVRecordBackendTests: XCTestCase {
    override class func tearDown() { CSVTestSupport.removeFiles() }

    func testExactOutputOfASmallReplay() throws {
        let csv = try BackendHarness.run { CSVRecordBackend(sink: $0, encoder: $1, filter: $2) }
        XCTAssertEqual(
            csv,
            #"""
            type,t,time,action,tracker,name,metricType,value,attributes.accumBufferTime,attributes.accumPauseTime,attributes.accumSeekTime,attributes.countErrors,attributes.countStarts,attributes.deltaPlayTime,attributes.flag,attributes.fps,attributes.inBufferBlock,attributes.inPauseBlock,attributes.inPlaybackBlock,attributes.inSeekBlock,attributes.isAdsTracker,attributes.isLive,attributes.note,attributes.playbackId,attributes.senderId,attributes.streamId,attributes.timeSinceBufferBegin,attributes.timeSinceStart,attributes.timeSinceStreamLoad,attributes.title
            metric,0,2026-03-01T12:00:00.000Z,,,NumLoads,counter,1,,,,,,,,,,,,,,,,,,,,,,
            event,0,2026-03-01T12:00:00.000Z,StreamLoad,content,,,,0,0,0,0,0,,"""true""",25.0,false,false,false,false,false,,,06C45D18-8009-454F-B88B-B8A8724C81EC,E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0,1B39896A-51A8-449B-93CB-9F0C747EA2EA,,,,"Big ""Buck"", Bunny"
            metric,1500,2026-03-01T12:00:01.500Z,,,StartTime,gauge,1500,,,,,,,,,,,,,,,,,,,,,,
            metric,1500,2026-03-01T12:00:01.500Z,,,NumPlays,counter,1,,,,,,,,,,,,,,,,,,,,,,
            event,1500,2026-03-01T12:00:01.500Z,Start,content,,,,0,0,0,0,1,,"""true""",25.0,false,false,true,false,false,true,"""""",06C45D18-8009-454F-B88B-B8A8724C81EC,E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0,1B39896A-51A8-449B-93CB-9F0C747EA2EA,,,1500,"Big ""Buck"", Bunny"
            metric,2100,2026-03-01T12:00:02.100Z,,,PlayTime,gauge,600,,,,,,,,,,,,,,,,,,,,,,
            event,2100,2026-03-01T12:00:02.100Z,BufferBegin,content,,,,0,0,0,0,1,600,"""true""",25.0,true,false,true,false,false,,,06C45D18-8009-454F-B88B-B8A8724C81EC,E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0,1B39896A-51A8-449B-93CB-9F0C747EA2EA,,600,2100,"Big ""Buck"", Bunny"
            metric,2350,2026-03-01T12:00:02.350Z,,,RebufferTime,gauge,250,,,,,,,,,,,,,,,,,,,,,,
            metric,2350,2026-03-01T12:00:02.350Z,,,NumRebuffers,counter,1,,,,,,,,,,,,,,,,,,,,,,
            event,2350,2026-03-01T12:00:02.350Z,BufferFinish,content,,,,250,0,0,0,1,,"""true""",25.0,false,false,true,false,false,,,06C45D18-8009-454F-B88B-B8A8724C81EC,E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0,1B39896A-51A8-449B-93CB-9F0C747EA2EA,250,850,2350,"Big ""Buck"", Bunny"

            """#)
    }

    /// The CSV parses back (with the timeline reader's RFC 4180 rules and cell typing) to exactly
    /// the JSON Lines records' values: strings stay strings, booleans booleans, 25.0 a double.
    func testCellsReadBackToTheJSONLinesValues() throws {
        for name in ["happy-path", "preroll-ads"] {
            let text = try BackendHarness.fixture(name)
            let csv = try BackendHarness.run(text) { CSVRecordBackend(sink: $0, encoder: $1, filter: $2) }
            let jsonl = try BackendHarness.run(text) { JSONLinesBackend(sink: $0, encoder: $1, filter: $2) }
            let records = try Conformance.records(jsonl)
            let path = try CSVTestSupport.file(csv, name: "records.csv")
            var reader = try CSVRecordReader(try ByteInput(path: path))
            XCTAssertTrue(try reader.next())
            let header = reader.fields.map { String(decoding: reader.text[$0.range], as: UTF8.self) }
            XCTAssertEqual(Array(header.prefix(8)), CSVRecordBackend.fixedColumns)
            let attributeColumns = header.dropFirst(8)
            XCTAssertTrue(attributeColumns.allSatisfy { $0.hasPrefix("attributes.") })
            XCTAssertEqual(
                Array(attributeColumns), attributeColumns.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            var row = 0
            while try reader.next() {
                guard case .object(let members) = records[row] else { return XCTFail("record \(row)") }
                var expected: [String: JSONValue] = [:]
                for member in members {
                    if member.key == "attributes", case .object(let attributes) = member.node.value {
                        for attribute in attributes { expected["attributes." + attribute.key] = attribute.node.value }
                    } else {
                        expected[member.key] = member.node.value
                    }
                }
                var actual: [String: JSONValue] = [:]
                for (column, field) in zip(header, reader.fields) {
                    if case .value(let value) = reader.cell(field) { actual[column] = value }
                }
                XCTAssertEqual(actual, expected, "\(name) row \(row + 1)")
                row += 1
            }
            XCTAssertEqual(row, records.count)
        }
    }

    func testAttributeColumnsAreTheUnionOverTheReplay() throws {
        let text = """
            {"trackers": [{"name": "a"}, {"name": "b"}], "metrics": false, "steps": [
              {"t": 0, "tracker": "a", "action": "Zed", "attributes": {"zz": 1}},
              {"t": 5, "tracker": "b", "action": "Alpha", "attributes": {"Äpfel": "x", "aa": 1.5}}
            ]}
            """
        let csv = try BackendHarness.run(text) { CSVRecordBackend(sink: $0, encoder: $1, filter: $2) }
        let lines = csv.split(separator: "\n")
        XCTAssertEqual(
            lines[0],
            "type,t,time,action,tracker,name,metricType,value,attributes.aa,attributes.accumBufferTime,"
                + "attributes.accumPauseTime,attributes.accumSeekTime,attributes.countErrors,attributes.countStarts,"
                + "attributes.inBufferBlock,attributes.inPauseBlock,attributes.inPlaybackBlock,attributes.inSeekBlock,"
                + "attributes.isAdsTracker,attributes.senderId,attributes.timeSinceZed,attributes.zz,attributes.Äpfel",
            "the union of both events' attributes, sorted by UTF-8 bytes")
        XCTAssertTrue(
            lines[1].hasPrefix("event,0,1970-01-01T00:00:00.000Z,Zed,a,,,,,0,0,0,0,0,false,"), String(lines[1]))
        XCTAssertTrue(lines[1].hasSuffix(",,1,"), String(lines[1]))
        XCTAssertTrue(
            lines[2].hasPrefix("event,5,1970-01-01T00:00:00.005Z,Alpha,b,,,,1.5,0,0,0,0,0,false,"), String(lines[2]))
        XCTAssertTrue(lines[2].hasSuffix("-1,5,,x"), String(lines[2]))
    }

    func testMetricsOnlySessionsAndAnEmptyReplay() throws {
        let metrics = try BackendHarness.run(filter: RecordFilter(events: false), session: "s,1.json") {
            CSVRecordBackend(sink: $0, encoder: $1, filter: $2)
        }
        let lines = metrics.split(separator: "\n")
        XCTAssertEqual(
            lines[0], "type,session,t,time,action,tracker,name,metricType,value", "no events: no attribute columns")
        XCTAssertEqual(lines[1], #"metric,"s,1.json",0,2026-03-01T12:00:00.000Z,,,NumLoads,counter,1"#)
        XCTAssertEqual(lines.count, 7)
        let none = try BackendHarness.run(filter: RecordFilter(events: false, metrics: false)) {
            CSVRecordBackend(sink: $0, encoder: $1, filter: $2)
        }
        XCTAssertEqual(none, "type,t,time,action,tracker,name,metricType,value\n")
    }

    func testRowsSpillToATemporaryFileWithTheSameOutput() throws {
        let text = try BackendHarness.fixture("preroll-ads")
        let inMemory = try BackendHarness.run(text) { CSVRecordBackend(sink: $0, encoder: $1, filter: $2) }
        let spilled = try BackendHarness.run(text) {
            CSVRecordBackend(sink: $0, encoder: $1, filter: $2, spillThreshold: 100)
        }
        XCTAssertEqual(inMemory, spilled)
    }

    /// Several sessions, each with its own backend, into one sink: one table with the union of
    /// the columns, whatever the chunks the bytes arrive in.
    func testMergingSinkJoinsTheTablesOfSeveralSessions() throws {
        let first = try BackendHarness.run(session: "a.json") { CSVRecordBackend(sink: $0, encoder: $1, filter: $2) }
        let second = try BackendHarness.run(try BackendHarness.fixture("preroll-ads"), session: "b,\"c\".json") {
            CSVRecordBackend(sink: $0, encoder: $1, filter: $2)
        }
        let parts = Array((first + second).utf8)
        for chunk in [7, 1 << 16] {
            let target = MemorySink()
            let merging = CSVRecordMergingSink(target: target, spillThreshold: chunk == 7 ? 50 : 1 << 20)
            for start in stride(from: 0, to: parts.count, by: chunk) {
                try merging.write(Array(parts[start..<min(parts.count, start + chunk)]))
            }
            try merging.close()
            let merged = target.text
            let path = try CSVTestSupport.file(merged, name: "merged.csv")
            var reader = try CSVRecordReader(try ByteInput(path: path))
            XCTAssertTrue(try reader.next())
            let header = reader.fields.map { String(decoding: reader.text[$0.range], as: UTF8.self) }
            XCTAssertEqual(Array(header.prefix(9)), ["type", "session"] + CSVRecordBackend.fixedColumns.dropFirst())
            let attributes = Array(header.dropFirst(9))
            XCTAssertEqual(attributes, attributes.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            XCTAssertTrue(
                attributes.contains("attributes.title") && attributes.contains("attributes.adRoll"), "the union")
            // Every row keeps its values under the same column names as in its own table.
            var rows: [[String: String]] = []
            while try reader.next() {
                var row: [String: String] = [:]
                for (name, field) in zip(header, reader.fields) where !field.range.isEmpty {
                    row[name] = String(decoding: reader.text[field.range], as: UTF8.self)
                }
                rows.append(row)
            }
            var expected: [[String: String]] = []
            for part in [first, second] {
                let partPath = try CSVTestSupport.file(part, name: "part.csv")
                var partReader = try CSVRecordReader(try ByteInput(path: partPath))
                XCTAssertTrue(try partReader.next())
                let partHeader = partReader.fields.map { String(decoding: partReader.text[$0.range], as: UTF8.self) }
                while try partReader.next() {
                    var row: [String: String] = [:]
                    for (name, field) in zip(partHeader, partReader.fields) where !field.range.isEmpty {
                        row[name] = String(decoding: partReader.text[field.range], as: UTF8.self)
                    }
                    expected.append(row)
                }
            }
            XCTAssertEqual(rows, expected, "chunk \(chunk)")
            XCTAssertEqual(rows.last?["session"], "b,\"c\".json")
        }
    }

    func testAWriteErrorIsKept() throws {
        final class FailingSink: ByteSink {
            func write(_ bytes: [UInt8]) throws(OutputError) {
                throw OutputError(path: "out.csv", message: "disk full", isBrokenPipe: false)
            }
            func close() throws(OutputError) {}
        }
        let backend = CSVRecordBackend(
            sink: FailingSink(), encoder: RecordEncoder(trackerNames: [], startTime: 0), filter: RecordFilter())
        backend.sendMetric(.numPlays(at: 0))
        XCTAssertNil(backend.writeError, "nothing is written before the end")
        backend.endOfService()
        XCTAssertEqual(backend.writeError?.description, "cannot write out.csv: disk full")
    }
}
