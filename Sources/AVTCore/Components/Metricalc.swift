/// Derives metrics from each event the hub accepted. The instrument delivers the returned
/// metrics to the backend, in order, before the event itself.
public protocol Metricalc: AnyObject {
    /// Called by `Instrument.ready()`, or at once when set on an instrument that is already ready,
    /// before the first event reaches it.
    func instrumentReady(_ instrument: Instrument)
    /// The metrics derived from an event the hub accepted, in the order the backend receives them;
    /// often empty.
    func processMetric(_ event: Event, tracker: Tracker) -> [Metric]
    /// Called by `Instrument.shutdown()` or when the metricalc is replaced.
    func endOfService()
}

extension Metricalc {
    /// Does nothing by default.
    public func instrumentReady(_ instrument: Instrument) {}
    /// Does nothing by default.
    public func endOfService() {}
}
