import AVTJSON

/// A playback's state history as JSON members, as Shaka's `getStats()` gives `stateHistory` and
/// `switchHistory`: `"history": [{"state", "t", "durationMs"}]` (every state the playback went
/// through, names as docs/kpi.md gives them, times in virtual ms) and `"switchHistory": [{"t",
/// "height", "bitrate"}]` (each change of the rendition played; null where unknown), with
/// `"firstFrameAt"` (when the first frame was shown, null if never): before it, PLAYING and
/// stalls are startup to every set but exoplayer.
package enum StateHistoryJSON {
    /// Writes `,"history":[…],"switchHistory":[…]` into an open object.
    package static func write(_ history: PlaybackHistory, end: Int, into w: inout JSONWriter) {
        w.raw(",\"firstFrameAt\":")
        if let frame = history.firstFrame { w.int(frame) } else { w.null() }
        w.raw(",\"history\":[")
        for (n, entry) in history.entries(end: end).enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{\"state\":")
            w.string(entry.state.name)
            w.raw(",\"t\":")
            w.int(entry.t)
            w.raw(",\"durationMs\":")
            w.int(entry.durationMs)
            w.raw("}")
        }
        w.raw("],\"switchHistory\":[")
        for (n, format) in (history.formats ?? []).enumerated() {
            if n > 0 { w.raw(",") }
            w.raw("{\"t\":")
            w.int(format.t)
            w.raw(",\"height\":")
            if let height = format.height { w.int(height) } else { w.null() }
            w.raw(",\"bitrate\":")
            if let bitrate = format.bitrate { w.int(bitrate) } else { w.null() }
            w.raw("}")
        }
        w.raw("]")
    }
}
