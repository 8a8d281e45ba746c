/// Playback state of one tracker. Hubs read and change it; nothing in the engine resets it as a
/// whole (upstream's `reset()` is never called, and the sharp edges depend on that).
public struct TrackerState: Equatable, Sendable {
    /// A MediaRequest of this tracker was accepted; never cleared, so later ones are rejected.
    public var didMediaRequest = false
    /// A PlayerSet of this tracker was accepted; never cleared, so later ones are rejected.
    public var didPlayerSet = false
    /// A StreamLoad of this tracker was accepted; never cleared, so later ones are rejected.
    public var didStreamLoad = false
    /// The playback started (an accepted Start); cleared when the tracker is re-armed after its
    /// playback finished.
    public var didStart = false
    /// Between an accepted BufferBegin and its BufferFinish.
    public var isBuffering = false
    /// Between an accepted PauseBegin and its PauseFinish (under HubCoreAds, also AdPauseBegin and
    /// AdPauseFinish).
    public var isPaused = false
    /// Between an accepted SeekBegin and its SeekFinish.
    public var isSeeking = false
    /// An accepted End, Stop or Next finished the playback; the next event of the tracker to reach
    /// the hub clears it along with started, paused, buffering and seeking.
    public var didFinish = false
    /// Between an accepted AdBreakBegin and AdBreakFinish; HubCoreAds sets it on every tracker at
    /// once.
    public var inAdBreak = false
    /// Between an accepted AdBegin and AdFinish; HubCoreAds sets it on every tracker at once.
    public var inAd = false

    /// The state of a tracker that has done nothing yet: every flag false.
    public init() {}

    /// Clears every flag; the built-in hubs never call it.
    public mutating func reset() { self = TrackerState() }
}
