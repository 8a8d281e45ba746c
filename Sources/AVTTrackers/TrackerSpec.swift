/// One tracker of a timeline. Trackers get ids 0, 1, … in list order.
public struct TrackerSpec: Sendable, Equatable {
    /// The name steps refer to it by.
    public var name: String
    /// Which tracker logic interprets its `observe` steps.
    public var kind: TrackerKind
    /// Whether its `isAdsTracker` getter answers true (HubCoreAds reads it).
    public var isAdsTracker: Bool
    /// Whether it emits TrackerInit from `instrumentReady` (the first time only).
    public var emitTrackerInit: Bool

    /// A tracker; nil `isAdsTracker` and `emitTrackerInit` take the kind's defaults.
    public init(name: String, kind: TrackerKind = .generic, isAdsTracker: Bool? = nil, emitTrackerInit: Bool? = nil) {
        self.name = name
        self.kind = kind
        self.isAdsTracker = isAdsTracker ?? kind.isAdsByDefault
        self.emitTrackerInit = emitTrackerInit ?? kind.emitsTrackerInitByDefault
    }
}
