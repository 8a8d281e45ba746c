import AVTCore
import AVTReplay

/// A backend that builds each playback's state history during a replay, so KPIs need no
/// output file. Plugged in as a plain backend it reads the delivered events (what an event log
/// holds); attached to a `Replayer` it also sees every tracker action before the hub filters
/// it and every player observation, which is what the definition sets need.
public final class KPIBackend: Backend {
    private var history: SessionHistory
    private var tapped = false
    private weak var instrument: Instrument?

    /// The KPIs so far (the open states run until the last time seen).
    public var kpis: SessionKPIs { SessionKPIs(history) }

    /// A backend that reads the delivered events only.
    public init(session: String) { history = SessionHistory(session: session, fromEvents: true) }

    /// A backend that follows `replayer`'s trackers before the hub (hooks its instrument's
    /// `onEmit` and its `onObserve`); `keepSpans` keeps every state change for drawing.
    package init(session: String, replayer: Replayer, keepSpans: Bool = false) {
        history = SessionHistory(session: session, keepSpans: keepSpans)
        history.configure(replayer.settings.trackers.map { ($0.kind, $0.isAdsTracker) })
        tapped = true
        let clock = replayer.instrument.clock
        // Held strongly: the backend refers to no instrument or replayer (its `instrument` is
        // weak), so there is no cycle, and no weak load on every action.
        replayer.instrument.onEmit = { action, tracker in
            guard let id = tracker.trackerId else { return }
            self.history.action(self.decoded(action), tracker: id, at: clock.now)
        }
        replayer.onObserve = { tracker, observations in
            self.history.observe(observations, tracker: tracker, at: clock.now)
        }
    }

    /// Whether playbacks that are over are folded into their figures as the replay goes
    /// (`SessionHistory.foldsFinished`): `kpi` without state histories, over long sessions.
    package var foldsFinished: Bool {
        get { history.foldsFinished }
        set { history.foldsFinished = newValue }
    }

    /// The playbacks folded since the last call, oldest first: their ids and figures.
    package func takeFolded() -> [(id: String, figures: PlaybackFigures)] { history.takeFolded() }

    /// The history itself, its last instant ended (the report draws it).
    package var sessionHistory: SessionHistory {
        var history = history
        history.settle()
        return history
    }

    /// Actions decoded for the history, by interned index: `Action.name` takes the name table's
    /// lock, and decoding hashes the name, once per action here instead of once per event.
    private var decodedActions: [HistoryAction?] = []

    private func decoded(_ action: Action) -> HistoryAction {
        let index = Int(action.index)
        if index < decodedActions.count, let decoded = decodedActions[index] { return decoded }
        let decoded = HistoryAction(action.name)
        if index >= 0, index < 1 << 16 {
            if index >= decodedActions.count {
                decodedActions += [HistoryAction?](repeating: nil, count: index + 1 - decodedActions.count)
            }
            decodedActions[index] = decoded
        }
        return decoded
    }

    public func instrumentReady(_ instrument: Instrument) { self.instrument = instrument }

    public func sendEvent(_ event: Event) {
        guard let tracker = event.trackerId else { return }
        if tapped {
            // Only what the hub adds: the Start's time since the request, and the rendition.
            let isStart = event.action == .start
            let height = event[.resolutionHeight]?.intValue
            let bitrate = event[.bitrate]?.intValue
            guard isStart || height != nil || bitrate != nil else { return }
            let startTime =
                isStart
                ? (event[Action.mediaRequest.timeAttribute] ?? event[Action.streamLoad.timeAttribute])?.intValue : nil
            history.delivered(
                action: isStart ? "Start" : "", tracker: tracker, at: event.timestamp, startTime: startTime,
                height: height, bitrate: bitrate)
            return
        }
        history.ensureTracker(tracker, isAds: event[.isAdsTracker] == .bool(true))
        history.action(
            decoded(event.action), tracker: tracker, at: event.timestamp, hubPlaybackId: event[.playbackId]?.stringValue
        )
        let isStart = event.action == .start
        let startTime =
            isStart
            ? (event[Action.mediaRequest.timeAttribute] ?? event[Action.streamLoad.timeAttribute])?.intValue : nil
        history.delivered(
            action: decoded(event.action).name, tracker: tracker, at: event.timestamp, startTime: startTime,
            height: event[.resolutionHeight]?.intValue, bitrate: event[.bitrate]?.intValue)
    }

    public func sendMetric(_ metric: Metric) {}

    /// The timeline gives `tracker` no more steps (`Step.endsTracker`), the last one at `t`.
    package func trackerEnded(_ tracker: Int, at t: Int) { history.trackerEnded(tracker, at: t) }

    /// The recording ends where the replay's clock stopped: open states run until then.
    public func endOfService() {
        if let now = instrument?.clock.now { history.advance(to: now) }
        history.settle()
    }
}
