import AVTTrackers

/// An HTML5 playback as Shaka Player's `getStats()` measures it (the `shaka` definition set).
/// Shaka keeps a state history of its own beside PlaybackStats' states: `updateStateHistory_`
/// (lib/player.js) names the state buffering while its BufferingObserver is STARVING, else paused
/// while the element is paused, else ended while it has ended, else playing, and runs only on the
/// element's `playing`, `pause` and `ended` events and when the buffering state changes. So a
/// `play` alone changes nothing until `playing`, and the wait for data after a seek is buffering
/// (`onSeek_` polls the buffer at once). The element's events stand in for the buffer it polls.
package struct ShakaStateHistory: Sendable {
    /// The states of `shaka.extern.StateChange`, in `updateStateHistory_`'s order of precedence.
    package enum State: Int, Sendable, CaseIterable { case buffering, paused, ended, playing }

    /// nil until the history starts (`StateHistory.update` opens its first entry).
    private(set) var state: State?
    private var stateStart = 0
    /// Time in each state (ms), by raw value: `StateHistory.getTimeSpentIn`.
    private(set) var durations = [Int](repeating: 0, count: State.allCases.count)
    /// The BufferingObserver's STARVING, as the element shows it: from `loadstart` (the load
    /// starts STARVING: `startBufferManagement_`), `waiting` and `seeking` (the new position has
    /// no data yet) until `canplay`, `canplaythrough` or `playing` (data ahead of the playhead),
    /// `seeked` (unless the element waited during the seek) or `ended` (buffered to the end).
    private var starving = false
    private var seeking = false, waitedDuringSeek = false
    /// The element's `paused` and `ended` attributes: paused from the load until `play` or
    /// `playing`, again on `pause` and at the end (HTML pauses an element that reaches its end).
    private var paused = true
    private var ended = false
    /// When `load()` was called (`loadstart`) and `loadeddata` → `loadLatency`, once per load.
    private var loadStart: Int?
    private(set) var loadLatency: Int?
    /// The element's `currentTime` and `duration` (ms), moving as the HTML5 tracker's playhead
    /// does; the highest completion seen (`completionPercent`, the "high water mark").
    private var playhead = ElementPlayhead()
    private var duration: Double?
    private(set) var completionPercent: Int?

    package init() {}

    /// One observation of the element.
    package mutating func observe(_ observation: Observation, at t: Int) {
        switch observation.name {
        case .event: if let name = PlayerValue.string(observation.value) { event(name, at: t) }
        case .currentTime:
            markCompletion(at: t)
            playhead.set(PlayerValue.number(observation.value).map { $0 * 1000 }, at: t)
            markCompletion(at: t)
        case .duration:
            duration = PlayerValue.number(observation.value).map { $0 * 1000 }
            markCompletion(at: t)
        default: break
        }
    }

    private mutating func event(_ name: String, at t: Int) {
        markCompletion(at: t)
        playhead.apply(name, at: t)
        switch name {
        case "loadstart":
            // `load()`: a new Stats, STARVING first; the element pauses while it loads.
            if loadStart == nil { loadStart = t }
            (starving, paused, ended) = (true, true, false)
            update(at: t)
        case "loadeddata":
            if loadLatency == nil, let loadStart { loadLatency = t - loadStart }
        case "canplay", "canplaythrough": setStarving(false, at: t)
        case "play": (paused, ended) = (false, false)
        case "playing":
            (paused, ended, starving) = (false, false, false)
            update(at: t)
        case "pause":
            paused = true
            update(at: t)
        case "waiting":
            if seeking { waitedDuringSeek = true }
            setStarving(true, at: t)
        case "seeking":
            (seeking, waitedDuringSeek) = (true, false)
            setStarving(true, at: t)
        case "seeked":
            seeking = false
            if !waitedDuringSeek { setStarving(false, at: t) }
        case "ended":
            (paused, ended, starving) = (true, true, false)
            update(at: t)
        default: break
        }
    }

    /// `updateBufferState_`: a change of the buffering state updates the history.
    private mutating func setStarving(_ new: Bool, at t: Int) {
        guard new != starving else { return }
        starving = new
        update(at: t)
    }

    /// `updateStateHistory_` and `StateHistory.update`: the open entry runs until `t`; a
    /// different state opens a new one.
    private mutating func update(at t: Int) {
        let new: State = starving ? .buffering : paused ? .paused : ended ? .ended : .playing
        if let state {
            durations[state.rawValue] = durations[state.rawValue].saturatingAdding(max(0, t - stateStart))
        }
        state = new
        stateStart = max(t, stateStart)
    }

    /// `getStats()`: `Math.round(100 × currentTime / duration)`, the highest kept; none without
    /// a known duration.
    private mutating func markCompletion(at t: Int) {
        guard let duration, duration > 0, let position = playhead.position(at: t) else { return }
        let ratio = min(max(position, 0), duration) / duration
        let percent = Int((100 * ratio + 0.5).rounded(.down))
        completionPercent = max(completionPercent ?? percent, percent)
    }

    /// The history as `getStats()` sees it at `t`: the open state runs until then.
    package func closed(at t: Int) -> ShakaStateHistory {
        var copy = self
        copy.markCompletion(at: t)
        if let state {
            copy.durations[state.rawValue] = durations[state.rawValue].saturatingAdding(max(0, t - stateStart))
        }
        copy.stateStart = max(t, stateStart)
        return copy
    }

    /// Time spent in `state` (closed entries; see `closed(at:)`).
    package func time(in state: State) -> Int { durations[state.rawValue] }
}
