/// Wires trackers, one hub, one metricalc and one backend together and runs OpenAVT's event
/// chain (`emit`) on a virtual clock.
///
/// Its stored state is private, with public read-only views where users need them: the compiler
/// sees every access of a private property and drops the run-time exclusivity checks it can
/// prove unnecessary, which it cannot do for a property another module may touch.
public final class Instrument {
    /// Something the engine did instead of what upstream would have done (usually a crash).
    public struct Warning: Sendable, Equatable, CustomStringConvertible {
        /// Virtual time of the warning, in ms.
        public let t: Int
        /// What happened and what the engine did about it.
        public let message: String
        /// The warning as `t=<ms>: <message>`.
        public var description: String { "t=\(t): \(message)" }
    }

    /// This instrument's id, from its identifier generator; each tracker's `senderId` is it plus `-<trackerId>`.
    public let instrumentId: String
    /// The virtual clock every timestamp, time-since and timer of this instrument is read from.
    public let clock: VirtualClock
    /// The current hub, which every event passes through; without one, events go nowhere.
    public var hub: Hub? { currentHub }
    /// The current metricalc, which turns delivered events into metrics; optional.
    public var metricalc: Metricalc? { currentMetricalc }
    /// The current backend, which receives events and metrics; without one, nothing is delivered.
    public var backend: Backend? { currentBackend }
    private var currentHub: Hub?
    private var currentMetricalc: Metricalc?
    private var currentBackend: Backend?
    /// Whether `ready()` has run: components set after it are made ready at once.
    public private(set) var isReady = false
    /// Receives engine warnings; by default they are dropped.
    public var onWarning: (Warning) -> Void = { _ in }
    /// Asked after each timer fires (a Ctrl-C handler's flag): true ends `advanceClock` early.
    /// Set it between advances: one set while a timer fires is asked from the next run of ticks.
    public var isStopRequested: () -> Bool {
        get { stopQuestion }
        set { stopQuestion = newValue }
    }
    /// Sees every action a tracker emits, before the hub may drop it (an analysis that needs
    /// what the tracker did, not only what was delivered). nil: no cost.
    public var onEmit: ((Action, Tracker) -> Void)? {
        get { emitObserver }
        set { emitObserver = newValue }
    }
    // Stored privately behind the two views above: read on every event and every advance, a
    // public stored property is checked for exclusive access at run time on each read.
    private var stopQuestion: () -> Bool = { false }
    private var emitObserver: ((Action, Tracker) -> Void)?

    /// Indexed by tracker id; ids are never reused, so a removed tracker leaves a hole.
    private var trackerSlots: [Tracker?] = []
    /// Per tracker id, its getters.
    private var getterTables: [GetterTable] = []
    private var senderIds: [String] = []
    /// Instrument-global: time attribute → when an event of that action last reached the backend.
    /// A few dozen entries at most, in first-delivery order.
    private var lastDelivery: [(attribute: Attribute, at: Int)] = []
    private var timers = TimerQueue()
    /// The timer whose ticks `advanceClock` is firing; nil between runs (see `wakeTimer`).
    private var firingKey: TimerQueue.Key?
    /// The storage of the last delivered event's attributes, emptied, for the next event: one
    /// allocation per replay instead of one per event.
    private var spareAttributes = AttributeMap()
    private var identifiers: any IdentifierGenerator

    /// An instrument with these components and clock; `identifiers` makes the instrument id and the stream and playback ids. Add trackers, then call `ready()`.
    public init(
        hub: Hub? = nil, metricalc: Metricalc? = nil, backend: Backend? = nil,
        clock: VirtualClock = VirtualClock(), identifiers: any IdentifierGenerator = RandomUUIDGenerator()
    ) {
        self.clock = clock
        self.identifiers = identifiers
        self.instrumentId = self.identifiers.next()
        self.currentHub = hub
        self.currentMetricalc = metricalc
        self.currentBackend = backend
    }

    // MARK: Components

    // A component replaced after `ready()` is made ready at once. Upstream leaves that to the
    // caller, and a hub that never learns its instrument drops every later event without a word.

    /// Ends the current hub's service and puts `newHub` in its place; after `ready()`, also
    /// calls the new hub's `instrumentReady`.
    public func setHub(_ newHub: Hub?) {
        currentHub?.endOfService()
        currentHub = newHub
        if isReady { newHub?.instrumentReady(self) }
    }

