/// Tells a player's log from a timeline by its first bytes (up to 64 KB), for
/// `TimelineFormat.sniff`: an input is detected from its content, whatever its name.
package enum PlayerLogSniffer {
    /// The player log a text input is, else nil (a CSV timeline or something unknown).
    /// - An access log: a `#Version:`, `#Software:`, `#Date:` or `#Fields:` line of the W3C
    ///   extended log format first.
    /// - A Chrome media log table: a `HH:MM:SS.mmm | key | value` (or tab-separated) row.
    /// - An ExoPlayer log: any line with an EventLogger message (`state [`, `playWhenReady [` …).
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
        for line in lines where ChromeTableRow.parse(Array(line)) != nil { return .chromeMediaLog }
        for line in lines {
            let kind = Array(line).withUnsafeBufferPointer { EventLoggerLine.parse($0).kind }
            if kind == .event || kind == .playerInit { return .exoplayerLog }
        }
        return nil
    }

    /// The saved log (`[{"properties": …, "events": [{"time", "key", "value"}]}]`), one copied
    /// player, or the raw players map (`{"1:0": {…, "allEvents": […]}}`): its member names near
    /// the top. A JSON timeline has `trackers` and `steps` instead.
    package static func isChromeLog(_ head: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: head.prefix(1 << 16), as: UTF8.self)
        if text.contains("\"allEvents\"") || text.contains("\"firstTimestamp_\"") { return true }
        return text.contains("\"events\"") && (text.contains("\"properties\"") || text.contains("\"key\""))
            && !text.contains("\"steps\"")
    }
}
