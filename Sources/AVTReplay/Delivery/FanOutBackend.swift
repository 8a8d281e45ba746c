import AVTCore

/// Sends every delivery to several backends (`--to stdout --to influxdb://…`).
public final class FanOutBackend: RecordBackend {
    public let backends: [RecordBackend]

    public init(_ backends: [RecordBackend]) { self.backends = backends }

    public var writeError: OutputError? { backends.lazy.compactMap(\.writeError).first }

    public func instrumentReady(_ instrument: Instrument) { backends.forEach { $0.instrumentReady(instrument) } }
    public func sendEvent(_ event: Event) { backends.forEach { $0.sendEvent(event) } }
    public func sendMetric(_ metric: Metric) { backends.forEach { $0.sendMetric(metric) } }
    public func endOfService() { backends.forEach { $0.endOfService() } }
}
