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
                open[.playback] == nil
                ? .initialBuffer : (open[.pause] != nil || open[.seek] != nil ? .seekBuffer : .rebuffer)
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
