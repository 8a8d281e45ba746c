import AVTOutput
import AVTReplay
import AVTTimeline
import AVTTrackers

/// The golden-file layout `check` uses: `NAME.json` (or `.jsonl`, `.ndjson`, `.csv`) beside
/// `NAME.expected.jsonl`.
package enum GoldenFiles {
    package static func expectedPath(for timeline: String) -> String {
        for suffix in [".ndjson", ".jsonl", ".json", ".csv"] where timeline.lowercased().hasSuffix(suffix) {
            return String(timeline.dropLast(suffix.count)) + ".expected.jsonl"
        }
        return timeline + ".expected.jsonl"
    }

    /// The timelines to check: files as given; in directories, every timeline that has an
    /// expected output beside it (or every timeline, to create the expected outputs).
    package static func timelines(_ paths: [String], includingNew: Bool = false) throws(TimelineError) -> [String] {
        var result: [String] = []
        for path in paths {
            if path != "-", SessionDiscovery.isDirectory(path) {
                result += try SessionDiscovery.expand([path]).filter {
                    includingNew || SessionDiscovery.exists(expectedPath(for: $0))
                }
            } else {
                result.append(path)
            }
        }
        return result
    }

    /// What `avtreplay run TIMELINE` prints, as bytes.
    package static func produce(_ path: String, options: RunOptions, csvTrackers: [TrackerSpec]) throws -> [UInt8] {
        var configuration = SessionRunner.Configuration()
        configuration.options = options
        configuration.csvTrackers = csvTrackers
        let runner = SessionRunner(configuration) { JSONLinesBackend(sink: $0, encoder: $1, filter: $2) }
        let sink = MemorySink()
        try runner.run([path], to: sink) { _ in }
        return sink.bytes
    }
}
