import AVTCore
import AVTJSON
import AVTTrackers

/// Which hub a replay runs through.
public enum HubKind: String, Sendable, CaseIterable {
    /// OpenAVT's HubCore.
    case core
    /// OpenAVT's HubCoreAds (HubCore plus ad breaks and ads).
    case ads
}

/// Everything of a timeline but its steps: how to build the instrument and when the replay ends.
public struct TimelineSettings: Sendable, Equatable {
    /// Epoch milliseconds of virtual t=0.
    public var startTime: Int = 0
    /// nil: HubCoreAds if any tracker is an ads tracker, else HubCore.
    public var hub: HubKind?
    public var metrics: Bool = true
    /// Milliseconds between pings; 0 disables them.
    public var pingInterval: Int = 30_000
    /// Virtual time at which the replay ends; nil: the last step's t.
    public var until: Int?
    public var trackers: [TrackerSpec] = []

    public init() {}

    /// The hub that runs: the explicit one, else "ads" when any tracker is an ads tracker.
    public var effectiveHub: HubKind {
        hub ?? (trackers.contains { $0.isAdsTracker } ? .ads : .core)
    }
}

/// Where a step came from, for error messages and warnings.
public struct StepOrigin: Sendable, Equatable, CustomStringConvertible {
    /// 0-based position in the timeline's steps.
    public var index: Int
    public var location: SourceLocation?

    public init(index: Int, location: SourceLocation? = nil) {
        self.index = index
        self.location = location
    }

    public var description: String {
        if let location { return "steps[\(index)] (\(location))" }
        return "steps[\(index)]"
    }
}

/// One instant of a timeline, applied in this order: change the tracker's getters (`set`), feed
/// it player observations (`observe`), emit a scripted action (`action`).
public struct Step: Sendable, Equatable {
    public var t: Int
    /// Index into the timeline's trackers.
    public var tracker: Int
    /// Getter changes in source order; nil unregisters the getter.
    public var set: [(attribute: Attribute, value: AttributeValue?)]
    /// Player observations in source order, for the tracker's own logic.
    public var observe: [Observation]
    public var action: Action?
    /// Extra attributes the tracker's initEvent adds to this step's event (nulls already dropped).
    public var attributes: [(attribute: Attribute, value: AttributeValue)]
    public var origin: StepOrigin

    public init(
        t: Int, tracker: Int, set: [(attribute: Attribute, value: AttributeValue?)] = [], observe: [Observation] = [],
        action: Action? = nil,
        attributes: [(attribute: Attribute, value: AttributeValue)] = [], origin: StepOrigin
    ) {
        self.t = t
        self.tracker = tracker
        self.set = set
        self.observe = observe
        self.action = action
        self.attributes = attributes
        self.origin = origin
    }

    public static func == (a: Step, b: Step) -> Bool {
        a.t == b.t && a.tracker == b.tracker && a.action == b.action && a.origin == b.origin && a.observe == b.observe
            && a.set.elementsEqual(b.set) { $0.attribute == $1.attribute && $0.value == $1.value }
            && a.attributes.elementsEqual(b.attributes) { $0.attribute == $1.attribute && $0.value == $1.value }
    }
}

/// A whole timeline held in memory (the JSON document form).
public struct Timeline: Sendable, Equatable {
    public var settings: TimelineSettings
    public var steps: [Step]

    public init(settings: TimelineSettings, steps: [Step]) {
        self.settings = settings
        self.steps = steps
    }
}
