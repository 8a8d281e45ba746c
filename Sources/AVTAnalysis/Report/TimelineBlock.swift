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

/// Derives blocks from one lane's events in delivery order. A Begin while the same kind is open
/// is ignored (the first one wins, as the hub's own block flags do); End/Stop/Next closes the
/// playback and any pause, seek or buffer still open, marking those unfinished.
package struct BlockBuilder {
    let lane: Int
    private var open: [TimelineBlock.Kind: Int] = [:]
    private var bufferKind: TimelineBlock.Kind = .rebuffer
    private(set) var blocks: [TimelineBlock] = []

    init(lane: Int) { self.lane = lane }

    mutating func add(action: String, t: Int) {
        switch action {
        case "Start": begin(.playback, t)
        case "End", "Stop", "Next":
            for kind in [TimelineBlock.Kind.pause, .seek] { finish(kind, t, unfinished: true) }
            finish(bufferKind, t, unfinished: true)
            finish(.playback, t)
        case "PauseBegin": begin(.pause, t)
        case "PauseFinish": finish(.pause, t)
        case "SeekBegin": begin(.seek, t)
        case "SeekFinish": finish(.seek, t)
        case "BufferBegin":
            guard open[bufferKind] == nil else { return }
            bufferKind =
                open[.playback] == nil ? .initialBuffer : (open[.pause] != nil || open[.seek] != nil ? .seekBuffer : .rebuffer)
            begin(bufferKind, t)
        case "BufferFinish": finish(bufferKind, t)
        case "AdBreakBegin": begin(.adBreak, t)
        case "AdBreakFinish":
            finish(.ad, t, unfinished: true)
            finish(.adBreak, t)
        case "AdBegin": begin(.ad, t)
        case "AdFinish", "AdSkip": finish(.ad, t)
        default: break
        }
    }

    private mutating func begin(_ kind: TimelineBlock.Kind, _ t: Int) {
        if open[kind] == nil { open[kind] = t }
    }

    private mutating func finish(_ kind: TimelineBlock.Kind, _ t: Int, unfinished: Bool = false) {
        guard let start = open.removeValue(forKey: kind) else { return }
        blocks.append(TimelineBlock(kind: kind, lane: lane, start: start, end: t, unfinished: unfinished))
    }

    /// Closes what is still open at the session's end, in a fixed kind order.
    mutating func close(at end: Int) {
        for kind in TimelineBlock.Kind.allCases where open[kind] != nil {
            finish(kind, max(end, open[kind]!), unfinished: true)
        }
    }
}
