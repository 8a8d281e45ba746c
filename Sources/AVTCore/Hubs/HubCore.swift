/// OpenAVT's standard hub (spec 3.1): a per-tracker state machine that blocks impossible
/// transitions, plus hub-global counters, accumulators and ids shared by all trackers.
///
/// Subclass it (as `HubCoreAds` does) to add rules; `processEvent` is the extension point.
open class HubCore: Hub {
    public private(set) weak var instrument: Instrument?
    /// Ping period started on an accepted Start; 0 disables pings.
    public let pingInterval: Int

    public private(set) var countErrors = 0
    public private(set) var countStarts = 0
    public private(set) var accumPauseTime = 0
    public private(set) var accumSeekTime = 0
    public private(set) var accumBufferTime = 0
    public private(set) var streamId: String?
    public private(set) var playbackId: String?
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
        self.instrument = instrument
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
        if playbackId == nil, event.action == .mediaRequest || event.action == .streamLoad {
            playbackId = instrument.makeIdentifier()
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
            playbackId = instrument.makeIdentifier()
        }
        return event
    }

    private func stamp(_ event: inout Event, state: TrackerState) {
        event.attributes.set(.countErrors, .int(countErrors))
        event.attributes.set(.countStarts, .int(countStarts))
        event.attributes.set(.accumPauseTime, .int(accumPauseTime))
        event.attributes.set(.accumBufferTime, .int(accumBufferTime))
        event.attributes.set(.accumSeekTime, .int(accumSeekTime))
        if event.action == .bufferFinish {
            event.attributes.set(.inPauseBlock, .bool(lastBufferBeginInPauseBlock))
            event.attributes.set(.inSeekBlock, .bool(lastBufferBeginInSeekBlock))
        } else {
            event.attributes.set(.inPauseBlock, .bool(state.isPaused))
            event.attributes.set(.inSeekBlock, .bool(state.isSeeking))
        }
        event.attributes.set(.inBufferBlock, .bool(state.isBuffering))
        event.attributes.set(.inPlaybackBlock, .bool(state.didStart && !state.didFinish))
        if let streamId { event.attributes.set(.streamId, .string(streamId)) }
        if let playbackId { event.attributes.set(.playbackId, .string(playbackId)) }
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
            streamId = instrument?.makeIdentifier()
        case .start:
            guard !s.didStart else { return false }
            tracker.state.didStart = true
            startPing(tracker)
            countStarts += 1
        case .pauseBegin:
            guard s.didStart, !s.isPaused else { return false }
            tracker.state.isPaused = true
        case .pauseFinish:
            guard s.didStart, s.isPaused else { return false }
            tracker.state.isPaused = false
            accumPauseTime += elapsed(event, .pauseBegin, accumulator: "accumPauseTime")
        case .bufferBegin:
            guard !s.isBuffering else { return false }
            tracker.state.isBuffering = true
            lastBufferBeginInPauseBlock = s.isPaused
            lastBufferBeginInSeekBlock = s.isSeeking
        case .bufferFinish:
            guard s.isBuffering else { return false }
            tracker.state.isBuffering = false
            accumBufferTime += elapsed(event, .bufferBegin, accumulator: "accumBufferTime")
        case .seekBegin:
            guard !s.isSeeking else { return false }
            tracker.state.isSeeking = true
        case .seekFinish:
            guard s.isSeeking else { return false }
            tracker.state.isSeeking = false
            accumSeekTime += elapsed(event, .seekBegin, accumulator: "accumSeekTime")
        case .end, .stop, .next:
            guard s.didStart, !s.didFinish else { return false }
            tracker.state.didFinish = true
            stopPing(tracker)
        case .error:
            countErrors += 1
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
