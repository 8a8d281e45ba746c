import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline
@testable import AVTTrackers

/// The `run` job's contract beyond conformance: exact output format, determinism, flags.
final class ReplayerTests: XCTestCase {
    private func run(_ text: String, _ configure: (inout RunOptions) -> Void = { _ in }) throws -> String {
        var options = RunOptions()
        configure(&options)
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: options, sink: sink)
        return sink.text
    }

    private let session = """
        {"trackers": [{"name": "content"}], "steps": [
          {"t": 0, "tracker": "content", "action": "StreamLoad"},
          {"t": 1000, "tracker": "content", "action": "Start"},
          {"t": 61000, "tracker": "content", "action": "End"}]}
        """

    func testRecordsHaveTheDocumentedShapeAndKeyOrder() throws {
        let lines = try run(session).split(separator: "\n")
        XCTAssertEqual(
            lines[2],
            #"{"type":"metric","t":1000,"time":"1970-01-01T00:00:01.000Z","name":"StartTime","metricType":"gauge","value":1000}"#
        )
        XCTAssertEqual(
            lines[3],
            #"{"type":"metric","t":1000,"time":"1970-01-01T00:00:01.000Z","name":"NumPlays","metricType":"counter","value":1}"#
        )
        XCTAssertTrue(
            lines[4].hasPrefix(
                #"{"type":"event","t":1000,"time":"1970-01-01T00:00:01.000Z","action":"Start","tracker":"content","attributes":{"accumBufferTime":0,"#
            ))
        XCTAssertTrue(lines[4].contains(#""countStarts":1,"#))
    }

    func testAttributeKeysAreSortedByCodePoint() throws {
        let out = try run(
            #"{"trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Foo", "attributes": {"é": 1, "Z": 2, "ß": 3, "a": 4}}]}"#
        )
        let keys = ["\"Z\":", "\"a\":", "\"accumBufferTime\":", "\"ß\":", "\"é\":"]
        let positions = keys.compactMap { out.range(of: $0)?.lowerBound }
        XCTAssertEqual(positions.count, keys.count)
        XCTAssertEqual(
            positions, positions.sorted(), "upper case before lower case before non-ASCII, as sort_keys does")
    }

    func testSameInputAndSeedGiveByteIdenticalOutput() throws {
        let first = try run(session)
        XCTAssertEqual(first, try run(session))
        let other = try run(session) { $0.seed = 7 }
        XCTAssertNotEqual(first, other, "another seed gives other ids")
        XCTAssertEqual(
            first.replacingOccurrences(of: #"[0-9A-F-]{36}"#, with: "ID", options: .regularExpression),
            other.replacingOccurrences(of: #"[0-9A-F-]{36}"#, with: "ID", options: .regularExpression))
    }

    func testRandomIdsDifferBetweenRuns() throws {
        XCTAssertNotEqual(try run(session) { $0.randomIds = true }, try run(session) { $0.randomIds = true })
    }

    func testPingsFireOnTheVirtualClockUntilTheEnd() throws {
        let out = try run(session)
        let pings = out.split(separator: "\n").filter { $0.contains(#""action":"Ping""#) }
        XCTAssertEqual(pings.count, 2)
        XCTAssertTrue(pings[0].contains(#""t":31000"#))
        XCTAssertTrue(pings[1].contains(#""t":61000"#), "a ping due at a step's t fires before the step")
        XCTAssertTrue(pings[1].contains(#""timeSincePing":30000"#))
    }

    func testUntilExtendsAndTruncatesTheReplay() throws {
        let extended = try run(
            #"{"until": 100000, "trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Start"}]}"#)
        XCTAssertEqual(
            extended.components(separatedBy: #""action":"Ping""#).count - 1, 3, "pings at 30000, 60000, 90000")
        let truncated = try run(session) { $0.until = 45000 }
        XCTAssertFalse(truncated.contains(#""action":"End""#), "steps after until are not replayed")
        XCTAssertTrue(truncated.contains(#""t":31000"#))
        XCTAssertFalse(truncated.contains(#""t":61000"#))
    }

    func testOverridesApplyOverTheDocument() throws {
        let noMetrics = try run(session) { $0.metrics = false }
        XCTAssertFalse(noMetrics.contains(#""type":"metric""#))
        let noPings = try run(session) { $0.pingInterval = 0 }
        XCTAssertFalse(noPings.contains("Ping"))
        let fastPings = try run(session) { $0.pingInterval = 10000 }
        XCTAssertEqual(fastPings.components(separatedBy: #""action":"Ping""#).count - 1, 6)
        let dated = try run(session) { $0.startTime = 1_772_366_400_000 }
        XCTAssertTrue(dated.hasPrefix(#"{"type":"metric","t":0,"time":"2026-03-01T12:00:00.000Z""#))
        let ads = try run(session) { $0.hub = .ads }
        XCTAssertTrue(ads.contains(#""countAds":0"#), "HubCoreAds stamps countAds")
    }

    func testFiltersKeepOnlyOneKindOfRecord() throws {
        let events = try run(session) { $0.filter = RecordFilter(events: true, metrics: false) }
        XCTAssertFalse(events.contains(#""type":"metric""#))
        XCTAssertTrue(events.contains(#""type":"event""#))
        let metrics = try run(session) { $0.filter = RecordFilter(events: false, metrics: true) }
        XCTAssertFalse(metrics.contains(#""type":"event""#))
        // NumLoads, StartTime, NumPlays, PlayTime at each of the two pings, NumEnds and PlayTime at End.
        XCTAssertEqual(metrics.split(separator: "\n").count, 7)
    }

    func testSetStepsBecomeGettersAndNullUnregisters() throws {
        let out = try run(
            """
            {"trackers": [{"name": "c"}], "steps": [
              {"t": 0, "tracker": "c", "set": {"position": 5, "fps": 29.97}, "action": "StreamLoad", "attributes": {"position": 9}},
              {"t": 1, "tracker": "c", "action": "BufferBegin"},
              {"t": 2, "tracker": "c", "set": {"position": null}, "action": "BufferFinish"}]}
            """)
        let lines = out.split(separator: "\n")
        XCTAssertTrue(lines[1].contains(#""position":9"#), "step attributes are added after getters")
        XCTAssertTrue(lines[2].contains(#""fps":29.97"#) && lines[2].contains(#""position":5"#))
        XCTAssertFalse(lines[3].contains("position"))
        XCTAssertTrue(lines[3].contains(#""fps":29.97"#))
    }

    func testHubAttributesOverwriteStepAttributes() throws {
        let out = try run(
            #"{"trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Error", "attributes": {"countErrors": "many", "x": "y\"z"}}]}"#
        )
        XCTAssertTrue(out.contains(#""countErrors":1"#))
        XCTAssertTrue(out.contains(#""x":"y\"z""#), "strings are escaped")
    }

    func testForceCastCrashOfUpstreamBecomesAWarning() throws {
        // Inside an ad, a content AdPauseBegin pauses the content tracker without a PauseBegin
        // ever being delivered; the PauseFinish that follows has no timeSincePauseBegin.
        let text = """
            {"hub": "ads", "trackers": [{"name": "content"}, {"name": "ads", "isAdsTracker": true}], "steps": [
              {"t": 0, "tracker": "content", "action": "StreamLoad"},
              {"t": 10, "tracker": "content", "action": "Start"},
              {"t": 20, "tracker": "ads", "action": "AdBreakBegin"},
              {"t": 30, "tracker": "ads", "action": "AdBegin"},
              {"t": 40, "tracker": "content", "action": "AdPauseBegin"},
              {"t": 50, "tracker": "content", "action": "PauseFinish"}]}
            """
        let timeline = try TimelineDecoder.decode(Array(text.utf8), file: "t.json")
        let sink = MemorySink()
        let warnings = try Replayer.replayToJSONLines(timeline, options: RunOptions(), sink: sink)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?.t, 50)
        XCTAssertTrue(warnings.first?.message.contains("timeSincePauseBegin") ?? false)
        let last = sink.text.split(separator: "\n").last ?? ""
        XCTAssertTrue(last.contains(#""action":"PauseFinish""#), "the event is still delivered")
        XCTAssertTrue(last.contains(#""accumPauseTime":0"#))
    }

    func testAtomicFileSinkReplacesTheFileOnlyOnClose() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.jsonl").path
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        let sink = try AtomicFileSink(path: path)
        try sink.write(Array("new\n".utf8))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
        try sink.close()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
        let abandoned = try AtomicFileSink(path: path)
        try abandoned.write(Array("partial".utf8))
        abandoned.discard()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.jsonl"])
    }

    /// An interrupted output is kept as `out.jsonl.partial`, the target untouched; a `.partial`
    /// that is already there is not replaced (the bytes stay under the temporary's name).
    func testAtomicFileSinkKeepsAnInterruptedOutputAsPartial() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.jsonl").path
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        let sink = try AtomicFileSink(path: path)
        try sink.write(Array("first\n".utf8))
        sink.keepAsPartial()
        try sink.close()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
        XCTAssertEqual(sink.partialPath, path + ".partial")
        XCTAssertEqual(try String(contentsOfFile: path + ".partial", encoding: .utf8), "first\n")

        let again = try AtomicFileSink(path: path)
        try again.write(Array("second\n".utf8))
        again.keepAsPartial()
        try again.close()
        XCTAssertEqual(try String(contentsOfFile: path + ".partial", encoding: .utf8), "first\n", "not replaced")
        let kept = try XCTUnwrap(again.partialPath)
        XCTAssertNotEqual(kept, path + ".partial")
        XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "second\n")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
    }

    /// A symlink planted under the temporary's name (a checkout can hold one) is replaced, never
    /// written through.
    func testAtomicFileSinkNeverWritesThroughAPlantedTemporary() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.jsonl").path
        let victim = dir.appendingPathComponent("victim.txt").path
        try "untouched".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path + ".tmp-\(getpid())", withDestinationPath: victim)
        let sink = try AtomicFileSink(path: path)
        try sink.write(Array("new\n".utf8))
        try sink.close()
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "untouched")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
    }

    func testHandBuiltStepsOutOfOrderAreRefused() throws {
        var settings = TimelineSettings()
        settings.trackers = [TrackerSpec(name: "c")]
        let replayer = Replayer(
            settings: settings,
            backend: JSONLinesBackend(sink: MemorySink(), encoder: RecordEncoder(trackerNames: ["c"], startTime: 0)),
            identifiers: SeededUUIDGenerator(seed: 0))
        XCTAssertTrue(try replayer.play(Step(t: 10, tracker: 0, action: .start, origin: StepOrigin(index: 0))))
        XCTAssertThrowsError(try replayer.play(Step(t: 5, tracker: 0, action: .end, origin: StepOrigin(index: 1))))
        XCTAssertThrowsError(try replayer.play(Step(t: 20, tracker: 3, action: .end, origin: StepOrigin(index: 2))))
    }
}
