import AVTCore
import AVTJSON
import AVTTrackers

/// Everything of a timeline but its steps: how to build the instrument and when the replay ends.
public struct TimelineSettings: Sendable, Equatable {
    /// Epoch milliseconds of virtual t=0.
    public var startTime: Int = 0
    /// nil: HubCoreAds if any tracker is an ads tracker, else HubCore.
    public var hub: HubKind?
    /// Whether the metricalc runs (metrics records).
    public var metrics: Bool = true
    /// Milliseconds between pings; 0 disables them.
    public var pingInterval: Int = 30_000
    /// Virtual time at which the replay ends; nil: the last step's t.
    public var until: Int?
    /// The trackers, ids 0, 1, … in order.
    public var trackers: [TrackerSpec] = []

    /// The defaults: t=0 at epoch 0, the hub the trackers call for, metrics, 30 s pings, no trackers.
    public init() {}

    /// The hub that runs: the explicit one, else "ads" when any tracker is an ads tracker.
    public var effectiveHub: HubKind {
        hub ?? (trackers.contains { $0.isAdsTracker } ? .ads : .core)
    }
}
