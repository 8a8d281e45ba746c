#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a player's log from a timeline by its first bytes (up to 64 KB), for
/// `TimelineFormat.sniff`: an input is detected from its content, whatever its name.
package enum PlayerLogSniffer {
    /// The player log a text input is, else nil (a CSV timeline or something unknown).
    /// - An access log: a `#Version:`, `#Software:`, `#Date:` or `#Fields:` line of the W3C
    ///   extended log format first.
    /// - A Chrome media log table: a `HH:MM:SS.mmm | key | value` (or tab-separated) row.
    /// - An ExoPlayer log: any line with an EventLogger message (`state [`, `playWhenReady [` …).
    /// - A Chrome saved log cut anywhere: its entries (`isChromeLog`).
    package static func textFormat(_ head: ArraySlice<UInt8>) -> TimelineFormat? {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: true)
        // The last line of a 64 KB head may be cut: it still counts, it is only a hint.
        if lines.count > 2000 { lines = Array(lines.prefix(2000)) }
        guard let first = lines.first(where: { $0.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D } }) else {
            return nil
        }
        let firstText = String(decoding: first.prefix(64), as: UTF8.self)
        // A CSV timeline's own first lines.
        if firstText.hasPrefix("#avtreplay") || firstText.hasPrefix("t,") { return nil }
        if ["#Version:", "#Software:", "#Date:", "#Fields:", "#Remark:"].contains(where: { firstText.hasPrefix($0) }) {
            return .avplayerAccesslog
        }
        // An app prints its own lines around the dumps (`Player[4242:1893321] access log …`):
        // an access log's `#Fields:` header with its `cs-guid` tells it further down.
        if lines.contains(where: isAccessLogFields) { return .avplayerAccesslog }
        for line in lines where ChromeTableRow.parse(Array(line)) != nil { return .chromeMediaLog }
        for line in lines {
            let kind = Array(line).withUnsafeBufferPointer { EventLoggerLine.parse($0).kind }
            if kind == .event || kind == .playerInit { return .exoplayerLog }
        }
        // A saved log pasted from its middle, or with prose around it.
        return isChromeLog(head) ? .chromeMediaLog : nil
    }

    /// A `#Fields:` line naming `cs-guid`: the W3C extended log header of an AVPlayer access log.
    private static func isAccessLogFields(_ line: ArraySlice<UInt8>) -> Bool {
        line.starts(with: "#Fields:".utf8) && line.firstRange(of: Array(" cs-guid".utf8)) != nil
    }

    /// The saved log (`[{"properties": …, "events": [{"time", "key", "value"}]}]`), one copied
    /// player, the raw players map (`{"1:0": {…, "allEvents": […]}}`), or a paste cut out of any
    /// of them (entries `{"time": 12.5, "key": "event", …}` whatever encloses them, text around
    /// them): its member names near the top. A JSON timeline has `trackers` and `steps` instead.
    package static func isChromeLog(_ head: ArraySlice<UInt8>) -> Bool {
        let text = head.prefix(1 << 16)
        let found = quoted(in: text)
        if found.contains(.allEvents) || found.contains(.firstTimestamp) { return true }
        if found.contains(.steps) { return false }
        if found.contains(.events) && (found.contains(.properties) || found.contains(.key)) { return true }
        // Entries alone; a JSONL timeline's steps name their `tracker` (a member no Chrome log
        // has), so attributes that happen to be called time and key do not make one a log.
        return !found.contains(.tracker) && hasEntry(text)
    }

    /// The quoted names that tell a Chrome log from a timeline.
    struct Names: OptionSet {
        let rawValue: UInt8
        static let allEvents = Names(rawValue: 1)
        static let firstTimestamp = Names(rawValue: 2)
        static let steps = Names(rawValue: 4)
        static let events = Names(rawValue: 8)
        static let properties = Names(rawValue: 16)
        static let key = Names(rawValue: 32)
        static let tracker = Names(rawValue: 64)
    }

    private static let needles: [(Names, [UInt8])] = [
        (.allEvents, Array(#""allEvents""#.utf8)), (.firstTimestamp, Array(#""firstTimestamp_""#.utf8)),
        (.steps, Array(#""steps""#.utf8)), (.events, Array(#""events""#.utf8)),
        (.properties, Array(#""properties""#.utf8)), (.key, Array(#""key""#.utf8)),
        (.tracker, Array(#""tracker""#.utf8)),
    ]

    /// Which of the names occur in `bytes` (as a substring search would find them), in one pass:
    /// each starts with a quote, so each quote is tried against all of them. Every JSON timeline
    /// is sniffed, and one search per name cost more than reading a small timeline.
    static func quoted(in bytes: ArraySlice<UInt8>) -> Names {
        bytes.withUnsafeBufferPointer { b in
            var found: Names = []
            guard let base = b.baseAddress else { return found }
            var from = 0
            while from < b.count, let hit = memchr(base + from, 0x22, b.count - from) {
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                for (name, needle) in needles where !found.contains(name) && at + needle.count <= b.count {
                    if b[at + 1] == needle[1], memcmp(base + at, needle, needle.count) == 0 { found.insert(name) }
                }
                from = at + 1
            }
            return found
        }
    }

    /// Whether the bytes hold a media-internals entry: a `"time"` member with a number, then in
    /// the same object a `"key"` member with a string (the order Chrome writes them).
    static func hasEntry(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while let time = rest.firstRange(of: timeName) {
            rest = bytes[time.upperBound...]
            guard let number = value(after: rest), number.first.map(isNumberStart) == true else { continue }
            // The key must follow before the object closes.
            let object = rest.prefix { $0 != UInt8(ascii: "}") && $0 != UInt8(ascii: "{") }
            if let key = object.firstRange(of: keyName), value(after: object[key.upperBound...])?.first == 0x22 {
                return true
            }
        }
        return false
    }

    private static let timeName = Array("\"time\"".utf8)
    private static let keyName = Array("\"key\"".utf8)

    /// The bytes after a member name's colon (blanks skipped), or nil without a colon.
    private static func value(after bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        let afterName = bytes.drop(while: blank)
        guard afterName.first == UInt8(ascii: ":") else { return nil }
        return afterName.dropFirst().drop(while: blank)
    }

    private static func isNumberStart(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
    }
}
