/// Repeating timers on the virtual clock, owned by trackers: the instrument's ping timers (slot 0)
/// and trackers' own timers such as AVPlayer's periodic time observer. A timer started at T first
/// fires at T+interval and then every interval until stopped; starting it again replaces it.
///
/// Due timers fire in due-time order; ties by tracker id, then by slot (pings first).
public struct TimerQueue {
    public struct Key: Hashable, Comparable, Sendable {
        public let trackerId: Int
        public let slot: Int

        public init(trackerId: Int, slot: Int) {
            self.trackerId = trackerId
            self.slot = slot
        }

        public static func < (a: Key, b: Key) -> Bool { (a.trackerId, a.slot) < (b.trackerId, b.slot) }
    }

    struct Timer {
        var due: Int
        let interval: Int
        let fire: () -> Void
    }

    /// A handful of timers at most (one or two per tracker): a scan beats a heap here.
    private var timers: [Key: Timer] = [:]

    public init() {}

    public mutating func start(_ key: Key, interval: Int, now: Int, fire: @escaping () -> Void) {
        guard interval > 0 else {
            timers[key] = nil
            return
        }
        timers[key] = Timer(due: now + interval, interval: interval, fire: fire)
    }

    public mutating func stop(_ key: Key) {
        timers[key] = nil
    }

    public func isRunning(_ key: Key) -> Bool { timers[key] != nil }

    public func nextDue(_ key: Key) -> Int? { timers[key]?.due }

    /// Takes the earliest timer due at or before `t`, moves it to its next period and returns
    /// when it was due and what to run.
    public mutating func popDue(atOrBefore t: Int) -> (due: Int, fire: () -> Void)? {
        var best: (key: Key, due: Int)?
        for (key, timer) in timers where timer.due <= t {
            if let b = best, b.due < timer.due || (b.due == timer.due && b.key < key) { continue }
            best = (key, timer.due)
        }
        guard let pick = best, let timer = timers[pick.key] else { return nil }
        timers[pick.key] = Timer(due: timer.due + timer.interval, interval: timer.interval, fire: timer.fire)
        return (pick.due, timer.fire)
    }
}
