/// OpenAVT's standard hub: a per-tracker state machine that blocks impossible
/// transitions, plus hub-global counters, accumulators and ids shared by all trackers.
///
/// Subclass it (as `HubCoreAds` does) to add rules; `processEvent` is the extension point.
open class HubCore: Hub {
    /// The instrument that made this hub ready (held weakly); nil before that, and then every event is dropped.
    public var instrument: Instrument? { currentInstrument }
    /// Ping period started on an accepted Start; 0 disables pings.
    public let pingInterval: Int

    /// Accepted Error events, across all trackers.
    public var countErrors: Int { totals.countErrors }
    /// Accepted Start events, across all trackers.
    public var countStarts: Int { totals.countStarts }
    /// Total pause time in ms (sum of accepted PauseFinish events' time since PauseBegin), never reset.
    public var accumPauseTime: Int { totals.accumPauseTime }
    /// Total seek time in ms (sum of accepted SeekFinish events' time since SeekBegin), never reset.
    public var accumSeekTime: Int { totals.accumSeekTime }
    /// Total buffering time in ms (sum of accepted BufferFinish events' time since BufferBegin), never reset.
    public var accumBufferTime: Int { totals.accumBufferTime }
    /// The id made on the last accepted StreamLoad, stamped on every accepted event; nil before the first.
    public var streamId: String? { totals.streamId }
    /// The current playback's id, stamped on every accepted event: made on the first MediaRequest or StreamLoad, and anew after each accepted End, Stop or Next.
    public var playbackId: String? { totals.playbackId }

    // Stored state is private, read by other modules through the views above: the compiler sees
    // every access of private storage and drops the run-time exclusivity checks it proves
    // unneeded (every event reads all of these), which it cannot do for public storage. It can
    // only prove that when no change of the storage spans a call it cannot see into (such as
    // `makeIdentifier`), hence the `let id = …` before such assignments.
    private weak var currentInstrument: Instrument?
    private var totals = Totals()
    private struct Totals {
        var countErrors = 0
        var countStarts = 0
        var accumPauseTime = 0
        var accumSeekTime = 0
        var accumBufferTime = 0
        var streamId: String?
        var playbackId: String?
    }
    /// Whether the last accepted BufferBegin happened inside a pause/seek: a buffer belongs to the
    /// block it began in, which is what its BufferFinish reports.
    private var lastBufferBeginInPauseBlock = false
    private var lastBufferBeginInSeekBlock = false
    /// Updated by every accepted event of every tracker: the play-time clock.
    private var timestampOfLastEventOnPlayback = 0

    /// A hub whose accepted Start starts the tracker's ping every `pingInterval` ms (0: no pings).
    public init(pingInterval: Int = 30_000) {
        self.pingInterval = pingInterval
    }

    /// Remembers the instrument; overrides must call `super`.
    open func instrumentReady(_ instrument: Instrument) {
        currentInstrument = instrument
    }

    /// Called when the hub is replaced or the instrument shuts down; does nothing here.
    open func endOfService() {}

    /// Applies the tracker's state transition for the event and stamps the hub's counters, accumulators, block flags and ids on it; returns nil to drop an event the state machine rejects.
    open func processEvent(_ event: consuming Event, tracker: Tracker) -> Event? {
        guard let instrument else { return nil }
        let now = instrument.clock.now

        // A finished playback is re-armed by whatever event comes next, accepted or not.
        if tracker.state.didFinish {
            tracker.state.didStart = false
            tracker.state.isPaused = false
            tracker.state.isBuffering = false
            tracker.state.isSeeking = false
            tracker.state.didFinish = false
        }
        if totals.playbackId == nil, event.action == .mediaRequest || event.action == .streamLoad {
            let id = instrument.makeIdentifier()
            totals.playbackId = id
        }
        // Play time is measured on the state before this event's transition.
        let state = tracker.state
        if state.didStart, !state.isPaused, !state.isSeeking, !state.isBuffering {
            event.attributes.set(.deltaPlayTime, .int(now - timestampOfLastEventOnPlayback))
        }
        guard acceptOrReject(&event, tracker: tracker) else { return nil }

        timestampOfLastEventOnPlayback = now
        stamp(&event, state: tracker.state)
        if event.action == .end || event.action == .stop || event.action == .next {
            let id = instrument.makeIdentifier()
            totals.playbackId = id
        }
        return event
    }

