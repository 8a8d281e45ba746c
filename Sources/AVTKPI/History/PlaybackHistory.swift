/// One playback's state history and what accrues along it, kept the way ExoPlayer's
/// PlaybackStatsListener keeps a `PlaybackStatsTracker` (state durations, counts, the played
/// format's time-weighted height and bitrate, errors), plus the moments the other definition
/// sets measure from (the play request, the first frame, the first ad frame).
package struct PlaybackHistory: Sendable {
    package let id: String
    /// The virtual time the playback began (ms).
    package let begin: Int
    package private(set) var state = PlaybackState.notStarted
    private(set) var stateStart: Int
    /// Time spent in each state, indexed by raw value (`playbackStateDurationsMs`).
    private(set) var durations = [Int](repeating: 0, count: PlaybackState.count)
    /// Every state change, when asked for (the report draws it; `kpi` does not keep it, so its
    /// memory does not grow with the steps).
    package private(set) var spans: [StateSpan]?

    private(set) var isJoinTimeInvalid = false
    package private(set) var hasBeenReady = false
    private(set) var hasEnded = false
    private(set) var pauseCount = 0
    private(set) var seekCount = 0
    /// PlaybackStats' rebuffer count: entering BUFFERING, PAUSED_BUFFERING or
    /// SUPPRESSED_BUFFERING from any other state.
    private(set) var rebufferCount = 0
    /// Stalls the player wanted to play through: entering BUFFERING or SUPPRESSED_BUFFERING
    /// from a state that was not buffering, once the first frame was shown (OpenAVT, Mux, CTA).
    private(set) var stallCount = 0
    private var lastRebufferStart = 0
    private(set) var maxRebufferTime: Int?
    /// Mux's seek latency: from a seek until the playback plays again, the buffering after it
    /// included; the start of the wait still open, and the waits measured so far.
    private var seekWaitStart: Int?
    private(set) var seekLatency = 0, seekLatencyCount = 0

    /// The rendition played, as the player reports it (openavt, mux and cta sets; the report).
    package private(set) var played: FormatTimes
    /// The video format as PlaybackStats keeps it (exoplayer set): on an ExoPlayer, formats are
    /// the events of a batch, not the player's state (see `SessionHistory.settleExoPlayerFormat`).
    package private(set) var statsFormat: FormatTimes
    /// Format changes (t, height, bitrate) for the report's plot, when spans are kept.
    package private(set) var formats: [(t: Int, height: Int?, bitrate: Int?)]?

    package var droppedFrames = 0
    /// Bytes transferred and the active transfer time (ms) they took: PlaybackStats'
    /// `totalBandwidthBytes` and `totalBandwidthTimeMs`.
    package var bandwidthBytes = 0
    package var bandwidthTime = 0
    private(set) var fatalErrors = 0
    package var nonFatalErrors = 0
    /// Fatal errors before the first frame (a start failure).
    private(set) var fatalErrorsBeforeStart = 0
    /// When each fatal error happened (the report marks them), when spans are kept.
    package private(set) var errorTimes: [Int]?
    /// When each non-fatal error happened and what reported it, when spans are kept: the report
    /// marks every error its Errors card counts.
    package private(set) var nonFatalErrorTimes: [(t: Int, what: String)]?
    /// Each ad as the ad time counts it, AdBegin → AdFinish or AdSkip (nil end: none came, so it
    /// adds no time), when spans are kept.
    package private(set) var adSpans: [(start: Int, end: Int?)]?

    /// The user's first instruction to play (MediaRequest, a player's play intent; a generic
    /// tracker's StreamLoad when it has no request): where Mux and CTA start the clock.
    package var request: Int?
    /// The tracker's first MediaRequest, else StreamLoad, for this playback: where OpenAVT's
    /// StartTime starts. nil when it cannot be known (an event log whose hub dropped it).
    package var loadRequest: Int?
    /// The first frame: the first time the playback was PLAYING (Start on a generic tracker),
    /// or, on a player that says when it renders (`rendersExplicitly`), its first `playing`.
    package private(set) var firstFrame: Int?
    /// HTML5 and AVPlayer say when frames render (`playing`, `timeControlStatus: playing`):
    /// their READY with a play request (`canplay` then `play`, `rate 1`) is not yet a frame.
    package var rendersExplicitly = false
    /// Time in PLAYING and in BUFFERING or SUPPRESSED_BUFFERING before the first frame: to Mux,
    /// CTA and OpenAVT the wait from the request to the first frame is startup, neither play
    /// time nor a rebuffer (PlaybackStats counts the states as they are).
    private(set) var playingBeforeFirstFrame = 0
    private(set) var bufferingBeforeFirstFrame = 0
    /// The pauses after the first frame: a viewer pausing what they watched (every set but
    /// exoplayer; a player ready and waiting for its first play is not paused by anyone).
    private(set) var pausesAfterFirstFrame = 0
    /// The first frame of an ad before the first content frame (Mux ends startup there).
    package var firstAdFrame: Int?
    /// The Start's `timeSinceMediaRequest` (else `timeSinceStreamLoad`) as the hub delivered it:
    /// the StartTime an OpenAVT dashboard shows.
    package var startTimeMetric: Int?
    /// An event log's playback that begins without its request or load (the hub blocked them):
    /// where its join began cannot be known.
    package var joinUnknown = false
    /// The recording begins while this playback was already under way (a `midSession`
    /// observation): its startup and first format happened before it, so the figures about them
    /// (join, time to first frame, StartTime, initial height and bitrate) are not known. What the
    /// recording shows (states, counts) is kept.
    package var startNotRecorded = false
    package var counters = ActionCounters()
    /// MediaRequests the tracker emitted in this playback, accepted or not (a second one before
    /// the first frame is a new request, a new playback).
    var mediaRequests = 0
    /// When a later playback on the same tracker took over (the report's bar ends there).
    package var finishedAt: Int?
    /// False while its player has no media: such a playback is left out of the KPIs (see
    /// `TrackerModel.hasMedia`).
    package var hasMedia = true
    /// The playback as Shaka Player measures it (the `shaka` set): HTML5 playbacks only.
    package var shaka: ShakaStateHistory?

    package init(id: String, begin: Int, keepSpans: Bool) {
        self.id = id
        self.begin = begin
        stateStart = begin
        played = FormatTimes(begin: begin)
        statsFormat = FormatTimes(begin: begin)
        if keepSpans {
            spans = [StateSpan(state: .notStarted, start: begin)]
            formats = []
            errorTimes = []
            nonFatalErrorTimes = []
            adSpans = []
        }
    }

    /// PlaybackStatsListener's `updatePlaybackState`: the old state's time is banked and the
    /// counts move on entering the new one.
    package mutating func enter(_ new: PlaybackState, at t: Int) {
        guard new != state else { return }
        let t = max(t, stateStart)
        recordFormatTime(at: t)
        bankTime(until: t)
        isJoinTimeInvalid = isJoinTimeInvalid || PlaybackState.isInvalidJoin(from: state, to: new)
        hasBeenReady = hasBeenReady || new.isReady
        hasEnded = hasEnded || new == .ended
        if !state.isPaused, new.isPaused {
            pauseCount += 1
            if let frame = firstFrame, frame <= t { pausesAfterFirstFrame += 1 }
        }
        if new == .seeking { seekCount += 1 }
        if !state.isRebuffering, new.isRebuffering {
            rebufferCount += 1
            lastRebufferStart = t
        }
        if state != .buffering, state != .suppressedBuffering, state != .pausedBuffering,
            new == .buffering || new == .suppressedBuffering, let frame = firstFrame, frame <= t
        {
            stallCount += 1
        }
        updateMaxRebufferTime(at: t)
        updateSeekLatency(entering: new, at: t)
        if new == .playing, firstFrame == nil, !rendersExplicitly { firstFrame = t }
        state = new
        stateStart = t
        spans?.append(StateSpan(state: new, start: t))
    }

    /// The player says it renders: its first `playing` is the first frame.
    package mutating func rendered(at t: Int) {
        if firstFrame == nil { firstFrame = t }
    }

    /// Banks the current state's time up to `t`, and the part of it before the first frame.
    private mutating func bankTime(until t: Int) {
        durations[state.rawValue] = durations[state.rawValue].saturatingAdding(t - stateStart)
        let beforeFrame = max(0, min(t, firstFrame ?? t) - stateStart)
        switch state {
        case .playing: playingBeforeFirstFrame = playingBeforeFirstFrame.saturatingAdding(beforeFrame)
        case .buffering, .suppressedBuffering:
            bufferingBeforeFirstFrame = bufferingBeforeFirstFrame.saturatingAdding(beforeFrame)
        default: break
        }
    }

    /// A fatal error (PlaybackStats' `fatalErrorCount`).
    package mutating func fatalError(at t: Int) {
        fatalErrors += 1
        if firstFrame == nil { fatalErrorsBeforeStart += 1 }
        errorTimes?.append(t)
    }

    /// A non-fatal error (PlaybackStats' `nonFatalErrorCount`): `what` reported it.
    package mutating func nonFatalError(_ what: String, at t: Int) {
        nonFatalErrors += 1
        nonFatalErrorTimes?.append((t, what))
    }

    /// An action the playback counts (`ActionCounters`); its ads are kept for the report as the
    /// counters time them: an AdBegin replaces an ad still open, which then counts no time.
    mutating func count(_ action: HistoryAction.Kind, at t: Int) {
        counters.count(action, at: t)
        switch action {
        case .adBegin: adSpans?.append((t, nil))
        case .adFinish, .adSkip:
            if let last = adSpans?.indices.last, adSpans?[last].end == nil { adSpans?[last].end = t }
        default: break
        }
    }

    /// The current height and bitrate of the rendition played.
    package var height: Int? { played.format?.height }
    package var bitrate: Int? { played.format?.bitrate }

    /// A new format, played and as PlaybackStats sees it alike (every player but ExoPlayer).
    package mutating func setFormat(height: Int?, bitrate: Int?, at t: Int) {
        let format = VideoFormat(height: height, bitrate: bitrate)
        setPlayedFormat(format, at: t)
        setStatsFormat(format, at: t)
    }

    /// A new rendition played (`maybeUpdateVideoFormat`: the time at the old one is banked first).
    package mutating func setPlayedFormat(_ format: VideoFormat, at t: Int) {
        if played.change(to: format, at: t, playing: state == .playing) {
            formats?.append((t, format.height, format.bitrate))
        }
    }

    /// A new format for PlaybackStats (`maybeUpdateVideoFormat`).
    package mutating func setStatsFormat(_ format: VideoFormat, at t: Int) {
        statsFormat.change(to: format, at: t, playing: state == .playing)
    }

    /// `maybeRecordVideoFormatTime`, for both formats.
    private mutating func recordFormatTime(at t: Int) {
        played.record(at: t, playing: state == .playing)
        statsFormat.record(at: t, playing: state == .playing)
    }

    /// `maybeUpdateMaxRebufferTimeMs`.
    private mutating func updateMaxRebufferTime(at t: Int) {
        guard state.isRebuffering else { return }
        let duration = t - lastRebufferStart
        if maxRebufferTime.map({ duration > $0 }) ?? true { maxRebufferTime = duration }
    }

    /// A seek's wait runs from the first seek until PLAYING, through more seeks and buffering: a
    /// viewer waiting for playback to go on. A pause, an end, an error or an ad first means the
    /// viewer was not waiting for it, so that seek has no latency.
    private mutating func updateSeekLatency(entering new: PlaybackState, at t: Int) {
        switch new {
        case .seeking: if seekWaitStart == nil { seekWaitStart = t }
        case .buffering, .suppressedBuffering: break
        case .playing:
            if let start = seekWaitStart {
                seekLatency = seekLatency.saturatingAdding(t - start)
                seekLatencyCount += 1
            }
            seekWaitStart = nil
        default: seekWaitStart = nil
        }
    }

    /// The history as `build(isFinal: false)` sees it at `t`: the open state runs until then.
    package func closed(at t: Int) -> PlaybackHistory {
        var copy = self
        let t = max(t, stateStart)
        copy.recordFormatTime(at: t)
        copy.bankTime(until: t)
        copy.updateMaxRebufferTime(at: t)
        copy.stateStart = t
        copy.shaka = shaka?.closed(at: min(t, finishedAt ?? t))
        return copy
    }

    /// Time spent in `state` so far (closed states only; see `closed(at:)`).
    package func time(in state: PlaybackState) -> Int { durations[state.rawValue] }

    /// `getTotalJoinTimeMs` when the join was valid (`build`: not interrupted, and ready once).
    var validJoinTime: Int? { !isJoinTimeInvalid && hasBeenReady && !joinUnknown ? time(in: .joining) : nil }
}

extension Int {
    /// `self × other`, held at `Int.max` / `Int.min` instead of trapping.
    func saturatingMultiplied(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        if !overflow { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}
