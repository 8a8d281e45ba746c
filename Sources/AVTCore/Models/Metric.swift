/// A number derived from events by a metricalc. Types are semantic only (OpenAVT docs 4.4):
/// backends may aggregate counters by summing and gauges by taking the last value.
public struct Metric: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case counter
        case gauge
    }

    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case int(Int)
        case double(Double)

        public var description: String {
            switch self {
            case .int(let v): return String(v)
            case .double(let v): return String(v)
            }
        }
    }

    public let name: String
    public let kind: Kind
    public let value: Value
    /// Virtual milliseconds since t=0 when the metric was created.
    public let timestamp: Int

    public init(name: String, kind: Kind, value: Value, timestamp: Int) {
        self.name = name
        self.kind = kind
        self.value = value
        self.timestamp = timestamp
    }
}

extension Metric {
    /// Milliseconds from the first MediaRequest (or StreamLoad) to Start.
    public static func startTime(_ ms: Int, at t: Int) -> Metric { .init(name: "StartTime", kind: .gauge, value: .int(ms), timestamp: t) }
    public static func numPlays(at t: Int) -> Metric { .init(name: "NumPlays", kind: .counter, value: .int(1), timestamp: t) }
    public static func rebufferTime(_ ms: Int, at t: Int) -> Metric { .init(name: "RebufferTime", kind: .gauge, value: .int(ms), timestamp: t) }
    public static func numRebuffers(at t: Int) -> Metric { .init(name: "NumRebuffers", kind: .counter, value: .int(1), timestamp: t) }
    public static func playTime(_ ms: Int, at t: Int) -> Metric { .init(name: "PlayTime", kind: .gauge, value: .int(ms), timestamp: t) }
    public static func numRequests(at t: Int) -> Metric { .init(name: "NumRequests", kind: .counter, value: .int(1), timestamp: t) }
    public static func numLoads(at t: Int) -> Metric { .init(name: "NumLoads", kind: .counter, value: .int(1), timestamp: t) }
    public static func numEnds(at t: Int) -> Metric { .init(name: "NumEnds", kind: .counter, value: .int(1), timestamp: t) }
}
