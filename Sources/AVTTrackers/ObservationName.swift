/// The observation keys of the player trackers (`avplayer`, `exoplayer`, `html5`), decoded once
/// when an observation is made, so that the tracker and the KPIs' state history switch over an
/// enum on every observation instead of comparing its key with each name in turn.
///
/// Each case's name is the key it stands for; a key no case names (another kind's, or a custom
/// one) is `other`, and then only `Observation.key` tells it.
///
/// Package-wide, not public: it names the built-in kinds' keys only.
package enum ObservationName: UInt8, CaseIterable, Sendable {
    /// A key no case names.
    case other
    // AVPlayer.
    case status, itemStatus, timeControlStatus, rate, playbackBufferEmpty, playbackBufferFull
    case playbackLikelyToKeepUp, reasonForWaitingToPlay, notification, error, currentTime, duration
    case presentationSize, volume, isMuted, fps, source, observedBitrate, language, subtitles
    case indicatedBitrate, droppedVideoFrames, errorLogEvent, bytesTransferred, transferDuration
    // ExoPlayer.
    case playbackState, playWhenReady, seekStarted, playerError, contentPosition, videoSize, frameRate
    case bandwidthEstimate, playWhenReadyChangeReason, playbackSuppressionReason, mediaItemTransition
    case downstreamFormat, droppedFrames, loadError, stop
    // HTML5.
    case event, videoWidth, videoHeight, muted, currentSrc, lang
    // Every player tracker.
    case midSession, release

    /// The case named `key`, or `other`.
    package init(_ key: String) { self = Self.byKey[key] ?? .other }

    /// One hash finds a key's case.
    private static let byKey = Dictionary(uniqueKeysWithValues: allCases.dropFirst().map { ("\($0)", $0) })
}