    /// Ends the current metricalc's service and puts `newMetricalc` in its place; after
    /// `ready()`, also calls its `instrumentReady`.
    public func setMetricalc(_ newMetricalc: Metricalc?) {
        currentMetricalc?.endOfService()
        currentMetricalc = newMetricalc
        if isReady { newMetricalc?.instrumentReady(self) }
    }

    /// Ends the current backend's service and puts `newBackend` in its place; after `ready()`,
    /// also calls its `instrumentReady`.
    public func setBackend(_ newBackend: Backend?) {
        currentBackend?.endOfService()
        currentBackend = newBackend
        if isReady { newBackend?.instrumentReady(self) }
    }

    /// Gives the tracker the next id (0, 1, …) and keeps it. Call `ready()` afterwards.
    @discardableResult
    public func addTracker(_ tracker: Tracker) -> Int {
        let id = trackerSlots.count
        tracker.trackerId = id
        // Moved out, appended and moved back, as in `withTimers`: not changed in place, which
        // would make the compiler check every read of these arrays at run time, and not rebuilt,
        // which copies them and made adding n trackers (a player log of n sessions) cost n².
        var slots: [Tracker?] = []
        swap(&slots, &trackerSlots)
        slots.append(tracker)
        trackerSlots = slots
        var tables: [GetterTable] = []
        swap(&tables, &getterTables)
        let table = GetterTable()
        if omitsCustomAttributes { table.omitCustomAttributes() }
        tables.append(table)
        getterTables = tables
        var ids: [String] = []
        swap(&ids, &senderIds)
        ids.append(instrumentId + "-" + String(id))
        senderIds = ids
        return id
    }

    /// Ends the tracker's service and forgets it, its getters and its own timers. Its ping timer
    /// keeps running, as upstream's does; later ticks find no tracker and emit nothing. The
    /// tracker's own timers (slot ≥ 1) stop: they would call into a tracker that is gone.
    @discardableResult
    public func removeTracker(_ id: Int) -> Bool {
        guard let tracker = tracker(id: id) else { return false }
        tracker.endOfService()
        getterTables[id].removeAll()
        withTimers { $0.stopAll(trackerId: id, fromSlot: 1) }
        // Moved out, changed and moved back, as in `addTracker`: a copy here made removing each
        // of n trackers (the sessions of a player log) cost n.
        var slots: [Tracker?] = []
        swap(&slots, &trackerSlots)
        slots[id] = nil
        trackerSlots = slots
        return true
    }

    /// The live tracker with this id, or nil if there is none or it was removed.
    public func tracker(id: Int) -> Tracker? {
        trackerSlots.indices.contains(id) ? trackerSlots[id] : nil
    }

    /// Live trackers in ascending id.
    public var trackers: [Tracker] { trackerSlots.compactMap { $0 } }

    /// Tells every component the instrument is ready: backend, metricalc, hub, then trackers in
    /// ascending id (upstream iOS leaves the tracker order to a dictionary; we fix it).
    public func ready() {
        isReady = true
        backend?.instrumentReady(self)
        metricalc?.instrumentReady(self)
        hub?.instrumentReady(self)
        for tracker in trackers { tracker.instrumentReady(self) }
    }

    /// Ends every component's service. Like upstream, ping timers are not cancelled and trackers
    /// stay registered.
    public func shutdown() {
        for tracker in trackers {
            tracker.endOfService()
            if let id = tracker.trackerId { getterTables[id].removeAll() }
        }
        hub?.endOfService()
        metricalc?.endOfService()
        backend?.endOfService()
    }

    // MARK: The event chain

    /// Emits `action` from the tracker with this id, as `emit(_:tracker:)`; does nothing if no such tracker is live.
    public func emit(_ action: Action, trackerId: Int) {
        guard let tracker = tracker(id: trackerId) else { return }
        emit(action, tracker: tracker)
    }

    /// senderId, time-since and getter attributes → tracker.initEvent → hub → metrics → event →
    /// remember the delivery time. Each stage may drop the event; the time-since of an action is
    /// recorded only when its event reached the backend.
    public func emit(_ action: Action, tracker: Tracker) {
        emitObserver?(action, tracker)
        // Each stage consumes the event, so the last one owns its storage alone (see the end).
        guard let generated = generateEvent(action, tracker: tracker),
            let initialized = tracker.initEvent(consume generated),
            let hub, var event = hub.processEvent(consume initialized, tracker: tracker)
        else { return }
        // Upstream runs the hub (and its state changes) even without a backend.
        guard let backend else { return }
        if let metricalc {
            for metric in metricalc.processMetric(event, tracker: tracker) { backend.sendMetric(metric) }
        }
        backend.sendEvent(event)
        recordDelivery(of: action)
        // A backend that kept the event holds its own reference: emptying then copies nothing
        // of it and allocates afresh, as without the spare.
        event.attributes.removeAll(keepingCapacity: true)
        spareAttributes = event.attributes
    }

