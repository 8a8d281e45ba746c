import AVTJSON
import Foundation

@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// Files for streaming tests, removed with the directory.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}

enum Streaming {
    /// The same timeline as JSON Lines: the document without `steps`, then one step per line.
    static func jsonl(fromDocument text: String) throws -> String {
        guard case .object(let members) = try JSONParser.parse(text).value else { fatalError("not an object") }
        var header = JSONWriter()
        header.value(.object(members.filter { $0.key != "steps" }))
        var lines = [String(decoding: header.bytes, as: UTF8.self)]
        if case .array(let steps)? = members.first(where: { $0.key == "steps" })?.node.value {
            for step in steps {
                var line = JSONWriter()
                line.value(step.value)
                lines.append(String(decoding: line.bytes, as: UTF8.self))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What `avtreplay run PATH` writes, in-process.
    static func replay(_ path: String, options: RunOptions = RunOptions()) throws -> String {
        var source = try TimelineReader.open(path)
        let settings = options.applied(to: source.settings)
        let sink = MemorySink()
        let backend = JSONLinesBackend(
            sink: sink,
            encoder: RecordEncoder(trackerNames: settings.trackers.map(\.name), startTime: settings.startTime),
            filter: options.filter)
        _ = try Replayer.replay(&source, options: options, backend: backend)
        if let error = backend.writeError { throw error }
        return sink.text
    }

    static var fixtures: [URL] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures")
        return ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }
}
