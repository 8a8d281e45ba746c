/// Which tracker logic turns a timeline's observations into actions.
public enum TrackerKind: String, Sendable, CaseIterable {
    /// Scripted actions only (upstream's test tracker).
    case generic
    /// OpenAVT-iOS's AVPlayer tracker.
    case avplayer
    /// OpenAVT-iOS's Google IMA ads tracker.
    case ima
    /// OpenAVT-JS's HTML5 media element tracker.
    case html5
    /// OpenAVT-Android's ExoPlayer tracker.
    case exoplayer
    /// A pre-call test's subscriber network statistics (OpenTok), cut into windows.
    case netstats
    /// Apple's AVMetrics events (iOS 18), one event per step.
    case avmetrics

    /// The class implementing this kind.
    public var trackerType: ScriptableTracker.Type {
        switch self {
        case .generic: return GenericTracker.self
        case .avplayer: return AVPlayerTracker.self
        case .ima: return IMATracker.self
        case .html5: return HTML5Tracker.self
        case .exoplayer: return ExoPlayerTracker.self
        case .netstats: return NetStatsTracker.self
        case .avmetrics: return AVMetricsTracker.self
        }
    }

    /// Whether trackers of this kind report `isAdsTracker = true` unless a timeline says otherwise.
    public var isAdsByDefault: Bool { self == .ima }

    /// Real player trackers emit TrackerInit from instrumentReady, as upstream; the generic one
    /// only when asked.
    public var emitsTrackerInitByDefault: Bool { self != .generic }

    public var observationRules: [String: ObservationRule] { trackerType.observationRules }

    /// Whether a step's observations may be applied in any order: each sets an independent value
    /// and the tracker reads the step as one sample (netstats), so a converter may reorder them
    /// but must not split the step.
    public var observationsCommute: Bool { self == .netstats }
}
