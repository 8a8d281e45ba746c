import AVTJSON

/// Tells records as `avtreplay run` writes them from a timeline: the commands that read
/// timelines refuse an event log with the fix, rather than with the first key a timeline lacks.
public enum EventLogSniffer {
    /// Whether the first non-blank line is an object with `"type": "event"` or `"metric"`.
    public static func isEventLog(_ head: [UInt8]) -> Bool {
        guard let line = FirstLine.nonBlank(head[...]),
            let node = try? JSONParser.parse(Array(line)), case .object(let members) = node.value,
            case .string(let type)? = members.first(where: { $0.key == "type" })?.node.value
        else { return false }
        return type == "event" || type == "metric"
    }
}
