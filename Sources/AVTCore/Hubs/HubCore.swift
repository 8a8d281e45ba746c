/// OpenAVT's standard hub (spec 3.1): a per-tracker state machine that blocks impossible
/// transitions, plus hub-global counters, accumulators and ids shared by all trackers.
///
/// Subclass it (as `HubCoreAds` does) to add rules; `processEvent` is the extension point.
open class HubCore: Hub {
    public var instrument: Instrument? { currentInstrument }
    /// Ping period started on an accepted Start; 0 disables pings.
    public let pingInterval: Int

    public var countErrors: Int { totals.countErrors }
    public var countStarts: Int { totals.countStarts }
    public var accumPauseTime: Int { totals.accumPauseTime }
    public var accumSeekTime: Int { totals.accumSeekTime }
    public var accumBufferTime: Int { totals.accumBufferTime }
    public var streamId: String? { totals.streamId }
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

    public init(pingInterval: Int = 30_000) {
        self.pingInterval = pingInterval
    }

    open func instrumentReady(_ instrument: Instrument) {
        currentInstrument = instrument
    }

    open func endOfService() {}

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

    /// The per-action table of spec 3.1.3: applies the transition and returns true to accept.
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

    open func stopPing(_ tracker: Tracker) {
        guard let id = tracker.trackerId else { return }
        instrument?.stopPing(trackerId: id)
    }
}
