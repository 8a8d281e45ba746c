import AVTCore
import AVTTimeline
import AVTTrackers

/// What a replay builds its instrument from: the hub and metricalc for a timeline's settings,
/// and a tracker for each of its trackers. `standard` builds OpenAVT's own; a library user
/// swaps in their own hub, metricalc or tracker class and keeps the rest.
///
/// The factories are `@Sendable`, so a components value can be a `static let` shared by tests
/// under Swift 6 (each replay calls them for its own instrument).
public struct ReplayComponents: Sendable {
    /// The hub for these settings.
    public var makeHub: @Sendable (TimelineSettings) -> Hub
    /// The metricalc for these settings; nil for no metrics.
    public var makeMetricalc: @Sendable (TimelineSettings) -> Metricalc?
    /// The tracker for one of the timeline's trackers. It must take the timeline's steps, so it
    /// is a `ScriptableTracker` (subclass one to add player logic).
    public var makeTracker: @Sendable (TrackerSpec) -> ScriptableTracker

    /// Components with any of the three factories swapped; the others are OpenAVT's.
    public init(
        makeHub: @escaping @Sendable (TimelineSettings) -> Hub = ReplayComponents.standardHub,
        makeMetricalc: @escaping @Sendable (TimelineSettings) -> Metricalc? = ReplayComponents.standardMetricalc,
        makeTracker: @escaping @Sendable (TrackerSpec) -> ScriptableTracker = ReplayComponents.standardTracker
    ) {
        self.makeHub = makeHub
        self.makeMetricalc = makeMetricalc
        self.makeTracker = makeTracker
    }

    /// OpenAVT's hub, metricalc and the tracker class of each spec's kind.
    public static var standard: ReplayComponents { ReplayComponents() }

    /// HubCore, or HubCoreAds when the settings ask for ads (explicitly or through an ads tracker).
    public static func standardHub(_ settings: TimelineSettings) -> Hub {
        switch settings.effectiveHub {
        case .core: HubCore(pingInterval: settings.pingInterval)
        case .ads: HubCoreAds(pingInterval: settings.pingInterval)
        }
    }

    /// MetricalcCore unless metrics are off; with the pre-call window metrics only when a
    /// netstats tracker can produce windows.
    public static func standardMetricalc(_ settings: TimelineSettings) -> Metricalc? {
        guard settings.metrics else { return nil }
        return settings.trackers.contains { $0.kind == .netstats } ? NetStatsMetricalc() : MetricalcCore()
    }

    /// A new tracker of the spec's kind.
    public static func standardTracker(_ spec: TrackerSpec) -> ScriptableTracker {
        spec.kind.trackerType.init(spec: spec)
    }
}
