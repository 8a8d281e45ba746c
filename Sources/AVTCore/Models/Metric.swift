/// A number derived from events by a metricalc. Its kind is a hint for backends only: they may
/// aggregate counters by summing and gauges by taking the last value.
public struct Metric: Sendable, Equatable {
    /// How a backend may aggregate the metric; the kind changes nothing in the engine.
    public enum Kind: String, Sendable {
        /// Counts occurrences: each metric is one occurrence, to be summed.
        case counter
        /// A measurement, such as a duration, to be taken as it is.
        case gauge
    }

    /// The metric's number; every metric MetricalcCore makes is an `.int`.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        /// An integer, such as milliseconds or a count of 1.
        case int(Int)
        /// A floating-point number, for metrics of your own.
        case double(Double)

        /// The number as plain text.
        public var description: String {
            switch self {
            case .int(let v): return String(v)
            case .double(let v): return String(v)
            }
        }
    }

    /// The metric's name, such as `StartTime` or `NumPlays`.
    public let name: String
    /// Counter or gauge.
    public let kind: Kind
    /// The number: milliseconds for MetricalcCore's gauges, 1 for its counters.
    public let value: Value
    /// Virtual milliseconds since t=0 when the metric was created.
    public let timestamp: Int

    /// A metric named `name` of the given kind and value at `timestamp`.
    public init(name: String, kind: Kind, value: Value, timestamp: Int) {
        self.name = name
        self.kind = kind
        self.value = value
        self.timestamp = timestamp
    }
}

extension Metric {
    /// `StartTime`, a gauge: the Start event's `timeSinceMediaRequest`, else its
    /// `timeSinceStreamLoad`, in milliseconds.
    public static func startTime(_ ms: Int, at t: Int) -> Metric {
        .init(name: "StartTime", kind: .gauge, value: .int(ms), timestamp: t)
    }
    /// `NumPlays`, a counter of 1 for each accepted Start.
    public static func numPlays(at t: Int) -> Metric {
        .init(name: "NumPlays", kind: .counter, value: .int(1), timestamp: t)
    }
    /// `RebufferTime`, a gauge: the milliseconds of one rebuffer, the `timeSinceBufferBegin` of its
    /// BufferFinish.
    public static func rebufferTime(_ ms: Int, at t: Int) -> Metric {
        .init(name: "RebufferTime", kind: .gauge, value: .int(ms), timestamp: t)
    }
    /// `NumRebuffers`, a counter of 1 for each rebuffer.
    public static func numRebuffers(at t: Int) -> Metric {
        .init(name: "NumRebuffers", kind: .counter, value: .int(1), timestamp: t)
    }
    /// `PlayTime`, a gauge: milliseconds played since the hub's previous accepted event, the
    /// event's `deltaPlayTime`.
    public static func playTime(_ ms: Int, at t: Int) -> Metric {
        .init(name: "PlayTime", kind: .gauge, value: .int(ms), timestamp: t)
    }
    /// `NumRequests`, a counter of 1 for each accepted MediaRequest.
    public static func numRequests(at t: Int) -> Metric {
        .init(name: "NumRequests", kind: .counter, value: .int(1), timestamp: t)
    }
    /// `NumLoads`, a counter of 1 for each accepted StreamLoad.
    public static func numLoads(at t: Int) -> Metric {
        .init(name: "NumLoads", kind: .counter, value: .int(1), timestamp: t)
    }
    /// `NumEnds`, a counter of 1 for each accepted End, Stop or Next.
    public static func numEnds(at t: Int) -> Metric {
        .init(name: "NumEnds", kind: .counter, value: .int(1), timestamp: t)
    }
}
