/// Repeating per-tracker timers on the virtual clock (upstream's ping timers). A timer started at
/// T first fires at T+interval and then every interval until stopped; starting it again for the
/// same tracker replaces it.
public struct PingScheduler: Sendable {
    struct Timer: Sendable {
        var due: Int
        let interval: Int
    }

    /// Indexed by tracker id; there are few trackers, so a scan beats a heap here.
    private var timers: [Int: Timer] = [:]

    public init() {}

    public mutating func start(trackerId: Int, interval: Int, now: Int) {
        guard interval > 0 else {
            timers[trackerId] = nil
            return
        }
        timers[trackerId] = Timer(due: now + interval, interval: interval)
    }

    public mutating func stop(trackerId: Int) {
        timers[trackerId] = nil
    }

    public func isRunning(trackerId: Int) -> Bool { timers[trackerId] != nil }

    /// The next due time of that tracker's timer, if running.
    public func nextDue(trackerId: Int) -> Int? { timers[trackerId]?.due }

    /// Takes the earliest timer due at or before `t` (ties: lowest tracker id), moves it to its
    /// next period and returns the tracker id and the time it was due.
    public mutating func popDue(atOrBefore t: Int) -> (trackerId: Int, due: Int)? {
        var best: (id: Int, due: Int)?
        for (id, timer) in timers where timer.due <= t {
            if let b = best, (b.due, b.id) < (timer.due, id) { continue }
            best = (id, timer.due)
        }
        guard let fire = best, let timer = timers[fire.id] else { return nil }
        timers[fire.id] = Timer(due: timer.due + timer.interval, interval: timer.interval)
        return (fire.id, fire.due)
    }
}
