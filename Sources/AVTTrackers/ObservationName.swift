/// The observation keys of the player trackers (`avplayer`, `exoplayer`, `html5`), decoded once
/// when an observation is made, so that the tracker and the KPIs' state history switch over an
/// enum on every observation instead of comparing its key with each name in turn.
///
/// Each case's name is the key it stands for; a key no case names (another kind's, or a custom
/// one) is `other`, and then only `Observation.key` tells it.
///
/// Public, not package-wide: the optimizer inlines a public enum's `==` into the other modules
/// (a package one's went through its Equatable witness on every comparison).
public enum ObservationName: UInt8, CaseIterable, Sendable {
    /// A key no case names.
    case other
    /// `status` (AVPlayer).
    case status
    /// `itemStatus` (AVPlayer).
    case itemStatus
    /// `timeControlStatus` (AVPlayer).
    case timeControlStatus
    /// `rate` (AVPlayer).
    case rate
    /// `playbackBufferEmpty` (AVPlayer).
    case playbackBufferEmpty
    /// `playbackBufferFull` (AVPlayer).
    case playbackBufferFull
    /// `playbackLikelyToKeepUp` (AVPlayer).
    case playbackLikelyToKeepUp
    /// `reasonForWaitingToPlay` (AVPlayer).
    case reasonForWaitingToPlay
    /// `notification` (AVPlayer).
    case notification
    /// `error` (AVPlayer).
    case error
    /// `currentTime` (AVPlayer).
    case currentTime
    /// `duration` (AVPlayer).
    case duration
    /// `presentationSize` (AVPlayer).
    case presentationSize
    /// `volume` (AVPlayer).
    case volume
    /// `isMuted` (AVPlayer).
    case isMuted
    /// `fps` (AVPlayer).
    case fps
    /// `source` (AVPlayer).
    case source
    /// `observedBitrate` (AVPlayer).
    case observedBitrate
    /// `language` (AVPlayer).
    case language
    /// `subtitles` (AVPlayer).
    case subtitles
    /// `indicatedBitrate` (AVPlayer).
    case indicatedBitrate
    /// `droppedVideoFrames` (AVPlayer).
    case droppedVideoFrames
    /// `errorLogEvent` (AVPlayer).
    case errorLogEvent
    /// `bytesTransferred` (AVPlayer).
    case bytesTransferred
    /// `transferDuration` (AVPlayer).
    case transferDuration
    /// `playbackState` (ExoPlayer).
    case playbackState
    /// `playWhenReady` (ExoPlayer).
    case playWhenReady
    /// `seekStarted` (ExoPlayer).
    case seekStarted
    /// `playerError` (ExoPlayer).
    case playerError
    /// `contentPosition` (ExoPlayer).
    case contentPosition
    /// `videoSize` (ExoPlayer).
    case videoSize
    /// `frameRate` (ExoPlayer).
    case frameRate
    /// `bandwidthEstimate` (ExoPlayer).
    case bandwidthEstimate
    /// `playWhenReadyChangeReason` (ExoPlayer).
    case playWhenReadyChangeReason
    /// `playbackSuppressionReason` (ExoPlayer).
    case playbackSuppressionReason
    /// `mediaItemTransition` (ExoPlayer).
    case mediaItemTransition
    /// `downstreamFormat` (ExoPlayer).
    case downstreamFormat
    /// `droppedFrames` (ExoPlayer).
    case droppedFrames
    /// `loadError` (ExoPlayer).
    case loadError
    /// `stop` (ExoPlayer).
    case stop
    /// `event` (HTML5).
    case event
    /// `videoWidth` (HTML5).
    case videoWidth
    /// `videoHeight` (HTML5).
    case videoHeight
    /// `muted` (HTML5).
    case muted
    /// `currentSrc` (HTML5).
    case currentSrc
    /// `lang` (HTML5).
    case lang
    /// `midSession`, a key of every player tracker.
    case midSession
    /// `release`, a key of every player tracker.
    case release

    /// The case named `key`, or `other`.
    ///
    /// Every observation of a player log is decoded, so this is a look-up without hashing: the
    /// key's length and last byte pick a slot of `slots`, which holds at most two names, and
    /// the key is compared with those only.
    public init(_ key: String) {
        self = .other
        let utf8 = key.utf8
        guard let last = utf8.last, let slot = Self.slot(count: utf8.count, last: last) else { return }
        for name in Self.slots[slot] where Self.keys[Int(name.rawValue)] == key {
            self = name
            return
        }
    }

    /// The key this case stands for (`other`'s is empty).
    public var key: String { Self.keys[Int(rawValue)] }

    /// Each case's key, by raw value (`other`'s is empty: no key decodes to it by name).
    private static let keys: [String] = allCases.map { $0 == .other ? "" : "\($0)" }

    private static let longest = 32

    private static func slot(count: Int, last: UInt8) -> Int? {
        count < longest ? count << 7 | Int(last & 0x7f) : nil
    }

    /// The names by the slot of their key's length and last byte.
    private static let slots: [[ObservationName]] = {
        var slots = [[ObservationName]](repeating: [], count: longest << 7)
        for name in allCases.dropFirst() {
            let key = keys[Int(name.rawValue)].utf8
            if let last = key.last, let slot = slot(count: key.count, last: last) { slots[slot].append(name) }
        }
        return slots
    }()
}
