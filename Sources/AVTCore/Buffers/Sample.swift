/// What a backend buffers: an event or a metric, each with its virtual timestamp.
public enum Sample: Sendable {
    case event(Event)
    case metric(Metric)

    public var timestamp: Int {
        switch self {
        case .event(let e): return e.timestamp
        case .metric(let m): return m.timestamp
        }
    }
}
