import AVTJSON
import AVTTrackers

extension SessionHistory {
    /// One step's observations of a player tracker. They join the tracker's batch of the instant
    /// (see `resolve` and `batch`): the player's new state is resolved once per batch.
    package mutating func observe(_ observations: [Observation], tracker: Int, at t: Int) {
        advance(to: t)
        guard trackers.indices.contains(tracker), trackers[tracker].readsObservations else { return }
        var index = currentPlayback(tracker: tracker, at: t)
        for observation in observations {
            batch(observation.name, tracker: tracker)
            if observation.name == .mediaItemTransition {
                index = mediaItemTransition(observation.value, tracker: tracker, playback: index, at: t)
                continue
            }
            // A new source (AVPlayer's item URL, HTML5's currentSrc) once the playback began is a
            // new item: a new playback, as a media item transition is on ExoPlayer.
            if observation.name == .source || observation.name == .currentSrc,
                let source = PlayerValue.string(observation.value)
            {
                let previous = trackers[tracker].source
                trackers[tracker].source = source
                if previous != nil, previous != source, playbacks.items[playbacks.position(index)].state != .notStarted
                {
                    index = beginPlayback(tracker: tracker, at: t)
                    // The player loads the new item: its join begins.
                    trackers[tracker].signals.state = .buffering
                }
            }
            // The recording begins mid-playback: a mark on the playback, whatever the player. A
            // playback already over (stopped, ended, failed) is not the one under way: the mark
            // begins the next (players sharing a tracker, one after the other).
            if observation.name == .midSession {
                guard PlayerValue.bool(observation.value) == true else { continue }
                if playbacks.items[playbacks.position(index)].state.isTerminal {
                    index = beginPlayback(tracker: tracker, at: t)
                }
                playbacks.items[playbacks.position(index)].startNotRecorded = true
                mediaSeen(tracker: tracker, playback: index)
                continue
            }
            switch trackers[tracker].vocabulary {
            case .exoplayer: exoPlayer(observation, tracker: tracker, playback: index, at: t)
            case .avplayer: avPlayer(observation, tracker: tracker, playback: index, at: t)
            case .html5:
                if observation.name == .event, PlayerValue.string(observation.value) == "loadstart",
                    playbacks.items[playbacks.position(index)].firstFrame != nil
                        || playbacks.items[playbacks.position(index)].state.isTerminal
                {
                    index = beginPlayback(tracker: tracker, at: t)
                }
                html5(observation, tracker: tracker, playback: index, at: t)
            default: break
            }
        }
        // The seek rule, the played format and the state wait for the end of the batch.
        resolve(tracker: tracker, at: t)
    }

    /// A play intent: the request the other definition sets measure startup from.
    mutating func playIntent(_ playing: Bool, tracker: Int, playback: Int, at t: Int) {
        trackers[tracker].signals.playWhenReady = playing
        if playing, playbacks.items[playbacks.position(playback)].request == nil {
            playbacks.items[playbacks.position(playback)].request = t
        }
    }

    private mutating func avPlayer(_ o: Observation, tracker: Int, playback: Int, at t: Int) {
        switch o.name {
        case .status, .itemStatus:
            switch PlayerValue.string(o.value) {
            // Ready to play is not ready to render: the join goes on until the first frame.
            case "readyToPlay":
                if trackers[tracker].signals.state == .idle { trackers[tracker].signals.state = .buffering }
            case "failed":
                trackers[tracker].signals.hasFatalError = true
                playbacks.items[playbacks.position(playback)].fatalError(at: t)
            default: break
            }
        case .timeControlStatus:
            switch PlayerValue.string(o.value) {
            case "playing":
                trackers[tracker].signals.state = .ready
                playIntent(true, tracker: tracker, playback: playback, at: t)
                playbacks.items[playbacks.position(playback)].rendered(at: t)
            case "waitingToPlayAtSpecifiedRate":
                trackers[tracker].signals.state = .buffering
                playIntent(true, tracker: tracker, playback: playback, at: t)
            default:
                playIntent(false, tracker: tracker, playback: playback, at: t)
            }
        case .rate:
            playIntent((PlayerValue.number(o.value) ?? 0) != 0, tracker: tracker, playback: playback, at: t)
        case .playbackLikelyToKeepUp:
            if PlayerValue.bool(o.value) == true, !trackers[tracker].signals.playWhenReady,
                trackers[tracker].signals.state == .buffering
            {
                trackers[tracker].signals.state = .ready
            }
        case .notification:
            switch PlayerValue.string(o.value) {
            case "didPlayToEndTime": trackers[tracker].signals.state = .ended
            case "failedToPlayToEndTime":
                trackers[tracker].signals.hasFatalError = true
                playbacks.items[playbacks.position(playback)].fatalError(at: t)
            case "timeJumped": trackers[tracker].signals.isSeeking = true
            default: break
            }
        case .presentationSize:
            trackers[tracker].videoSizeHeight = PlayerValue.size(o.value).flatMap { Int(exactly: $0.height.rounded()) }
        case .indicatedBitrate:
            trackers[tracker].formatBitrate = PlayerValue.number(o.value).flatMap { Int(exactly: $0.rounded()) }
        case .droppedVideoFrames:
            runningTotal(
                o.value, seen: \.droppedFramesSeen, into: \.droppedFrames, tracker: tracker, playback: playback)
        case .bytesTransferred:
            runningTotal(o.value, seen: \.bytesSeen, into: \.bandwidthBytes, tracker: tracker, playback: playback)
        case .transferDuration:
            runningTotal(o.value, seen: \.transferTimeSeen, into: \.bandwidthTime, tracker: tracker, playback: playback)
        case .errorLogEvent:
            playbacks.items[playbacks.position(playback)].nonFatalError("errorLogEvent", at: t)
        default: break
        }
    }

