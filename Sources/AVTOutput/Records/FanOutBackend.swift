import AVTCore

/// Sends every delivery to several backends (`--to stdout --to influxdb://…`), in order. Any
/// backend plugs in, e.g. a `KPIBackend` beside a user's own; the first write error of those
/// that are `RecordBackend`s is the fan-out's.
public final class FanOutBackend: RecordBackend {
    /// The backends, in the order each record reaches them.
    public let backends: [Backend]

    /// Sends every record to each of `backends`.
    public init(_ backends: [Backend]) { self.backends = backends }

    /// The first write error of a record backend among them.
    public var writeError: OutputError? {
        backends.lazy.compactMap { ($0 as? RecordBackend)?.writeError }.first
    }

    public func instrumentReady(_ instrument: Instrument) {
        for backend in backends { backend.instrumentReady(instrument) }
    }
    public func sendEvent(_ event: Event) { for backend in backends { backend.sendEvent(event) } }
    public func sendMetric(_ metric: Metric) { for backend in backends { backend.sendMetric(metric) } }
    public func endOfService() { for backend in backends { backend.endOfService() } }
}
