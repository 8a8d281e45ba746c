/// Playback state of one tracker. Hubs read and change it; nothing in the engine resets it as a
/// whole (upstream's `reset()` is never called, and the sharp edges depend on that).
public struct TrackerState: Equatable, Sendable {
    public var didMediaRequest = false
    public var didPlayerSet = false
    public var didStreamLoad = false
    public var didStart = false
    public var isBuffering = false
    public var isPaused = false
    public var isSeeking = false
    public var didFinish = false
    /// Set on every tracker by HubCoreAds.
    public var inAdBreak = false
    /// Set on every tracker by HubCoreAds.
    public var inAd = false

    public init() {}

    public mutating func reset() { self = TrackerState() }
}
