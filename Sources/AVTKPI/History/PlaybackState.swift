/// The states of a playback's history, as ExoPlayer's PlaybackStats names them (its
/// `PLAYBACK_STATE_*` constants, whose numbers are the raw values; 8 is unused there too).
package enum PlaybackState: Int, Sendable, CaseIterable {
    case notStarted = 0
    case joiningBackground = 1
    case joining = 2
    case playing = 3
    case paused = 4
    case seeking = 5
    case buffering = 6
    case pausedBuffering = 7
    case suppressed = 9
    case suppressedBuffering = 10
    case ended = 11
    case stopped = 12
    case failed = 13
    case interruptedByAd = 14
    case abandoned = 15

    /// PlaybackStats' `PLAYBACK_STATE_COUNT`: the size of a duration array indexed by raw value.
    static let count = 16

    /// The name the report and docs use.
    package var name: String {
        switch self {
        case .notStarted: "not started"
        case .joiningBackground: "joining in background"
        case .joining: "joining"
        case .playing: "playing"
        case .paused: "paused"
        case .seeking: "seeking"
        case .buffering: "buffering"
        case .pausedBuffering: "paused while buffering"
        case .suppressed: "suppressed"
        case .suppressedBuffering: "suppressed while buffering"
        case .ended: "ended"
        case .stopped: "stopped"
        case .failed: "failed"
        case .interruptedByAd: "in an ad"
        case .abandoned: "abandoned"
        }
    }

    /// The state of a name (`name`), as the JSON history gives it back.
    package init?(name: String) {
        guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = state
    }

    /// A CSS class for the report's lanes.
    package var cssClass: String {
        switch self {
        case .notStarted, .joiningBackground: "st-idle"
        case .joining: "st-join"
        case .playing: "st-play"
        case .paused: "st-pause"
        case .seeking: "st-seek"
        case .buffering, .suppressedBuffering: "st-buffer"
        case .pausedBuffering: "st-pausebuffer"
        case .suppressed: "st-suppressed"
        case .ended, .stopped, .abandoned: "st-end"
        case .failed: "st-fail"
        case .interruptedByAd: "st-ad"
        }
    }

    /// PlaybackStatsListener's `isReadyState`.
    var isReady: Bool { self == .playing || self == .paused || self == .suppressed }
    /// `isPausedState`.
    var isPaused: Bool { self == .paused || self == .pausedBuffering }
    /// `isRebufferingState`.
    package var isRebuffering: Bool { self == .buffering || self == .pausedBuffering || self == .suppressedBuffering }
    /// A state a join may be in (`isInvalidJoinTransition`'s "old state" test).
    var isJoining: Bool { self == .joiningBackground || self == .joining || self == .interruptedByAd }
    /// A state after which the playback is over (a new request starts another).
    package var isTerminal: Bool { self == .ended || self == .stopped || self == .failed || self == .abandoned }

    /// `isInvalidJoinTransition`: leaving a join for anything but a join, a ready state or ENDED.
    static func isInvalidJoin(from old: PlaybackState, to new: PlaybackState) -> Bool {
        guard old.isJoining else { return false }
        return !(new.isJoining || new.isReady || new == .ended)
    }
}
