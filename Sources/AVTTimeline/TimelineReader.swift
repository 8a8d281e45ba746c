import AVTJSON
import AVTTrackers

/// Opens any timeline as a stream of steps.
public enum TimelineReader {
    /// - Parameters:
    ///   - format: nil detects it from the extension, else from the content.
    ///   - csvTrackers: trackers for a CSV timeline that does not declare its own.
    ///   - limits: how long a line, a document and a name may be, and how many keys and columns.
    public static func open(
        _ path: String, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        limits: InputLimits = InputLimits()
    ) throws(TimelineError) -> any TimelineSource {
        let input = try ByteInput(path: path)
        input.limits = limits
        var chosen = format ?? TimelineFormat.fromExtension(of: path)
        // A .jsonl file is a JSONL timeline or an AVMetrics log: its first line tells.
        if format == nil, chosen == .jsonl, TimelineFormat.sniff(try input.peek(1 << 16)) == .avmetrics {
            chosen = .avmetrics
        }
        return try open(input, format: chosen, csvTrackers: csvTrackers)
    }

    /// Opens an input already at hand; nil format sniffs the content.
    public static func open(_ input: ByteInput, format: TimelineFormat?, csvTrackers: [TrackerSpec] = [])
        throws(TimelineError) -> any TimelineSource
    {
        var chosen: TimelineFormat
        if let known = format {
            chosen = known
        } else {
            chosen = TimelineFormat.sniff(try input.peek(1 << 16))
        }
        switch chosen {
        case .json:
            let timeline = try TimelineDecoder.decode(try input.readAll(), file: input.name, limits: input.limits)
            return DocumentSource(timeline, name: input.name)
        case .jsonl:
            return try JSONLTimelineReader(input)
        case .csv:
            return try CSVTimelineReader(input, trackers: csvTrackers)
        case .avmetrics:
            return try AVMetricsLogReader(input)
        }
    }
}
