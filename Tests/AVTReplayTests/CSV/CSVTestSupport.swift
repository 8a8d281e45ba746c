import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline
@testable import AVTTrackers

/// Temporary files, whole-timeline reads and replays for the CSV and convert tests.
enum CSVTestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every bundled input: the fixture timelines, the AVMetrics log and every player log, sorted.
    static func fixtureInputs() throws -> [String] {
        let root = packageRoot.appendingPathComponent("fixtures")
        var inputs: [URL] = []
        for dir in [root, root.appendingPathComponent("player-logs")] {
            inputs += try FileManager.default.contentsOfDirectory(
                at: dir, includingPropertiesForKeys: [.isRegularFileKey]
            )
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        }
        return inputs.map(\.path).sorted()
    }

    /// A fresh directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `text` to a temporary file named `name` and returns its path.
    static func file(_ text: String, name: String = "timeline.csv") throws -> String {
        try bytesFile(Array(text.utf8), name: name)
    }

    /// Where `file` writes: one directory per test process, removed by `removeFiles()`.
    static let filesDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("avtreplay-csv-tests-\(ProcessInfo.processInfo.processIdentifier)")

    static func bytesFile(_ bytes: [UInt8], name: String) throws -> String {
        try FileManager.default.createDirectory(at: filesDirectory, withIntermediateDirectories: true)
        let url = filesDirectory.appendingPathComponent(UUID().uuidString + "-" + name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Removes what `file` wrote (class tearDown of each test case).
    static func removeFiles() {
        try? FileManager.default.removeItem(at: filesDirectory)
    }

    /// Opens CSV text with tiny or default chunks.
    static func csv(_ text: String, trackers: [TrackerSpec] = [], chunkSize: Int = 1 << 18, name: String = "t.csv")
        throws
        -> CSVTimelineReader
    {
        let path = try file(text, name: name)
        return try CSVTimelineReader(try ByteInput(path: path), trackers: trackers, chunkSize: chunkSize)
    }

    /// Every step of a source, as one in-memory timeline.
    static func collect(_ source: inout some TimelineSource) throws -> Timeline {
        var steps: [Step] = []
        while let step = try source.nextStep() { steps.append(step) }
        return Timeline(settings: source.settings, steps: steps)
    }

    static func collect(path: String, format: TimelineFormat? = nil, trackers: [TrackerSpec] = []) throws -> Timeline {
        var source = try TimelineReader.open(path, format: format, csvTrackers: trackers)
        return try collect(&source)
    }

    /// What `avtreplay run` prints for a timeline.
    static func replay(_ timeline: Timeline) throws -> String {
        let sink = MemorySink()
        try Replayer.replayToJSONLines(timeline, options: RunOptions(), sink: sink)
        return sink.text
    }

    /// A timeline converted to `format`, as text.
    static func convert(_ timeline: Timeline, to format: TimelineFormat, spillThreshold: Int? = nil) throws -> String {
        let sink = MemorySink()
        let writer: any TimelineWriter =
            if let spillThreshold, format == .csv {
                CSVTimelineWriter(settings: timeline.settings, sink: sink, spillThreshold: spillThreshold)
            } else {
                TimelineConverter.writer(format, settings: timeline.settings, sink: sink)
            }
        for step in timeline.steps { try writer.write(step) }
        try writer.finish()
        return sink.text
    }

    /// Converts text in one format to another through files and `TimelineConverter.convert`.
    static func convert(text: String, from: TimelineFormat, to: TimelineFormat, trackers: [TrackerSpec] = []) throws
        -> String
    {
        let path = try file(text, name: "in." + from.rawValue)
        var source = try TimelineReader.open(path, format: from, csvTrackers: trackers)
        let sink = MemorySink()
        try TimelineConverter.convert(&source, to: to, sink: sink)
        return sink.text
    }

    /// Reads timeline text of a format back.
    static func read(_ text: String, format: TimelineFormat, trackers: [TrackerSpec] = []) throws -> Timeline {
        try collect(path: try file(text, name: "back." + format.rawValue), format: format, trackers: trackers)
    }

    /// The error an expression throws, as a TimelineError.
    static func timelineError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line)
        -> TimelineError?
    {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
            return nil
        } catch let error as TimelineError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }
}
