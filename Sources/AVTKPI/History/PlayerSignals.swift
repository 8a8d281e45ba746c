/// What a player says about itself, in ExoPlayer's terms, whatever the tracker: the inputs of
/// PlaybackStatsListener's `resolveNewPlaybackState`.
package struct PlayerSignals: Sendable {
    /// `Player.getPlaybackState()`.
    package enum State: Sendable { case idle, buffering, ready, ended }

    package var state = State.idle
    package var playWhenReady = false
    package var isSeeking = false
    /// The player finished a seek (HTML5 `seeked`, SeekFinish) while still buffering for it:
    /// the seek lasts until the buffering ends, as ExoPlayer's does.
    package var seekAwaitsData = false
    package var hasFatalError = false
    /// `getPlaybackSuppressionReason() != NONE`.
    package var isSuppressed = false
    package var isInterruptedByAd = false

    /// PlaybackStatsListener's `resolveNewPlaybackState` for a foreground playback (background
    /// joining does not exist on a replay: every playback is the one on screen).
    func resolve(from current: PlaybackState) -> PlaybackState {
        if isSeeking { return .seeking }  // a seek wins over an error, as there
        if hasFatalError { return .failed }
        if isInterruptedByAd { return .interruptedByAd }
        switch state {
        case .ended: return .ended
        case .buffering:
            if current == .notStarted || current.isJoining { return .joining }
            if !playWhenReady { return .pausedBuffering }
            return isSuppressed ? .suppressedBuffering : .buffering
        case .ready:
            if !playWhenReady { return .paused }
            return isSuppressed ? .suppressed : .playing
        case .idle:
            // Only a stop: IDLE before anything happened stays NOT_STARTED.
            return current == .notStarted ? current : .stopped
        }
    }
}
