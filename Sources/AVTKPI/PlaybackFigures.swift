/// The sums every definition set computes its KPIs from: one playback's history, or several
/// added together (PlaybackStats' `merge`) for a session's totals and pooled aggregates.
package struct PlaybackFigures: Sendable {
    var playbacks = 0
    var durations = [Int](repeating: 0, count: PlaybackState.count)
    var pauseCount = 0, seekCount = 0, rebufferCount = 0, stallCount = 0
    /// PLAYING and stalled time before the first frame: startup to every set but exoplayer.
    var playingBeforeFirstFrame = 0, bufferingBeforeFirstFrame = 0
    /// The pauses after the first frame (every set but exoplayer).
    var pausesAfterFirstFrame = 0
    var maxRebufferTime: Int?
    /// Mux's seek latency: the waits from a seek until playing, and how many.
    var seekLatency = 0, seekLatencyCount = 0
    /// PlaybackStats' `totalValidJoinTimeMs` and `validJoinTimeCount`.
    var validJoinTime = 0, validJoinCount = 0
    /// MediaRequest (else StreamLoad) → first frame (OpenAVT); play request → first frame (CTA),
    /// and → first ad or content frame (Mux).
    var toFirstFrameSinceLoad = 0, toFirstFrameSinceLoadCount = 0
    var toFirstFrame = 0, toFirstFrameCount = 0
    var toFirstPicture = 0, toFirstPictureCount = 0
    var startTimeMetric = 0, startTimeMetricCount = 0
    /// Playbacks that reached their first frame, that were ready once, that were attempted.
    var started = 0, ready = 0, attempted = 0
    /// Attempted, never started: all, and those without a fatal error.
    var neverStarted = 0, neverStartedWithoutFailure = 0
    /// Playbacks with a fatal error; playbacks that ended FAILED; ENDED; abandoned or stopped.
    var withFatalError = 0, endedFailed = 0, ended = 0, abandoned = 0
    var fatalErrors = 0, fatalErrorsBeforeStart = 0, nonFatalErrors = 0
    /// The rendition played (openavt, mux, cta) and the format as PlaybackStats keeps it.
    var played = FormatFigures(), statsFormat = FormatFigures()
    var droppedFrames = 0
    var bandwidthBytes = 0, bandwidthTime = 0
    /// Playbacks whose start the recording does not show (a `midSession` mark): no startup
    /// figures, and not a playback that never started.
    var startNotRecorded = 0
    var counters = ActionCounters()
    var shaka = ShakaFigures()

    init() {}

    /// The figures of one closed history (see `PlaybackHistory.closed(at:)`).
    init(_ h: PlaybackHistory) {
        playbacks = 1
        for state in PlaybackState.allCases { durations[state.rawValue] = h.time(in: state) }
        pauseCount = h.pauseCount
        seekCount = h.seekCount
        rebufferCount = h.rebufferCount
        stallCount = h.stallCount
        playingBeforeFirstFrame = h.playingBeforeFirstFrame
        bufferingBeforeFirstFrame = h.bufferingBeforeFirstFrame
        pausesAfterFirstFrame = h.pausesAfterFirstFrame
        maxRebufferTime = h.maxRebufferTime
        seekLatency = h.seekLatency
        seekLatencyCount = h.seekLatencyCount
        // A playback whose start the recording does not show has no startup figures: a join
        // of 0 (the first state seen is already playing) would be a wrong number, not a fast one.
        if h.startNotRecorded { startNotRecorded = 1 } else { startFigures(h) }
        let attempt = h.request != nil || h.loadRequest != nil || h.state != .notStarted
        started = h.firstFrame != nil ? 1 : 0
        ready = h.hasBeenReady ? 1 : 0
        attempted = attempt ? 1 : 0
        neverStarted = attempt && h.firstFrame == nil ? 1 : 0
        neverStartedWithoutFailure = neverStarted == 1 && h.fatalErrors == 0 ? 1 : 0
        withFatalError = h.fatalErrors > 0 ? 1 : 0
        endedFailed = h.state == .failed ? 1 : 0
        ended = h.hasEnded ? 1 : 0
        // A playback that ended (and was then stopped, or left after a replay) is not abandoned.
        abandoned = !h.hasEnded && (h.state == .abandoned || h.state == .stopped) ? 1 : 0
        fatalErrors = h.fatalErrors
        fatalErrorsBeforeStart = h.fatalErrorsBeforeStart
        nonFatalErrors = h.nonFatalErrors
        played = FormatFigures(h.played, initial: !h.startNotRecorded)
        statsFormat = FormatFigures(h.statsFormat, initial: !h.startNotRecorded)
        droppedFrames = h.droppedFrames
        bandwidthBytes = h.bandwidthBytes
        bandwidthTime = h.bandwidthTime
        counters = h.counters
        if let history = h.shaka { shaka = ShakaFigures(history) }
    }

    /// The figures about how the playback began: its join, its time to the first frame (from
    /// the load or the request) and the hub's StartTime (its first format: `FormatFigures`).
    private mutating func startFigures(_ h: PlaybackHistory) {
        if let join = h.validJoinTime {
            validJoinTime = join
            validJoinCount = 1
        }
        if let request = h.loadRequest ?? h.request, let frame = h.firstFrame {
            toFirstFrameSinceLoad = max(0, frame - request)
            toFirstFrameSinceLoadCount = 1
        }
        if let request = h.request ?? h.loadRequest, let frame = h.firstFrame {
            toFirstFrame = max(0, frame - request)
            toFirstFrameCount = 1
        }
        if let request = h.request ?? h.loadRequest, let picture = h.firstAdFrame ?? h.firstFrame {
            toFirstPicture = max(0, picture - request)
            toFirstPictureCount = 1
        }
        if let metric = h.startTimeMetric {
            startTimeMetric = metric
            startTimeMetricCount = 1
        }
    }

    func time(_ state: PlaybackState) -> Int { durations[state.rawValue] }

    /// Adds another playback's figures (sums; the longest rebuffer is the larger).
    mutating func merge(_ o: PlaybackFigures) {
        func add(_ a: inout Int, _ b: Int) { a = a.saturatingAdding(b) }
        add(&playbacks, o.playbacks)
        for i in durations.indices { add(&durations[i], o.durations[i]) }
        add(&pauseCount, o.pauseCount)
        add(&seekCount, o.seekCount)
        add(&rebufferCount, o.rebufferCount)
        add(&stallCount, o.stallCount)
        add(&playingBeforeFirstFrame, o.playingBeforeFirstFrame)
        add(&bufferingBeforeFirstFrame, o.bufferingBeforeFirstFrame)
        add(&pausesAfterFirstFrame, o.pausesAfterFirstFrame)
        add(&seekLatency, o.seekLatency)
        add(&seekLatencyCount, o.seekLatencyCount)
        if let m = o.maxRebufferTime { maxRebufferTime = max(maxRebufferTime ?? m, m) }
        add(&validJoinTime, o.validJoinTime)
        add(&validJoinCount, o.validJoinCount)
        add(&toFirstFrameSinceLoad, o.toFirstFrameSinceLoad)
        add(&toFirstFrameSinceLoadCount, o.toFirstFrameSinceLoadCount)
        add(&toFirstFrame, o.toFirstFrame)
        add(&toFirstFrameCount, o.toFirstFrameCount)
        add(&toFirstPicture, o.toFirstPicture)
        add(&toFirstPictureCount, o.toFirstPictureCount)
        add(&startTimeMetric, o.startTimeMetric)
        add(&startTimeMetricCount, o.startTimeMetricCount)
        add(&started, o.started)
        add(&startNotRecorded, o.startNotRecorded)
        add(&ready, o.ready)
        add(&attempted, o.attempted)
        add(&neverStarted, o.neverStarted)
        add(&neverStartedWithoutFailure, o.neverStartedWithoutFailure)
        add(&withFatalError, o.withFatalError)
        add(&endedFailed, o.endedFailed)
        add(&ended, o.ended)
        add(&abandoned, o.abandoned)
        add(&fatalErrors, o.fatalErrors)
        add(&fatalErrorsBeforeStart, o.fatalErrorsBeforeStart)
        add(&nonFatalErrors, o.nonFatalErrors)
        played.merge(o.played)
        statsFormat.merge(o.statsFormat)
        add(&droppedFrames, o.droppedFrames)
        add(&bandwidthBytes, o.bandwidthBytes)
        add(&bandwidthTime, o.bandwidthTime)
        counters.merge(o.counters)
        shaka.merge(o.shaka)
    }
}

extension ActionCounters {
    mutating func merge(_ o: ActionCounters) {
        func add(_ a: inout Int, _ b: Int) { a = a.saturatingAdding(b) }
        add(&requests, o.requests)
        add(&loads, o.loads)
        add(&plays, o.plays)
        add(&ends, o.ends)
        add(&qualityUp, o.qualityUp)
        add(&qualityDown, o.qualityDown)
        add(&adBreaks, o.adBreaks)
        add(&ads, o.ads)
        add(&adsCompleted, o.adsCompleted)
        add(&adsSkipped, o.adsSkipped)
        add(&adTime, o.adTime)
    }
}
