/// Where accepted events and their metrics go: stdout, a file, a database.
public protocol Backend: AnyObject {
    /// Called by `Instrument.ready()`, or at once when set on an instrument that is already ready,
    /// before the first event reaches it.
    func instrumentReady(_ instrument: Instrument)
    /// Receives an event the hub accepted, after the metrics derived from it.
    func sendEvent(_ event: Event)
    /// Receives a metric from the metricalc, before the event it was derived from.
    func sendMetric(_ metric: Metric)
    /// Flush and release resources; called by `Instrument.shutdown()` or when replaced.
    func endOfService()
}

extension Backend {
    /// Does nothing by default.
    public func instrumentReady(_ instrument: Instrument) {}
    /// Does nothing by default.
    public func endOfService() {}
}
