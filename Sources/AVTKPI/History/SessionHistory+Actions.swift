extension SessionHistory {
    /// One action a tracker emitted (before the hub; from an event log, as delivered). Every
    /// action is counted on the tracker's playback; on a tracker that reads actions it also
    /// moves the player: MediaRequest asks to play and starts loading, Start is the first frame
    /// (READY, playing), BufferBegin/BufferFinish are BUFFERING/READY once started,
    /// PauseBegin/PauseFinish set playWhenReady, SeekBegin…SeekFinish is a seek, End is ENDED,
    /// Stop is IDLE (STOPPED), Error is a fatal error until the player goes on.
    package mutating func action(_ name: String, tracker: Int, at t: Int, hubPlaybackId: String? = nil) {
        advance(to: t)
        guard trackers.indices.contains(tracker) else { return }
        let vocabulary = trackers[tracker].vocabulary
        if vocabulary == .none || name == "Ping" || name == "TrackerInit" { return }
        if vocabulary == .ads || (name.hasPrefix("Ad") && vocabulary == .actions) {
            adAction(name, tracker: tracker, at: t)
            return
        }
        if fromEvents {
            // The hub rotates its playbackId at End, Stop and Next; a playback begins with the first
            // request, load or start under the new id. What comes under the new id before that
            // (the next join's BufferBegin, a late pause) belongs to no playback the log can tell.
            let begins = name == "MediaRequest" || name == "StreamLoad" || name == "Start"
            if let hubPlaybackId, hubPlaybackId != trackers[tracker].hubPlaybackId {
                guard begins || trackers[tracker].current == nil else { return }
                trackers[tracker].hubPlaybackId = hubPlaybackId
                let index = beginPlayback(tracker: tracker, at: t)
                playbacks.items[playbacks.position(index)].joinUnknown = name != "MediaRequest" && name != "StreamLoad"
            }
            guard trackers[tracker].current != nil else { return }  // before any playbackId
        }
        if !fromEvents, startsPlayback(name, tracker: tracker) { beginPlayback(tracker: tracker, at: t) }
        let index = currentPlayback(tracker: tracker, at: t)
        if trackers[tracker].hub.accepts(name) { playbacks.items[playbacks.position(index)].count(name, at: t) }
        if name == "MediaRequest" { playbacks.items[playbacks.position(index)].mediaRequests += 1 }
        // A player tracker's StreamLoad is the player loading, not the user asking to play.
        let isRequest = name == "MediaRequest" || (name == "StreamLoad" && !trackers[tracker].readsObservations)
        if isRequest, playbacks.items[playbacks.position(index)].request == nil {
            playbacks.items[playbacks.position(index)].request = t
        }
        if name == "MediaRequest" || name == "StreamLoad", playbacks.items[playbacks.position(index)].loadRequest == nil
        {
            playbacks.items[playbacks.position(index)].loadRequest = t
        }
        // A player tracker's state comes from its observations; its actions only count (a
        // scripted request above starts the clock), apart from a stop the player may not report.
        if trackers[tracker].readsObservations {
            guard name == "Stop" else { return }
            batchStop(tracker: tracker)
            trackers[tracker].signals.state = .idle
            trackers[tracker].signals.isSeeking = false
            resolve(tracker: tracker, at: t)
            return
        }
        apply(
            name, to: &trackers[tracker].signals, started: playbacks.items[playbacks.position(index)].firstFrame != nil)
        if name == "Error" { playbacks.items[playbacks.position(index)].fatalError(at: t) }
        resolve(tracker: tracker, at: t)
    }

    /// Whether the action begins a new playback on the tracker: a request, load or start after
    /// the last playback was over, or a request or load once it had started.
    private func startsPlayback(_ name: String, tracker: Int) -> Bool {
        guard let index = trackers[tracker].current else { return false }
        let playback = playbacks.items[playbacks.position(index)]
        // A player tracker's own actions follow its player; only a scripted request starts over.
        if trackers[tracker].readsObservations { return name == "MediaRequest" && playback.state.isTerminal }
        switch name {
        case "MediaRequest", "StreamLoad":
            return playback.state.isTerminal || playback.firstFrame != nil
                || (name == "MediaRequest" && playback.mediaRequests > 0)
        case "Start":
            return playback.state.isTerminal
        default:
            return false
        }
    }

    private func apply(_ name: String, to s: inout PlayerSignals, started: Bool) {
        switch name {
        case "MediaRequest":
            s.playWhenReady = true
            if s.state == .idle { s.state = .buffering }
        case "StreamLoad":
            if s.state == .idle { s.state = .buffering }
        case "Start":
            s.state = .ready
            s.playWhenReady = true
        case "BufferBegin":
            s.state = .buffering
        case "BufferFinish":
            if started { s.state = .ready }
        case "PauseBegin": s.playWhenReady = false
        case "PauseFinish": s.playWhenReady = true
        case "SeekBegin": s.isSeeking = true
        case "SeekFinish":
            // Buffering for the seek goes on: it is still the seek (BufferFinish ends it).
            if s.state == .buffering, s.isSeeking { s.seekAwaitsData = true } else { s.isSeeking = false }
        case "End", "Next":
            s.state = .ended
            (s.isSeeking, s.seekAwaitsData) = (false, false)
        case "Stop":
            s.state = .idle
            (s.isSeeking, s.seekAwaitsData) = (false, false)
        case "Error":
            s.hasFatalError = true
            return
        default:
            return
        }
        // The player went on after an error: it was not fatal after all.
        if name != "End", name != "Next", name != "Stop" { s.hasFatalError = false }
    }

    /// An ads tracker's action (or a generic tracker's Ad… action) lands on the content
    /// playback: an ad break interrupts it (INTERRUPTED_BY_AD) and its first ad frame before the
    /// content's first frame ends Mux's startup.
    private mutating func adAction(_ name: String, tracker: Int, at t: Int) {
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
        case "AdBreakBegin": trackers[owner].signals.isInterruptedByAd = true
        case "AdBreakFinish": trackers[owner].signals.isInterruptedByAd = false
        case "AdBegin":
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
