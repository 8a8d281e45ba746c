/// Keeps playback state: accepts or blocks (returns nil for) each event and stamps the
/// state attributes on the ones it accepts.
public protocol Hub: AnyObject {
    func instrumentReady(_ instrument: Instrument)
    func processEvent(_ event: Event, tracker: Tracker) -> Event?
    func endOfService()
}

extension Hub {
    public func instrumentReady(_ instrument: Instrument) {}
    public func endOfService() {}
}
