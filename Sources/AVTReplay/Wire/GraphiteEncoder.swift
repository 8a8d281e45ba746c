import AVTCore
import AVTJSON

/// Graphite's plaintext protocol (field reference 4.2): `PREFIX.<MetricName> <value> <epoch s>`.
/// Events are not sent (as upstream) unless `events` is on: then each counts as
/// `PREFIX.events.<Action> 1`. Path components are sanitised to `[A-Za-z0-9_-]` (anything else
/// becomes `_`), because carbon splits lines on white space and paths on dots.
public struct GraphiteEncoder: Sendable {
    public var prefix = "OAVT"
    public var events = false

    public init() {}

    public func write(_ metric: Metric, startTime: Int, into w: inout JSONBuffer) {
        switch metric.value {
        case .int(let v): line(path: [metric.name], value: String(v), ms: startTime + metric.timestamp, into: &w)
        case .double(let v):
            // Carbon drops NaN silently; never send it.
            guard v.isFinite else { return }
            line(path: [metric.name], value: v.description, ms: startTime + metric.timestamp, into: &w)
        }
    }

    public func write(_ event: Event, startTime: Int, into w: inout JSONBuffer) {
        guard events else { return }
        line(path: ["events", event.action.name], value: "1", ms: startTime + event.timestamp, into: &w)
    }

    private func line(path: [String], value: String, ms: Int, into w: inout JSONBuffer) {
        let components = prefix.split(separator: ".").map(String.init) + path
        w.raw(components.map(Self.sanitize).joined(separator: "."))
        w.raw(" ")
        w.raw(value)
        w.raw(" ")
        w.int(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        w.raw("\n")
    }

    static func sanitize(_ component: String) -> String {
        let cleaned = String(component.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return Character(scalar)
            default: return "_"
            }
        })
        return cleaned.isEmpty ? "_" : cleaned
    }
}
