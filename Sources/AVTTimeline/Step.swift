import AVTCore
import AVTJSON
import AVTTrackers

/// One instant of a timeline, applied in this order: change the tracker's getters (`set`), feed
/// it player observations (`observe`), emit a scripted action (`action`).
public struct Step: Sendable, Equatable {
    /// When the step happens (ms of the timeline).
    public var t: Int
    /// Index into the timeline's trackers.
    public var tracker: Int
    /// Getter changes in source order; nil unregisters the getter.
    public var set: [(attribute: Attribute, value: AttributeValue?)]
    /// Player observations in source order, for the tracker's own logic.
    public var observe: [Observation]
    /// The action the tracker emits, after `set` and `observe`; nil for none.
    public var action: Action?
    /// Extra attributes the tracker's initEvent adds to this step's event (nulls already dropped).
    public var attributes: [(attribute: Attribute, value: AttributeValue)]
    /// Where the step was read, for errors.
    public var origin: StepOrigin
    /// The source gives this step's tracker no more steps: what the tracker began is over once
    /// this step is played, so the replay lets the tracker go (its service ends, its getters and
    /// timers go) and `kpi` folds a stopped playback there rather than at the end of the
    /// recording. A hint about memory, not about what is replayed: it is neither written out
    /// nor compared.
    public var endsTracker = false

    /// A step at `t` for the tracker at index `tracker`.
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
