import AVTTrackers

/// What the state history knows of one tracker: how to read it (its vocabulary), the player
/// as last seen, and the playback it is on.
struct TrackerModel: Sendable {
    /// How a tracker's inputs become player signals.
    enum Vocabulary: Sendable {
        /// OpenAVT actions only (the generic tracker, an event log).
        case actions
        case exoplayer
        case avplayer
        case html5
        /// An ads tracker: its ad actions interrupt the content playback.
        case ads
        /// Trackers with no playback (netstats, avmetrics).
        case none
    }

    var vocabulary: Vocabulary
    var signals = PlayerSignals()
    /// Index of the tracker's current playback in the session's list.
    var current: Int?
    /// The hub's playbackId of the current playback (event logs split playbacks by it).
    var hubPlaybackId: String?
    /// A cumulative dropped-frame counter's last value (AVPlayer, HTML5 report totals).
    var droppedFramesSeen = 0
    /// The last running totals of bytes transferred and transfer time (AVPlayer's access log).
    var bytesSeen = 0
    var transferTimeSeen = 0
    /// The rendition as last reported, kept until it changes: the height and bitrate of the
    /// downstream format (ExoPlayer; AVPlayer's indicated bitrate) and the size the video renders
    /// at (ExoPlayer's video size, AVPlayer's presentation size, HTML5's `videoHeight`).
    var formatHeight: Int?
    var formatBitrate: Int?
    var videoSizeHeight: Int?
    /// For PlaybackStats, ExoPlayer's formats are events, not state: the downstream format and
    /// the video size of the open batch only, as `PlaybackStatsListener.onEvents` hands a
    /// tracker the format and size of the batch's events and nothing otherwise.
    var batchFormat: VideoFormat?
    var batchVideoHeight: Int?
    /// Whether the player has media (ExoPlayer: a timeline that is not empty). PlaybackStats
    /// makes a session only for a window of the timeline, so what an ExoPlayer does before it has
    /// media (play, seek, the ENDED of an empty playlist) makes no playback.
    var hasMedia = false
    /// The media's URL as last observed (AVPlayer `source`, HTML5 `currentSrc`): a new one is a
    /// new item.
    var source: String?
    /// The keys of the player's inputs in the batch not yet resolved (see `SessionHistory.batch`);
    /// a player tracker's keys all have a case (its observations were checked against its rules).
    var batchKeys: [ObservationName] = []
    /// What the hub would accept of the tracker's lifecycle actions (the counts follow it).
    var hub = HubAcceptance()

    init(vocabulary: Vocabulary) { self.vocabulary = vocabulary }

    /// Whether observations, rather than actions, tell this tracker's player state.
    var readsObservations: Bool {
        switch vocabulary {
        case .exoplayer, .avplayer, .html5: true
        case .actions, .ads, .none: false
        }
    }

    /// The rendition played: the format's height, else the rendered size's.
    var played: VideoFormat { VideoFormat(height: formatHeight ?? videoSizeHeight, bitrate: formatBitrate) }
}
