import AVTCore

/// Sends every delivery to several backends (`--to stdout --to influxdb://…`), in order. Any
/// backend plugs in, e.g. a `KPIBackend` beside a user's own; the first write error of those
/// that are `RecordBackend`s is the fan-out's.
public final class FanOutBackend: RecordBackend {
    public let backends: [Backend]

    public init(_ backends: [Backend]) { self.backends = backends }

    public var writeError: OutputError? {
        backends.lazy.compactMap { ($0 as? RecordBackend)?.writeError }.first
    }

    public func instrumentReady(_ instrument: Instrument) { backends.forEach { $0.instrumentReady(instrument) } }
    public func sendEvent(_ event: Event) { backends.forEach { $0.sendEvent(event) } }
    public func sendMetric(_ metric: Metric) { backends.forEach { $0.sendMetric(metric) } }
    public func endOfService() { backends.forEach { $0.endOfService() } }
}
