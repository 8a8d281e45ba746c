/// An HTML5 element's `currentTime` (ms) on the virtual clock, moving as the HTML5 tracker's
/// playhead does: at 1× while the element is neither paused, waiting for data nor ended; a
/// `currentTime` observation sets it.
struct ElementPlayhead: Sendable {
    private var base: Double?
    private var baseTime = 0
    private var paused = true
    /// Waiting for data: nothing loaded yet, `waiting`, `seeking`, `error` (until `playing` or `seeked`).
    private var stalled = true
    private var ended = false

    private var moving: Bool { !paused && !stalled && !ended }

    func position(at t: Int) -> Double? {
        guard let base else { return nil }
        return moving ? base + Double(t - baseTime) : base
    }

    mutating func set(_ position: Double?, at t: Int) {
        base = position
        baseTime = t
    }

    /// The element's event `name` at `t`: the playhead starts or stops from there.
    mutating func apply(_ name: String, at t: Int) {
        let position = position(at: t)
        switch name {
        case "play": (paused, ended) = (false, false)
        case "playing": (paused, stalled, ended) = (false, false, false)
        case "pause": paused = true
        case "waiting", "seeking", "error": stalled = true
        case "seeked": stalled = false
        case "ended": ended = true
        default: return
        }
        set(position, at: t)
    }
}