    private mutating func html5(_ o: Observation, tracker: Int, playback: Int, at t: Int) {
        playbacks.items[playbacks.position(playback)].shaka =
            playbacks.items[playbacks.position(playback)].shaka ?? ShakaStateHistory()
        playbacks.items[playbacks.position(playback)].shaka?.observe(o, at: t)
        switch o.name {
        case .event:
            switch PlayerValue.string(o.value) {
            // A load (the first, or the next item of a playlist) begins a join, whatever came before.
            case "loadstart": trackers[tracker].signals.state = .buffering
            case "loadeddata", "canplay", "canplaythrough":
                if trackers[tracker].signals.state == .buffering, !trackers[tracker].signals.playWhenReady {
                    trackers[tracker].signals.state = .ready
                }
            case "play": playIntent(true, tracker: tracker, playback: playback, at: t)
            case "playing":
                trackers[tracker].signals.state = .ready
                playIntent(true, tracker: tracker, playback: playback, at: t)
                playbacks.items[playbacks.position(playback)].rendered(at: t)
            case "pause": playIntent(false, tracker: tracker, playback: playback, at: t)
            case "waiting": trackers[tracker].signals.state = .buffering
            case "seeking": trackers[tracker].signals.isSeeking = true
            case "seeked":
                // `seeking`, `waiting`, `seeked`, `playing`: the buffering is the seek's.
                if trackers[tracker].signals.state == .buffering, trackers[tracker].signals.isSeeking {
                    trackers[tracker].signals.seekAwaitsData = true
                } else {
                    trackers[tracker].signals.isSeeking = false
                }
            case "ended":
                // The element pauses as it ends (HTML's "reaches the end": paused is set, `pause`
                // fires, then `ended`): the next item plays on a new `play`.
                trackers[tracker].signals.state = .ended
                trackers[tracker].signals.playWhenReady = false
            case "error":
                trackers[tracker].signals.hasFatalError = true
                playbacks.items[playbacks.position(playback)].fatalError(at: t)
            case "emptied": trackers[tracker].signals.state = .idle
            default: break
            }
        case .videoHeight:
            trackers[tracker].videoSizeHeight = PlayerValue.integer(o.value)
        case .droppedVideoFrames:
            runningTotal(
                o.value, seen: \.droppedFramesSeen, into: \.droppedFrames, tracker: tracker, playback: playback)
        default: break
        }
    }

    /// A player's running total (AVPlayer's dropped frames and transfers from the access log,
    /// HTML5's `getVideoPlaybackQuality()` dropped frames): the playback gets what was added
    /// since the tracker's last total.
    private mutating func runningTotal(
        _ value: JSONValue, seen: WritableKeyPath<TrackerModel, Int>, into sum: WritableKeyPath<PlaybackHistory, Int>,
        tracker: Int, playback: Int
    ) {
        guard let total = PlayerValue.integer(value) else { return }
        let new = max(0, total - trackers[tracker][keyPath: seen])
        trackers[tracker][keyPath: seen] = total
        playbacks.items[playbacks.position(playback)][keyPath: sum] = playbacks.items[playbacks.position(playback)][
            keyPath: sum
        ].saturatingAdding(new)
    }
}
