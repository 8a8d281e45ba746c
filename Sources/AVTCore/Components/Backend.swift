/// Where accepted events and their metrics go: stdout, a file, a database.
public protocol Backend: AnyObject {
    func instrumentReady(_ instrument: Instrument)
    func sendEvent(_ event: Event)
    func sendMetric(_ metric: Metric)
    /// Flush and release resources; called by `Instrument.shutdown()` or when replaced.
    func endOfService()
}

extension Backend {
    public func instrumentReady(_ instrument: Instrument) {}
    public func endOfService() {}
}
