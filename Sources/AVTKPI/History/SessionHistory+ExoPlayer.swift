import AVTJSON
import AVTTrackers

/// An `exoplayer` tracker's observations, read as ExoPlayer's player and PlaybackStatsListener
/// see them: the masking ExoPlayerImpl applies (a seek or a change of item from READY or ENDED
/// shows BUFFERING at once; an error puts the player in IDLE), one session per media item, and,
/// for PlaybackStats' format, formats that are events of a batch, not state.
extension SessionHistory {
    mutating func exoPlayer(_ o: Observation, tracker: Int, playback: Int, at t: Int) {
        switch o.name {
        case .playbackState:
            switch PlayerValue.string(o.value) {
            case "BUFFERING": trackers[tracker].signals.state = .buffering
            case "READY": trackers[tracker].signals.state = .ready
            case "ENDED": trackers[tracker].signals.state = .ended
            default: trackers[tracker].signals.state = .idle
            }
            // Only a player with media buffers or is ready; ENDED straight from IDLE is the
            // prepare of an empty playlist.
            if trackers[tracker].signals.state == .buffering || trackers[tracker].signals.state == .ready {
                mediaSeen(tracker: tracker, playback: playback)
            }
            // `getPlayerError()` is null again once the player is prepared; an error reported in
            // the same batch still counts (`onEvents` sets `hasFatalError` for it).
            if trackers[tracker].signals.state != .idle, !trackers[tracker].batchKeys.contains(.playerError) {
                trackers[tracker].signals.hasFatalError = false
            }
        case .playWhenReady:
            playIntent(PlayerValue.bool(o.value) ?? false, tracker: tracker, playback: playback, at: t)
        case .seekStarted:
            trackers[tracker].signals.isSeeking = true
            maskBuffering(tracker: tracker)
        case .playerError:
            // ExoPlayerImpl stops the player on a fatal error: it is IDLE until prepared again,
            // whether or not the recording reports the state (a state of the same batch says it).
            trackers[tracker].signals.hasFatalError = true
            if !trackers[tracker].batchKeys.contains(.playbackState) { trackers[tracker].signals.state = .idle }
            mediaSeen(tracker: tracker, playback: playback)
            playbacks.items[playbacks.position(playback)].fatalError(at: t)
        case .playbackSuppressionReason:
            trackers[tracker].signals.isSuppressed = PlayerValue.string(o.value) != "NONE"
        case .downstreamFormat:
            let format = VideoFormat(
                height: PlayerValue.member("height", of: o.value).flatMap(PlayerValue.integer),
                bitrate: PlayerValue.member("bitrate", of: o.value).flatMap(PlayerValue.integer))
            trackers[tracker].formatHeight = format.height
            trackers[tracker].formatBitrate = format.bitrate
            trackers[tracker].batchFormat = format
            mediaSeen(tracker: tracker, playback: playback)
        case .videoSize:
            let height = PlayerValue.size(o.value).flatMap { Int(exactly: $0.height.rounded()) }
            trackers[tracker].videoSizeHeight = height
            trackers[tracker].batchVideoHeight = height
            mediaSeen(tracker: tracker, playback: playback)
        case .droppedFrames:
            playbacks.items[playbacks.position(playback)].droppedFrames = playbacks.items[playbacks.position(playback)]
                .droppedFrames.saturatingAdding(
                    PlayerValue.integer(o.value) ?? 0)
            mediaSeen(tracker: tracker, playback: playback)
        case .loadError:
            playbacks.items[playbacks.position(playback)].nonFatalError("loadError", at: t)
            mediaSeen(tracker: tracker, playback: playback)
        case .stop, .release:
            trackers[tracker].signals.state = .idle
        default: break
        }
    }

    /// A `mediaItemTransition`: a new media item is a new playback (a new window sequence
    /// number, so a new PlaybackStats session); an automatic transition (AUTO, REPEAT) ends the
    /// old one, any other abandons it. The first item (set before anything happened, or while
    /// the player had no media) belongs to the playback already open. Returns the playback.
    mutating func mediaItemTransition(_ value: JSONValue, tracker: Int, playback: Int, at t: Int) -> Int {
        let reason = PlayerValue.string(value)
        // A seek to another item or a new playlist is a seek for ExoPlayerImpl: it masks
        // BUFFERING at once, so the new item joins even when no BUFFERING is reported.
        if reason == "SEEK" || reason == "PLAYLIST_CHANGED" { maskBuffering(tracker: tracker) }
        var index = playback
        let isFirstItem =
            !playbacks.items[playbacks.position(index)].hasMedia
            || (playbacks.items[playbacks.position(index)].state == .notStarted
                && playbacks.items[playbacks.position(index)].request == nil)
        if !isFirstItem {
            index = beginPlayback(tracker: tracker, at: t, automatic: reason == "AUTO" || reason == "REPEAT")
        }
        mediaSeen(tracker: tracker, playback: index)
        return index
    }

    /// ExoPlayerImpl's masking while a seek is pending: READY and ENDED show BUFFERING (IDLE
    /// stays IDLE: an idle player does not load).
    private mutating func maskBuffering(tracker: Int) {
        if trackers[tracker].signals.state == .ready || trackers[tracker].signals.state == .ended {
            trackers[tracker].signals.state = .buffering
        }
    }

    /// The player has media from now on, and the playback with it.
    mutating func mediaSeen(tracker: Int, playback: Int) {
        trackers[tracker].hasMedia = true
        playbacks.items[playbacks.position(playback)].hasMedia = true
    }

    /// The end of a batch for PlaybackStats' format (`PlaybackStatsTracker.onEvents`): the batch's
    /// downstream format, if it has one, becomes the playback's (`maybeUpdateVideoFormat`); then
    /// the batch's video size, if it has one, fills in the height of a current format that has
    /// none. A size without a format, or outside the batch that reports it, changes nothing.
    mutating func settleExoPlayerFormat(tracker: Int, playback: Int, at t: Int) {
        let format = trackers[tracker].batchFormat
        let sizeHeight = trackers[tracker].batchVideoHeight
        trackers[tracker].batchFormat = nil
        trackers[tracker].batchVideoHeight = nil
        if let format { playbacks.items[playbacks.position(playback)].setStatsFormat(format, at: t) }
        if let sizeHeight, var current = playbacks.items[playbacks.position(playback)].statsFormat.format,
            current.height == nil
        {
            current.height = sizeHeight
            playbacks.items[playbacks.position(playback)].setStatsFormat(current, at: t)
        }
    }
}
