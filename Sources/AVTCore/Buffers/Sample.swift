/// What a backend buffers: an event or a metric, each with its virtual timestamp.
public enum Sample: Sendable {
    /// An event the hub accepted.
    case event(Event)
    /// A metric from the metricalc.
    case metric(Metric)

    /// The virtual time of the event or metric, in milliseconds since t=0.
    public var timestamp: Int {
        switch self {
        case .event(let e): return e.timestamp
        case .metric(let m): return m.timestamp
        }
    }
}
