extension SessionHistory {
    /// One action a tracker emitted (before the hub; from an event log, as delivered). Every
    /// action is counted on the tracker's playback; on a tracker that reads actions it also
    /// moves the player: MediaRequest asks to play and starts loading, Start is the first frame
    /// (READY, playing), BufferBegin/BufferFinish are BUFFERING/READY once started,
    /// PauseBegin/PauseFinish set playWhenReady, SeekBegin…SeekFinish is a seek, End is ENDED,
    /// Stop is IDLE (STOPPED), Error is a fatal error until the player goes on.
    mutating func action(_ action: HistoryAction, tracker: Int, at t: Int, hubPlaybackId: String? = nil) {
        let name = action.kind
        advance(to: t)
        guard trackers.indices.contains(tracker) else { return }
        let vocabulary = trackers[tracker].vocabulary
        if vocabulary == .none || name == .ping || name == .trackerInit { return }
        if vocabulary == .ads || (action.isAd && vocabulary == .actions) {
            adAction(name, tracker: tracker, at: t)
            return
        }
        if fromEvents {
            // The hub rotates its playbackId at End, Stop and Next; a playback begins with the first
            // request, load or start under the new id. What comes under the new id before that
            // (the next join's BufferBegin, a late pause) belongs to no playback the log can tell.
            let begins = name == .mediaRequest || name == .streamLoad || name == .start
            if let hubPlaybackId, hubPlaybackId != trackers[tracker].hubPlaybackId {
                guard begins || trackers[tracker].current == nil else { return }
                trackers[tracker].hubPlaybackId = hubPlaybackId
                let index = beginPlayback(tracker: tracker, at: t)
                playbacks.items[playbacks.position(index)].joinUnknown = name != .mediaRequest && name != .streamLoad
            }
            guard trackers[tracker].current != nil else { return }  // before any playbackId
        }
        if !fromEvents, startsPlayback(name, tracker: tracker) { beginPlayback(tracker: tracker, at: t) }
        let index = currentPlayback(tracker: tracker, at: t)
        if trackers[tracker].hub.accepts(name) { playbacks.items[playbacks.position(index)].count(name, at: t) }
        if name == .mediaRequest { playbacks.items[playbacks.position(index)].mediaRequests += 1 }
        // A player tracker's StreamLoad is the player loading, not the user asking to play.
        let isRequest = name == .mediaRequest || (name == .streamLoad && !trackers[tracker].readsObservations)
        if isRequest, playbacks.items[playbacks.position(index)].request == nil {
            playbacks.items[playbacks.position(index)].request = t
        }
        if name == .mediaRequest || name == .streamLoad, playbacks.items[playbacks.position(index)].loadRequest == nil {
            playbacks.items[playbacks.position(index)].loadRequest = t
        }
        // A player tracker's state comes from its observations; its actions only count (a
        // scripted request above starts the clock), apart from a stop the player may not report.
        if trackers[tracker].readsObservations {
            guard name == .stop else { return }
            batchStop(tracker: tracker)
            trackers[tracker].signals.state = .idle
            trackers[tracker].signals.isSeeking = false
            resolve(tracker: tracker, at: t)
            return
        }
        apply(
            name, to: &trackers[tracker].signals, started: playbacks.items[playbacks.position(index)].firstFrame != nil)
        if name == .error { playbacks.items[playbacks.position(index)].fatalError(at: t) }
        resolve(tracker: tracker, at: t)
    }

