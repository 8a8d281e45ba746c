/// A span on a tracker's lane, drawn as a bar: from the event that opens it to the one that
/// closes it (or to the end of the session when nothing closes it).
package struct TimelineBlock: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        /// Start → End/Stop/Next (OpenAVT's playback block).
        case playback
        case pause
        /// Buffering that began before Start in its lane: the initial load.
        case initialBuffer = "initial-buffer"
        /// Buffering that began in playback, outside pauses and seeks: a stall.
        case rebuffer
        /// Buffering that began inside a pause or a seek (not a stall, as MetricalcCore counts).
        case seekBuffer = "seek-buffer"
        case seek
        case adBreak = "ad-break"
        case ad

        var order: Int { Self.allCases.firstIndex(of: self)! }

        /// What a legend and a screen reader call it.
        package var title: String {
            switch self {
            case .playback: return "playback"
            case .pause: return "pause"
            case .initialBuffer: return "initial load (buffer before start)"
            case .rebuffer: return "rebuffer (stall)"
            case .seekBuffer: return "buffer in a seek or pause"
            case .seek: return "seek"
            case .adBreak: return "ad break"
            case .ad: return "ad"
            }
        }
    }

    package var kind: Kind
    package var lane: Int
    package var start: Int
    package var end: Int
    /// No closing event: the block runs to the end of the session (or to its lane's End/Stop).
    package var unfinished: Bool

    package var duration: Int { end - start }
}
