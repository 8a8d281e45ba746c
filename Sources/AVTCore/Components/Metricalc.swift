/// Derives metrics from each event the hub accepted. The instrument delivers the returned
/// metrics to the backend, in order, before the event itself.
public protocol Metricalc: AnyObject {
    func instrumentReady(_ instrument: Instrument)
    func processMetric(_ event: Event, tracker: Tracker) -> [Metric]
    func endOfService()
}

extension Metricalc {
    public func instrumentReady(_ instrument: Instrument) {}
    public func endOfService() {}
}
