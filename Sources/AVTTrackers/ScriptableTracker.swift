import AVTCore

/// What every tracker of a timeline can do, whatever its kind: serve `set` keys as getters,
/// emit scripted actions with extra attributes, and take player observations. Player trackers
/// subclass it and override `observe` (and `instrumentReady` to register their own getters).
open class ScriptableTracker: Tracker {
    /// The timeline's declaration of this tracker.
    public let spec: TrackerSpec
    public var trackerId: Int? {
        get { id }
        set { id = newValue }
    }
    public var state: TrackerState {
        get { playbackState }
        set {
            playbackState = newValue
            // A tick that read the old state may act on the new one.
            wakeIdleTimer()
        }
    }
    /// The instrument, once it made the tracker ready.
    public var instrument: Instrument? { currentInstrument }
    /// The instrument's clock, held strongly: read by getters on every event, where loading the
    /// weak `instrument` cost more than the getter itself. The clock refers to nothing.
    public var clock: VirtualClock? { currentClock }

    // Stored state is private behind the views above: the compiler sees every access of private
    // storage and drops the run-time exclusivity checks it proves unneeded (the hub reads and
    // sets `state` several times per event), which it cannot do for public storage.
    private var id: Int?
    private var playbackState = TrackerState()
    private weak var currentInstrument: Instrument?
    private var currentClock: VirtualClock?
    /// The slot of this tracker's own timer that idles (`idleTimer(slot:)`) until the next change.
    private var idleTimerSlot: Int?
    /// The attributes of the scripted step being emitted; empty for everything else.
    private var stepAttributes: [(attribute: Attribute, value: AttributeValue)] = []

    /// A tracker for the timeline's tracker `spec` (the replay calls it; subclasses keep it).
    public required init(spec: TrackerSpec) {
        self.spec = spec
    }

    /// Registers the `isAdsTracker` getter and, if the spec asks, emits TrackerInit — only the
    /// first time, as upstream's trackers guard it. Subclasses register their getters first,
    /// then call super.
    open func instrumentReady(_ instrument: Instrument) {
        guard currentInstrument == nil else { return }
        currentInstrument = instrument
        currentClock = instrument.clock
        let isAds = AttributeValue.bool(spec.isAdsTracker)
        instrument.registerGetter(.isAdsTracker, AttributeGetter(constant: isAds), tracker: self)
        playerReady(instrument)
        if spec.emitTrackerInit { instrument.emit(.trackerInit, tracker: self) }
    }

    /// Hook for player trackers: register getters and listeners (called once, before TrackerInit).
    open func playerReady(_ instrument: Instrument) {}

    open func endOfService() {}

    /// Makes `attribute` a getter returning `value` from now on; nil unregisters it.
    public func set(_ attribute: Attribute, to value: AttributeValue?) {
        guard let instrument else { return }
        if let value {
            instrument.registerGetter(attribute, AttributeGetter(constant: value), tracker: self)
        } else {
            instrument.unregisterGetter(attribute, tracker: self)
        }
    }

    /// Emits a scripted action with extra attributes that initEvent adds to it.
    public func emit(_ action: Action, attributes: [(attribute: Attribute, value: AttributeValue)]) {
        guard let instrument else { return }
        stepAttributes = attributes
        defer { stepAttributes = [] }
        instrument.emit(action, tracker: self)
    }

    /// Skips the ticks of this tracker's own timer in `slot` until `wakeIdleTimer`, which a
    /// change of `state` calls; a subclass calls it too when anything else its tick reads changes
    /// (an observation). For a tick that did nothing and will do nothing until then.
    package func idleTimer(slot: Int) {
        guard let trackerId, let instrument else { return }
        instrument.idleTimer(trackerId: trackerId, slot: slot)
        idleTimerSlot = slot
    }

    /// Fires the idle timer's ticks again (see `idleTimer(slot:)`); nothing when none idles.
    package func wakeIdleTimer() {
        guard let slot = idleTimerSlot else { return }
        idleTimerSlot = nil
        if let trackerId { instrument?.wakeTimer(trackerId: trackerId, slot: slot) }
    }

    /// Emits an action the tracker derived itself (no step attributes).
    public func emit(_ action: Action) {
        instrument?.emit(action, tracker: self)
    }

    /// Feeds one observation of an `observe` step (keys and values already checked against the
    /// kind's rules). The generic tracker has no observation keys.
    open func observe(_ observation: Observation) {}

    /// Feeds the observations of one step. By default one at a time, in order; a kind whose
    /// observations describe one record together (netstats samples, AVMetrics events) overrides it.
    open func observe(step observations: [Observation]) {
        for observation in observations { observe(observation) }
    }

    open func initEvent(_ event: consuming Event) -> Event? {
        guard !stepAttributes.isEmpty else { return event }
        event.attributes.merge(stepAttributes)
        return event
    }

    /// The keys `observe` accepts and what each takes; empty for the generic tracker.
    open class var observationRules: [String: ObservationRule] { [:] }

    /// Checks a step's observations together, after each passed its own rule, and may put them
    /// in a canonical order (only for kinds that take a step's observations at once). nil: fine.
    open class func checkObservations(_ observations: inout [Observation]) -> ObservationSetProblem? { nil }
}