    /// Whether the action begins a new playback on the tracker: a request, load or start after
    /// the last playback was over, or a request or load once it had started.
    private func startsPlayback(_ name: HistoryAction.Kind, tracker: Int) -> Bool {
        guard let index = trackers[tracker].current else { return false }
        // Read in place: a copy of the playback's history cost more than the rest of the action.
        let position = playbacks.position(index)
        let isTerminal = playbacks.items[position].state.isTerminal
        // A player tracker's own actions follow its player; only a scripted request starts over.
        if trackers[tracker].readsObservations { return name == .mediaRequest && isTerminal }
        switch name {
        case .mediaRequest, .streamLoad:
            return isTerminal || playbacks.items[position].firstFrame != nil
                || (name == .mediaRequest && playbacks.items[position].mediaRequests > 0)
        case .start:
            return isTerminal
        default:
            return false
        }
    }

    private func apply(_ name: HistoryAction.Kind, to s: inout PlayerSignals, started: Bool) {
        switch name {
        case .mediaRequest:
            s.playWhenReady = true
            if s.state == .idle { s.state = .buffering }
        case .streamLoad:
            if s.state == .idle { s.state = .buffering }
        case .start:
            s.state = .ready
            s.playWhenReady = true
        case .bufferBegin:
            s.state = .buffering
        case .bufferFinish:
            if started { s.state = .ready }
        case .pauseBegin: s.playWhenReady = false
        case .pauseFinish: s.playWhenReady = true
        case .seekBegin: s.isSeeking = true
        case .seekFinish:
            // Buffering for the seek goes on: it is still the seek (BufferFinish ends it).
            if s.state == .buffering, s.isSeeking { s.seekAwaitsData = true } else { s.isSeeking = false }
        case .end, .next:
            s.state = .ended
            (s.isSeeking, s.seekAwaitsData) = (false, false)
        case .stop:
            s.state = .idle
            (s.isSeeking, s.seekAwaitsData) = (false, false)
        case .error:
            s.hasFatalError = true
            return
        default:
            return
        }
        // The player went on after an error: it was not fatal after all.
        if name != .end, name != .next, name != .stop { s.hasFatalError = false }
    }

    /// An ads tracker's action (or a generic tracker's Ad… action) lands on the content
    /// playback: an ad break interrupts it (INTERRUPTED_BY_AD) and its first ad frame before the
    /// content's first frame ends Mux's startup.
    private mutating func adAction(_ name: HistoryAction.Kind, tracker: Int, at t: Int) {
        let owner: Int
        if let content, let track = trackers.firstIndex(where: { $0.current == content && $0.vocabulary != .ads }) {
            owner = track
        } else if trackers[tracker].vocabulary != .ads {
            owner = tracker
        } else {
            return  // ads before any content: nothing to interrupt
        }
        let index = currentPlayback(tracker: owner, at: t)
        playbacks.items[playbacks.position(index)].count(name, at: t)
        switch name {
        case .adBreakBegin: trackers[owner].signals.isInterruptedByAd = true
        case .adBreakFinish: trackers[owner].signals.isInterruptedByAd = false
        case .adBegin:
            if playbacks.items[playbacks.position(index)].firstFrame == nil,
                playbacks.items[playbacks.position(index)].firstAdFrame == nil
            {
                playbacks.items[playbacks.position(index)].firstAdFrame = t
            }
        default: return
        }
        resolve(tracker: owner, at: t)
    }

    /// What the hub delivered: the Start's time since the request (OpenAVT's StartTime metric)
    /// and, on a tracker that reads actions, the rendition its getters report.
    package mutating func delivered(
        action name: String, tracker: Int, at t: Int, startTime: Int?, height: Int?, bitrate: Int?
    ) {
        guard trackers.indices.contains(tracker), let index = trackers[tracker].current else { return }
        if name == "Start", playbacks.items[playbacks.position(index)].startTimeMetric == nil {
            playbacks.items[playbacks.position(index)].startTimeMetric = startTime
        }
        if trackers[tracker].vocabulary == .actions, height != nil || bitrate != nil {
            let playback = playbacks.items[playbacks.position(index)]
            playbacks.items[playbacks.position(index)].setFormat(
                height: height ?? playback.height, bitrate: bitrate ?? playback.bitrate, at: t)
        }
    }
}