    private func recordDelivery(of action: Action) {
        let now = clock.now
        // Moved out and back, as in `withTimers`.
        var deliveries: [(attribute: Attribute, at: Int)] = []
        swap(&deliveries, &lastDelivery)
        if let index = deliveries.firstIndex(where: { $0.attribute == action.timeAttribute }) {
            deliveries[index].at = now
        } else {
            deliveries.append((action.timeAttribute, now))
        }
        lastDelivery = deliveries
    }

    private func generateEvent(_ action: Action, tracker: Tracker) -> Event? {
        let now = clock.now
        var event = Event(action: action, timestamp: now, trackerId: tracker.trackerId)
        swap(&event.attributes, &spareAttributes)
        // Room for the hub's ~15 stamps too, so the map grows once.
        event.attributes.reserveCapacity(lastDelivery.count + 32)
        // The map is empty and these keys are distinct (senderId, one time-since per action).
        if let id = tracker.trackerId, senderIds.indices.contains(id) {
            event.attributes.appendAbsent(.senderId, .string(senderIds[id]))
        }
        for (attribute, at) in lastDelivery {
            event.attributes.appendAbsent(attribute, .int(now - at))
        }
        if let id = tracker.trackerId, getterTables.indices.contains(id) {
            getterTables[id].apply(to: &event)
        }
        return event
    }

    // MARK: Getters

    /// Whether getters of custom attributes are left out of events (`omitCustomAttributes`).
    public private(set) var omitsCustomAttributes = false

    /// From now on, events carry no attribute from a getter of a custom (not built-in) attribute:
    /// for an analysis that reads built-in attributes only (`kpi`). Every event carries every
    /// attribute set so far, so a timeline that sets a new one per step makes each event larger
    /// than the last; without them, the replay stays linear. `callGetter` still finds them.
    public func omitCustomAttributes() {
        omitsCustomAttributes = true
        for table in getterTables { table.omitCustomAttributes() }
    }

    /// Sets the tracker's getter for `attribute`, replacing any earlier one; ignored for a tracker not added to this instrument.
    public func registerGetter(_ attribute: Attribute, _ getter: AttributeGetter, tracker: Tracker) {
        guard let id = tracker.trackerId, getterTables.indices.contains(id) else { return }
        getterTables[id].set(attribute, getter)
    }

    /// Removes the tracker's getter for `attribute`, if any.
    public func unregisterGetter(_ attribute: Attribute, tracker: Tracker) {
        guard let id = tracker.trackerId, getterTables.indices.contains(id) else { return }
        getterTables[id].remove(attribute)
    }

    private func getter(_ attribute: Attribute, trackerId id: Int) -> AttributeGetter? {
        getterTables[id].getter(attribute)
    }

    /// The getter's value, without consulting its filter.
    public func callGetter(_ attribute: Attribute, tracker: Tracker) -> AttributeValue? {
        guard let id = tracker.trackerId, getterTables.indices.contains(id) else { return nil }
        return getter(attribute, trackerId: id)?.value()
    }

    /// Sets the attribute on the event from that tracker's getter, if the getter exists, its
    /// filter agrees and it has a value.
    public func useGetter(_ attribute: Attribute, event: inout Event, tracker: Tracker) {
        guard let id = tracker.trackerId, getterTables.indices.contains(id),
            let getter = getter(attribute, trackerId: id), getter.accepts(event, attribute),
            let value = getter.value()
        else { return }
        event.attributes[attribute] = value
    }

    // MARK: Timers and time

    /// Starts (or restarts) the tracker's ping timer: first Ping one interval from now.
    public func startPing(trackerId: Int, interval: Int) {
        let now = clock.now
        withTimers {
            $0.start(Self.pingKey(trackerId), interval: interval, now: now) { [unowned self] in
                self.emit(.ping, trackerId: trackerId)
            }
        }
    }

    /// Stops the tracker's ping timer, if it runs.
    public func stopPing(trackerId: Int) {
        withTimers { $0.stop(Self.pingKey(trackerId)) }
    }

    /// Whether the tracker's ping timer is running.
    public func isPinging(trackerId: Int) -> Bool { timers.isRunning(Self.pingKey(trackerId)) }

    private static func pingKey(_ trackerId: Int) -> TimerQueue.Key { TimerQueue.Key(trackerId: trackerId, slot: 0) }

