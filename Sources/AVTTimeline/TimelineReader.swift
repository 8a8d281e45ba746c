import AVTJSON
import AVTTrackers

/// Opens any timeline as a stream of steps.
public enum TimelineReader {
    /// Opens the timeline at `path` (`-` is standard input).
    ///
    /// The library prints nothing: what a player log's reader skipped or inferred goes to `warn`,
    /// one message a call (`FILE:LINE: what, "the line"`), and is dropped when none is given.
    /// - Parameters:
    ///   - format: nil detects it from the extension, else from the content.
    ///   - csvTrackers: trackers for a CSV timeline that does not declare its own.
    ///   - limits: how long a line, a document and a name may be, and how many keys and columns.
    ///   - warn: where a player log's warnings go.
    public static func open(
        _ path: String, format: TimelineFormat? = nil, csvTrackers: [TrackerSpec] = [],
        limits: InputLimits = InputLimits(), warn: @escaping (String) -> Void = { _ in }
    ) throws(TimelineError) -> any TimelineSource {
        let input = try ByteInput(path: path)
        input.limits = limits
        var chosen = format ?? TimelineFormat.fromExtension(of: path)
        if format == nil, let byExtension = chosen {
            // A .jsonl file is a JSONL timeline or an AVMetrics log, a .json file a timeline or a
            // saved Chrome media log, a .csv file could be a player log renamed: the content tells.
            let sniffed = TimelineFormat.sniff(try input.peek(1 << 16))
            if byExtension == .jsonl && sniffed == .avmetrics || sniffed.isPlayerLog { chosen = sniffed }
        } else if chosen == nil {
            chosen = TimelineFormat.sniff(try input.peek(1 << 16))
        }
        if format == nil, chosen == .csv { try refuseChromeProperties(input) }
        // A player log names one tracker per session: a file is read twice, to count them first
        // (an access log, to find where each session's last dump ends).
        if chosen?.isPlayerLog == true, PlayerLogTrackers.isRereadable(path) {
            let counted = try ByteInput(path: path)
            counted.limits = limits
            if chosen == .avplayerAccesslog { return try AccessLogReader(input, indexing: counted, warn: warn) }
            if chosen == .exoplayerLog {
                return try ExoPlayerLogReader(
                    input, sessions: try ExoPlayerLogReader.countSessions(counted), warn: warn)
            }
            return try ChromeMediaLogReader(input, players: try ChromeMediaLogReader.countPlayers(counted), warn: warn)
        }
        // A JSON document's settings may follow its steps: a file is read a first time for them.
        var again: ByteInput?
        if chosen == .json, PlayerLogTrackers.isRereadable(path) {
            again = try ByteInput(path: path)
            again?.limits = limits
        }
        return try open(input, format: chosen, csvTrackers: csvTrackers, warn: warn, again: again)
    }

    /// Chrome's Player Properties panel pasted as a log: said as such, not as a bad CSV timeline.
    private static func refuseChromeProperties(_ input: ByteInput) throws(TimelineError) {
        if let properties = ChromePropertiesPaste.read(try input.peek(1 << 16)[...]) {
            throw TimelineError(file: input.name, message: ChromePropertiesPaste.message(properties))
        }
    }

    /// Opens an input already at hand; nil format sniffs the content. A player log's warnings go
    /// to `warn` (dropped when none is given).
    public static func open(
        _ input: ByteInput, format: TimelineFormat?, csvTrackers: [TrackerSpec] = [],
        warn: @escaping (String) -> Void = { _ in }
    ) throws(TimelineError) -> any TimelineSource {
        try open(input, format: format, csvTrackers: csvTrackers, warn: warn, again: nil)
    }

    /// `again`: for a JSON document, the same file opened a second time (see `JSONTimelineReader`).
    private static func open(
        _ input: ByteInput, format: TimelineFormat?, csvTrackers: [TrackerSpec], warn: @escaping (String) -> Void,
        again: ByteInput?
    ) throws(TimelineError) -> any TimelineSource {
        var chosen: TimelineFormat
        if let known = format {
            chosen = known
        } else {
            chosen = TimelineFormat.sniff(try input.peek(1 << 16))
        }
        // Records of a replay in place of a timeline: said as such, not as the key a timeline lacks.
        if chosen == .json || chosen == .jsonl, EventLogSniffer.isEventLog(try input.peek(1 << 16)) {
            throw .eventLog(file: input.name)
        }
        switch chosen {
        case .json:
            return try JSONTimelineReader.open(input, again: again)
        case .jsonl:
            return try JSONLTimelineReader(input)
        case .csv:
            if format == nil { try refuseChromeProperties(input) }
            return try CSVTimelineReader(input, trackers: csvTrackers)
        case .avmetrics:
            return try AVMetricsLogReader(input)
        case .exoplayerLog:
            return try ExoPlayerLogReader(input, warn: warn)
        case .chromeMediaLog:
            return try ChromeMediaLogReader(input, warn: warn)
        case .avplayerAccesslog:
            return try AccessLogReader(input, warn: warn)
        }
    }
}
