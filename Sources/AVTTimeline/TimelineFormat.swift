import AVTJSON
import AVTTrackers

/// The timeline formats (and the AVMetrics log, read as a timeline).
public enum TimelineFormat: String, Sendable, CaseIterable {
    /// One JSON document with `steps` (held in memory whole).
    case json
    /// JSON Lines: a settings line, then one step per line (streamed).
    case jsonl
    /// A header row, then one step per row (streamed).
    case csv
    /// A log of serialized Apple AVMetrics events, one per line with absolute dates (streamed;
    /// read only: docs/timelines.md).
    case avmetrics
    /// ExoPlayer / Media3 `EventLogger` lines from logcat (streamed; read only: docs/player-logs.md).
    case exoplayerLog = "exoplayer-log"
    /// Chrome's `chrome://media-internals` player log: the saved JSON, or the table copied as text
    /// (read only).
    case chromeMediaLog = "chrome-media-log"
    /// Apple's `AVPlayerItemAccessLog` / `ErrorLog` extended log text (read only).
    case avplayerAccesslog = "avplayer-accesslog"

    /// Whether `convert` can write it (the AVMetrics and player logs are input only).
    public var isWritable: Bool { !isPlayerLog && self != .avmetrics }

    /// A player's own log, read into a derived timeline.
    public var isPlayerLog: Bool { self == .exoplayerLog || self == .chromeMediaLog || self == .avplayerAccesslog }

    /// By file extension: .json, .jsonl/.ndjson, .csv.
    public static func fromExtension(of path: String) -> TimelineFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return .jsonl }
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".csv") { return .csv }
        return nil
    }

    /// By content, for stdin or an unknown extension. Text: a player log when its first lines
    /// say so (`PlayerLogSniffer`), else CSV. `[` or `{`: a Chrome media log if it has its keys; an AVMetrics log if the first line is an object whose `event` starts
    /// with `AVMetric`; JSONL if the first line alone is a complete object without `steps`;
    /// otherwise a JSON document.
    public static func sniff(_ head: [UInt8]) -> TimelineFormat {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .csv }
        if bytes[first] == UInt8(ascii: "[") {
            return PlayerLogSniffer.isChromeLog(bytes[first...]) ? .chromeMediaLog : .json
        }
        guard bytes[first] == UInt8(ascii: "{") else { return PlayerLogSniffer.textFormat(bytes[first...]) ?? .csv }
        if PlayerLogSniffer.isChromeLog(bytes[first...]) { return .chromeMediaLog }
        let line = bytes[first...].prefix { $0 != UInt8(ascii: "\n") }
        if AVMetricsLogReader.looksLikeEvent(line) { return .avmetrics }
        guard let node = try? JSONParser.parse(Array(line)), case .object(let members) = node.value else {
            return .json
        }
        return members.contains { $0.key == "steps" } ? .json : .jsonl
    }
}
