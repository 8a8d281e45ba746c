/// Turns a player's callbacks into actions (`instrument.emit(.start, tracker: self)`), registers
/// getters for the attributes it knows (position, bitrate, …) and may edit each of its events
/// before the hub sees it.
public protocol Tracker: AnyObject {
    /// Assigned by `Instrument.addTracker`; nil until then.
    var trackerId: Int? { get set }
    /// This tracker's playback state; hubs read and change it.
    var state: TrackerState { get set }
    /// Called by `Instrument.ready()`; may be called again after hot-plugging, so emit
    /// one-time events (TrackerInit) only the first time.
    func instrumentReady(_ instrument: Instrument)
    /// Last chance to edit or drop (return nil) an event this tracker emitted. The event is
    /// `consuming` so an edit does not copy its attributes; implementations may omit the modifier.
    func initEvent(_ event: consuming Event) -> Event?
    /// Called by `Instrument.shutdown()` and `Instrument.removeTracker(_:)`; stop observing the
    /// player.
    func endOfService()
}

extension Tracker {
    /// Does nothing by default.
    public func instrumentReady(_ instrument: Instrument) {}
    /// Passes every event through unchanged by default.
    public func initEvent(_ event: consuming Event) -> Event? { event }
    /// Does nothing by default.
    public func endOfService() {}
}