    /// Starts (or restarts) a repeating timer of a tracker's own (slot ≥ 1; slot 0 is its ping):
    /// `fire` runs one interval from now and every interval after, at virtual times.
    public func startTimer(trackerId: Int, slot: Int, interval: Int, fire: @escaping () -> Void) {
        precondition(slot >= 1, "slot 0 is the ping timer")
        let now = clock.now
        withTimers {
            $0.start(TimerQueue.Key(trackerId: trackerId, slot: slot), interval: interval, now: now, fire: fire)
        }
    }

    /// Stops the tracker's own timer in `slot`, if it runs.
    public func stopTimer(trackerId: Int, slot: Int) {
        withTimers { $0.stop(TimerQueue.Key(trackerId: trackerId, slot: slot)) }
    }

    /// Skips the ticks of the tracker's own timer in `slot` until `wakeTimer`: for a tracker
    /// whose tick found nothing to do and will find nothing until something it reads changes (a
    /// playing player's periodic observer, 2 ticks a second). The timer keeps its schedule, so
    /// after waking it fires on the same ticks as if it had never stopped; only ticks that would
    /// have done nothing are skipped. Call it from a tick or a step; a timer that does not run
    /// is left alone.
    public func idleTimer(trackerId: Int, slot: Int) {
        precondition(slot >= 1, "slot 0 is the ping timer")
        withTimers { $0.idle(TimerQueue.Key(trackerId: trackerId, slot: slot)) }
    }

    /// Fires the ticks of an idle timer (`idleTimer`) again, from the first one not yet passed:
    /// call it as soon as anything its tick reads changes. Its tick at the current time still
    /// fires if the clock is firing the timers of this time and would have come to it later.
    public func wakeTimer(trackerId: Int, slot: Int) {
        let now = clock.now
        let firing = firingKey
        withTimers { $0.wake(TimerQueue.Key(trackerId: trackerId, slot: slot), now: now, firing: firing) }
    }

    /// Whether the tracker's own timer in `slot` is idle (`idleTimer`).
    public func isTimerIdle(trackerId: Int, slot: Int) -> Bool {
        timers.isIdle(TimerQueue.Key(trackerId: trackerId, slot: slot))
    }

    /// Changes the timer queue moved out of the instrument and back. Changed in place, the queue
    /// would be under an access that may copy its array (and release the timers' closures),
    /// and the compiler would then check every access of `timers` at run time, before every
    /// step and tick. Moving is two plain stores and keeps the array uniquely referenced, so
    /// nothing is copied. `body` only edits the queue: no timer runs, and none may be started
    /// or stopped elsewhere, while it is moved out.
    private func withTimers(_ body: (inout TimerQueue) -> Void) {
        var queue = TimerQueue()
        swap(&queue, &timers)
        body(&queue)
        timers = queue
    }

    /// Moves virtual time to `t`, first firing every timer due at or before `t` in due-time order
    /// (ties by tracker id, then slot, so pings first), each at its own due time.
    /// Returns false, with the clock left at the last timer fired, when `isStopRequested` asked to
    /// stop on the way.
    ///
    /// The earliest timer fires tick after tick while it stays the first (`TimerQueue.Run`): a
    /// tick that starts or stops a timer ends the run, and the queue is asked again.
    @discardableResult
    public func advanceClock(to t: Int) -> Bool {
        while let run = timers.run(atOrBefore: t) {
            // Taken apart once: the loop copied (and destroyed) the whole run on every tick. The
            // stop question too, as it stands when the run begins: read from its property, the
            // closure was retained and released around every call.
            let (fire, interval, until, changes) = (run.fire, run.interval, run.until, timers.changes)
            let isStopRequested = stopQuestion
            var due = run.due
            var stopped = false
            firingKey = run.key
            defer { firingKey = nil }
            repeat {
                clock.advance(to: due)
                fire()
                due += interval
                // Checked per tick: a long stretch of pings between two steps is stopped within one.
                if isStopRequested() {
                    stopped = true
                    break
                }
            } while due <= t && due < until && timers.changes == changes
            withTimers { $0.resume(run, at: due) }
            if stopped { return false }
        }
        clock.advance(to: t)
        return true
    }

    /// A fresh id for streams and playbacks, from the instrument's generator.
    public func makeIdentifier() -> String { identifiers.next() }

    /// Reports a warning, stamped with the current virtual time, to `onWarning`.
    public func warn(_ message: String) {
        onWarning(Warning(t: clock.now, message: message))
    }
}
