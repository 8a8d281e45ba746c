import AVTCore

/// The timeline-scripted tracker (upstream's test tracker): it emits exactly the actions the
/// steps name, serves each `set` key as a getter, and adds a step's `attributes` in initEvent.
public final class GenericTracker: Tracker {
    public let spec: TrackerSpec
    public var trackerId: Int?
    public var state = TrackerState()
    private weak var instrument: Instrument?
    /// The attributes of the step being emitted; empty for everything else (pings, TrackerInit).
    private var stepAttributes: [(attribute: Attribute, value: AttributeValue)] = []

    public init(spec: TrackerSpec) {
        self.spec = spec
    }

    public func instrumentReady(_ instrument: Instrument) {
        // Only the first time, as upstream's trackers guard it.
        guard self.instrument == nil else { return }
        self.instrument = instrument
        let isAds = AttributeValue.bool(spec.isAdsTracker)
        instrument.registerGetter(.isAdsTracker, AttributeGetter { isAds }, tracker: self)
        if spec.emitTrackerInit { instrument.emit(.trackerInit, tracker: self) }
    }

    /// Makes `attribute` a getter returning `value` from now on; nil unregisters it.
    public func set(_ attribute: Attribute, to value: AttributeValue?) {
        guard let instrument else { return }
        if let value {
            instrument.registerGetter(attribute, AttributeGetter { value }, tracker: self)
        } else {
            instrument.unregisterGetter(attribute, tracker: self)
        }
    }

    /// Emits the action with extra attributes that initEvent adds to it.
    public func emit(_ action: Action, attributes: [(attribute: Attribute, value: AttributeValue)]) {
        guard let instrument else { return }
        stepAttributes = attributes
        defer { stepAttributes = [] }
        instrument.emit(action, tracker: self)
    }

    public func initEvent(_ event: Event) -> Event? {
        guard !stepAttributes.isEmpty else { return event }
        var event = event
        for (attribute, value) in stepAttributes { event.attributes[attribute] = value }
        return event
    }
}