    private func stamp(_ event: inout Event, state: TrackerState) {
        let totals = self.totals
        event.attributes.set(.countErrors, .int(totals.countErrors))
        event.attributes.set(.countStarts, .int(totals.countStarts))
        event.attributes.set(.accumPauseTime, .int(totals.accumPauseTime))
        event.attributes.set(.accumBufferTime, .int(totals.accumBufferTime))
        event.attributes.set(.accumSeekTime, .int(totals.accumSeekTime))
        if event.action == .bufferFinish {
            event.attributes.set(.inPauseBlock, .bool(lastBufferBeginInPauseBlock))
            event.attributes.set(.inSeekBlock, .bool(lastBufferBeginInSeekBlock))
        } else {
            event.attributes.set(.inPauseBlock, .bool(state.isPaused))
            event.attributes.set(.inSeekBlock, .bool(state.isSeeking))
        }
        event.attributes.set(.inBufferBlock, .bool(state.isBuffering))
        event.attributes.set(.inPlaybackBlock, .bool(state.didStart && !state.didFinish))
        if let streamId = totals.streamId { event.attributes.set(.streamId, .string(streamId)) }
        if let playbackId = totals.playbackId { event.attributes.set(.playbackId, .string(playbackId)) }
    }

    /// Per action: whether the tracker's state allows it; if so, applies the transition (and the
    /// hub counters it moves) and returns true to accept.
    private func acceptOrReject(_ event: inout Event, tracker: Tracker) -> Bool {
        let s = tracker.state
        switch event.action {
        case .mediaRequest:
            guard !s.didMediaRequest else { return false }
            tracker.state.didMediaRequest = true
        case .playerSet:
            guard !s.didPlayerSet else { return false }
            tracker.state.didPlayerSet = true
        case .streamLoad:
            guard !s.didStreamLoad else { return false }
            tracker.state.didStreamLoad = true
            let id = instrument?.makeIdentifier()
            totals.streamId = id
        case .start:
            guard !s.didStart else { return false }
            tracker.state.didStart = true
            startPing(tracker)
            totals.countStarts += 1
        case .pauseBegin:
            guard s.didStart, !s.isPaused else { return false }
            tracker.state.isPaused = true
        case .pauseFinish:
            guard s.didStart, s.isPaused else { return false }
            tracker.state.isPaused = false
            let ms = elapsed(event, .pauseBegin, accumulator: "accumPauseTime")
            totals.accumPauseTime += ms
        case .bufferBegin:
            guard !s.isBuffering else { return false }
            tracker.state.isBuffering = true
            lastBufferBeginInPauseBlock = s.isPaused
            lastBufferBeginInSeekBlock = s.isSeeking
        case .bufferFinish:
            guard s.isBuffering else { return false }
            tracker.state.isBuffering = false
            let ms = elapsed(event, .bufferBegin, accumulator: "accumBufferTime")
            totals.accumBufferTime += ms
        case .seekBegin:
            guard !s.isSeeking else { return false }
            tracker.state.isSeeking = true
        case .seekFinish:
            guard s.isSeeking else { return false }
            tracker.state.isSeeking = false
            let ms = elapsed(event, .seekBegin, accumulator: "accumSeekTime")
            totals.accumSeekTime += ms
        case .end, .stop, .next:
            guard s.didStart, !s.didFinish else { return false }
            tracker.state.didFinish = true
            stopPing(tracker)
        case .error:
            totals.countErrors += 1
        default:
            break
        }
        return true
    }

    /// The event's own time-since of the matching Begin. Upstream force-casts it and would crash
    /// when it is missing; we add nothing and say so.
    private func elapsed(_ event: Event, _ begin: Action, accumulator: String) -> Int {
        if let ms = event.attributes[begin.timeAttribute]?.intValue { return ms }
        instrument?.warn(
            "\(event.action.name) accepted without an integer \(begin.timeAttribute.name) (no \(begin.name) was delivered before); \(accumulator) unchanged (upstream OpenAVT would crash here)"
        )
        return 0
    }

    /// Starts this tracker's ping timer; override to change the period or disable pings.
    open func startPing(_ tracker: Tracker) {
        guard let id = tracker.trackerId, pingInterval > 0 else { return }
        instrument?.startPing(trackerId: id, interval: pingInterval)
    }

    /// Stops this tracker's ping timer; called on an accepted End, Stop or Next.
    open func stopPing(_ tracker: Tracker) {
        guard let id = tracker.trackerId else { return }
        instrument?.stopPing(trackerId: id)
    }
}
