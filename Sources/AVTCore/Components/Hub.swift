/// Keeps playback state: accepts or blocks (returns nil for) each event and stamps the
/// state attributes on the ones it accepts.
public protocol Hub: AnyObject {
    func instrumentReady(_ instrument: Instrument)
    /// `consuming` so stamping does not copy the attributes; implementations may omit the modifier.
    func processEvent(_ event: consuming Event, tracker: Tracker) -> Event?
    func endOfService()
}

extension Hub {
    public func instrumentReady(_ instrument: Instrument) {}
    public func endOfService() {}
}
