/// The `shaka` set's sums: Shaka Player's `getStats()` of each HTML5 playback (`ShakaStateHistory`),
/// added together for totals and pooled aggregates. Other trackers have no Shaka view.
struct ShakaFigures: Sendable {
    var playbacks = 0
    var play = 0, pause = 0, buffering = 0
    var loadLatency = 0, loadLatencyCount = 0
    var completion = 0, completionCount = 0

    init() {}

    /// The figures of one closed history.
    init(_ h: ShakaStateHistory) {
        playbacks = 1
        play = h.time(in: .playing)
        pause = h.time(in: .paused)
        buffering = h.time(in: .buffering)
        if let latency = h.loadLatency { (loadLatency, loadLatencyCount) = (latency, 1) }
        if let percent = h.completionPercent { (completion, completionCount) = (percent, 1) }
    }

    mutating func merge(_ o: ShakaFigures) {
        func add(_ a: inout Int, _ b: Int) { a = a.saturatingAdding(b) }
        add(&playbacks, o.playbacks)
        add(&play, o.play)
        add(&pause, o.pause)
        add(&buffering, o.buffering)
        add(&loadLatency, o.loadLatency)
        add(&loadLatencyCount, o.loadLatencyCount)
        add(&completion, o.completion)
        add(&completionCount, o.completionCount)
    }

    /// The `shaka` KPIs in `KPIName.names(.shaka)` order: `stats.js` `getBlob`'s `playTime`, `pauseTime` and
    /// `bufferingTime` (`getTimeSpentIn`), in ms; `loadLatency` (`load()` → `loadeddata`) and
    /// `completionPercent` for a playback, their mean over the playbacks that have one for totals.
    /// Absent without an HTML5 playback.
    var values: [KPI] {
        guard playbacks > 0 else { return [] }
        func mean(_ sum: Int, _ count: Int) -> KPIValue? {
            count > 0 ? .int(Int((Double(sum) / Double(count)).rounded())) : nil
        }
        var out = [KPI("playTime", .int(play)), KPI("pauseTime", .int(pause))]
        out.append(KPI("bufferingTime", .int(buffering)))
        if let latency = mean(loadLatency, loadLatencyCount) { out.append(KPI("loadLatency", latency)) }
        if let percent = mean(completion, completionCount) { out.append(KPI("completionPercent", percent)) }
        return out
    }
}
