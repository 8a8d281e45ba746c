import AVTJSON

/// Tells records as `avtreplay run` writes them from a timeline: the commands that read
/// timelines refuse an event log with the fix, rather than with the first key a timeline lacks.
public enum EventLogSniffer {
    /// Whether the first non-blank line is an object with `"type": "event"` or `"metric"`.
    public static func isEventLog(_ head: [UInt8]) -> Bool {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).makeIterator()
        while let line = lines.next() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            guard let node = try? JSONParser.parse(Array(line)), case .object(let members) = node.value,
                case .string(let type)? = members.first(where: { $0.key == "type" })?.node.value
            else { return false }
            return type == "event" || type == "metric"
        }
        return false
    }
}
