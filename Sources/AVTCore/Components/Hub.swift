/// Keeps playback state: accepts or blocks (returns nil for) each event and stamps the
/// state attributes on the ones it accepts.
public protocol Hub: AnyObject {
    /// Called by `Instrument.ready()`, or at once when set on an instrument that is already ready,
    /// before the first event reaches it. A hub keeps the instrument to read the clock, make ids
    /// and start pings.
    func instrumentReady(_ instrument: Instrument)
    /// Returns the event, stamped with the hub's attributes, to accept it, or nil to block it. The
    /// event is `consuming` so stamping does not copy the attributes; implementations may omit the
    /// modifier.
    func processEvent(_ event: consuming Event, tracker: Tracker) -> Event?
    /// Called by `Instrument.shutdown()` or when the hub is replaced.
    func endOfService()
}

extension Hub {
    /// Does nothing by default.
    public func instrumentReady(_ instrument: Instrument) {}
    /// Does nothing by default.
    public func endOfService() {}
}
