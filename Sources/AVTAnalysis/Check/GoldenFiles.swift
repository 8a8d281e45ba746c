import AVTJSON
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

    /// A golden file's records. A pretty-printed file (a JSON array, an object over several
    /// lines) gets a message saying what a golden file is, not the parser's "unexpected end".
    package static func readExpected(_ path: String) throws -> [OutputRecord] {
        do {
            return try OutputLog.read(path: path)
        } catch {
            throw explained(error, reading: path)
        }
    }

    /// A golden file's read error, or, for a pretty-printed file, what a golden file is.
    static func explained(_ error: TimelineError, reading path: String) -> TimelineError {
        guard path != "-", let head = try? ByteInput(path: path).peek(1 << 16), isPrettyPrinted(head) else {
            return error
        }
        return TimelineError(
            file: path,
            message: "a golden file holds one JSON record per line (JSON Lines, as `avtreplay run` prints); "
                + "this one is pretty-printed. Write it with `avtreplay check --update` or `avtreplay run TIMELINE -o FILE`"
        )
    }

    /// Whether the text starts as a JSON array or as an object that does not end on its line.
    static func isPrettyPrinted(_ head: [UInt8]) -> Bool {
        guard let start = head.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        if head[start] == UInt8(ascii: "[") { return true }
        guard head[start] == UInt8(ascii: "{") else { return false }
        let line = head[start...].prefix { $0 != 0x0A }
        return (try? JSONParser.parse(Array(line))) == nil
    }

    package static func bytes(of path: String) throws(TimelineError) -> [UInt8] {
        try ByteInput(path: path).readAll()
    }

    package static func message(_ error: any Error) -> String {
        (error as? TimelineError)?.description ?? "\(error)"
    }

    /// What `avtreplay run TIMELINE` (with `--input-format FORMAT`, when given) prints, as bytes.
    package static func produce(
        _ path: String, options: RunOptions, csvTrackers: [TrackerSpec], format: TimelineFormat? = nil,
        steps: StepCounter? = nil
    ) throws -> [UInt8] {
        let sink = MemorySink()
        try produce(path, options: options, csvTrackers: csvTrackers, format: format, into: sink, steps: steps)
        return sink.bytes
    }

    /// The same, written into `sink` as the replay goes.
    /// `stop` cuts the replay short at its next step; `steps` counts the steps replayed.
    package static func produce(
        _ path: String, options: RunOptions, csvTrackers: [TrackerSpec], format: TimelineFormat? = nil,
        into sink: ByteSink, stop: StopRequest? = nil, steps: StepCounter? = nil
    ) throws {
        var configuration = SessionRunner.Configuration()
        configuration.options = options
        configuration.csvTrackers = csvTrackers
        configuration.inputFormat = format
        configuration.stop = stop
        if let steps { configuration.steps = steps }
        let runner = SessionRunner(configuration) { JSONLinesBackend(sink: $0, encoder: $1, filter: $2) }
        try runner.run([path], to: sink) { _ in }
    }
}
