/// One entry of an `AVPlayerItemErrorLog` dump (`date time uri cs-guid s-ip status domain
/// comment`): an error the player met and, as far as the log says, went on from. The log has no
/// field that tells a failed playback from a retried request, so each entry is replayed as a
/// non-fatal `errorLogEvent`.
package struct AccessLogErrorEntry: Equatable {
    package var guid: String
    /// `date` as ms since 1970 (device local time read as UTC); nil for `- -`.
    package var date: Int?
    /// `status domain comment`, quotes removed: `-12938 CoreMediaErrorDomain HTTP 404: File Not Found`.
    package var text: String
    /// The source line, for step origins.
    package var line: Int

    /// Reads an error-log row given the header's field names; nil without a cs-guid or with a
    /// date that cannot be read.
    package static func parse(_ tokens: [Substring], fields: [Substring], line: Int) -> AccessLogErrorEntry? {
        guard tokens.count == fields.count else { return nil }
        // A field named twice has its last value (as a table by name would): six searches of a
        // short list cost less than a table built per entry.
        func value(_ name: String) -> Substring? { fields.lastIndex { $0 == name }.map { tokens[$0] } }
        guard let guid = value("cs-guid"), guid != "-" else { return nil }
        var date: Int?
        if let day = value("date"), let time = value("time"), day != "-" {
            guard let parsed = AccessLogRow.date(day, time) else { return nil }
            date = parsed
        }
        let parts = ["status", "domain", "comment"].compactMap { name -> String? in
            guard var value = value(name), value != "-" else { return nil }
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return value.isEmpty ? nil : String(value)
        }
        return AccessLogErrorEntry(
            guid: String(guid), date: date, text: parts.isEmpty ? "error log entry" : parts.joined(separator: " "),
            line: line)
    }
}
