import Synchronization

/// Which tracker logic turns a timeline's observations into actions: a built-in kind
/// (`generic`, `avplayer`, `ima`, `html5`, `exoplayer`, `netstats`, `avmetrics`) or one a
/// library user registered (`TrackerKind.register`). Timelines name it (`"kind": "avplayer"`);
/// the JSON, JSONL and CSV readers check each step's observations against its tracker class's
/// `observationRules`, and the replayer makes a tracker of its class.
public struct TrackerKind: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The name timelines use.
    public let rawValue: String
    private let traits: TrackerKindTraits

    private init(_ traits: TrackerKindTraits) {
        rawValue = traits.name
        self.traits = traits
    }

    /// The built-in or registered kind of this name; nil for a name nobody registered.
    public init?(rawValue: String) {
        if let builtIn = Self.builtIn.first(where: { $0.rawValue == rawValue }) {
            self = builtIn
        } else if let registered = Self.registry.withLock({ $0[rawValue] }) {
            self = registered
        } else {
            return nil
        }
    }

    /// Scripted actions only (upstream's test tracker).
    public static let generic = TrackerKind(TrackerKindTraits(builtIn: "generic", GenericTracker.self))
    /// OpenAVT-iOS's AVPlayer tracker.
    public static let avplayer = TrackerKind(TrackerKindTraits(builtIn: "avplayer", AVPlayerTracker.self))
    /// OpenAVT-iOS's Google IMA ads tracker.
    public static let ima = TrackerKind(TrackerKindTraits(builtIn: "ima", IMATracker.self))
    /// OpenAVT-JS's HTML5 media element tracker.
    public static let html5 = TrackerKind(TrackerKindTraits(builtIn: "html5", HTML5Tracker.self))
    /// OpenAVT-Android's ExoPlayer tracker.
    public static let exoplayer = TrackerKind(TrackerKindTraits(builtIn: "exoplayer", ExoPlayerTracker.self))
    /// A pre-call test's subscriber network statistics (OpenTok), cut into windows.
    public static let netstats = TrackerKind(TrackerKindTraits(builtIn: "netstats", NetStatsTracker.self))
    /// Apple's AVMetrics events (iOS 18), one event per step.
    public static let avmetrics = TrackerKind(TrackerKindTraits(builtIn: "avmetrics", AVMetricsTracker.self))

    private static let builtIn: [TrackerKind] = [.generic, .avplayer, .ima, .html5, .exoplayer, .netstats, .avmetrics]
    private static let registry = Mutex<[String: TrackerKind]>([:])

    /// The built-in kinds, then the registered ones by name: what error messages list.
    public static var allCases: [TrackerKind] {
        builtIn + registry.withLock { $0.values.sorted { $0.rawValue < $1.rawValue } }
    }

    /// Makes a tracker class of your own a kind that timelines can name, once per process
    /// (registering the same name with the same class again returns the kind).
    ///
    /// The readers then accept `"kind": "NAME"` in a JSON or JSONL timeline's trackers, in a CSV
    /// timeline's `#avtreplay` line and in `TrackerDeclaration` (`NAME=KIND`), and check each
    /// step's observations against `tracker.observationRules` (and `checkObservations`) with
    /// the same located errors as for the built-in kinds.
    /// - Parameters:
    ///   - name: the kind's name; not a built-in one, not empty, no `,` `=` `|` or spaces.
    ///   - tracker: the class a replay makes for each tracker of this kind.
    ///   - base: the built-in kind whose defaults (ads tracker, TrackerInit) it takes and whose
    ///     observations the KPIs follow (a subclass of `AVPlayerTracker` is `.avplayer`);
    ///     `generic` reads only the actions the tracker emits.
    ///   - observationsCommute: its step's observations may be applied in any order.
    @discardableResult
    public static func register(
        _ name: String, tracker: ScriptableTracker.Type, base: TrackerKind = .generic,
        observationsCommute: Bool = false
    ) throws(TrackerKindError) -> TrackerKind {
        guard !name.isEmpty, !name.contains(where: { ",=| \t\n\"".contains($0) }) else {
            throw TrackerKindError(name: name, reason: "a kind's name is a non-empty word (no , = | quotes or spaces)")
        }
        guard !builtIn.contains(where: { $0.rawValue == name }) else {
            throw TrackerKindError(name: name, reason: "a built-in kind; register your own under another name")
        }
        let kind = TrackerKind(
            TrackerKindTraits(
                name: name, tracker, base: base.traits.base ?? base, observationsCommute: observationsCommute))
        return try registry.withLock { (kinds) throws(TrackerKindError) -> TrackerKind in
            if let known = kinds[name] {
                guard known.trackerType == tracker else {
                    throw TrackerKindError(
                        name: name, reason: "already registered with \(String(describing: known.trackerType))")
                }
                return known
            }
            kinds[name] = kind
            return kind
        }
    }

    /// The name.
    public var description: String { rawValue }

    /// Kinds are equal by name.
    public static func == (a: TrackerKind, b: TrackerKind) -> Bool { a.rawValue == b.rawValue }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The class implementing this kind.
    public var trackerType: ScriptableTracker.Type { traits.tracker }

    /// The built-in kind this one extends (itself for a built-in kind): its defaults, and the
    /// observations the KPIs follow.
    public var base: TrackerKind { traits.base ?? self }

    /// Whether this is one of the built-in kinds.
    public var isBuiltIn: Bool { traits.base == nil }

    /// Whether trackers of this kind report `isAdsTracker = true` unless a timeline says otherwise.
    public var isAdsByDefault: Bool { base.rawValue == "ima" }

    /// Real player trackers emit TrackerInit from instrumentReady, as upstream; the generic one
    /// only when asked.
    public var emitsTrackerInitByDefault: Bool { base.rawValue != "generic" }

    /// What each observation key accepts: the tracker class's `observationRules`.
    public var observationRules: [String: ObservationRule] { trackerType.observationRules }

    /// Whether a step's observations may be applied in any order: each sets an independent value
    /// and the tracker reads the step as one sample (netstats), so a converter may reorder them
    /// but must not split the step.
    public var observationsCommute: Bool { traits.observationsCommute }
}

/// What a kind is made of; shared by every copy of the kind, so the readers' per-step lookups
/// (`observationRules`) are a field access.
private final class TrackerKindTraits: Sendable {
    let name: String
    let tracker: ScriptableTracker.Type
    /// nil for a built-in kind.
    let base: TrackerKind?
    let observationsCommute: Bool

    init(builtIn name: String, _ tracker: ScriptableTracker.Type) {
        (self.name, self.tracker, base) = (name, tracker, nil)
        observationsCommute = name == "netstats"
    }

    init(name: String, _ tracker: ScriptableTracker.Type, base: TrackerKind, observationsCommute: Bool) {
        (self.name, self.tracker, self.base, self.observationsCommute) = (name, tracker, base, observationsCommute)
    }
}
