/// Repeating timers on the virtual clock, owned by trackers: the instrument's ping timers (slot 0)
/// and trackers' own timers such as AVPlayer's periodic time observer. A timer started at T first
/// fires at T+interval and then every interval until stopped; starting it again replaces it.
///
/// Due timers fire in due-time order; ties by tracker id, then by slot (pings first).
struct TimerQueue {
    struct Key: Hashable, Comparable, Sendable {
        let trackerId: Int
        let slot: Int

        static func < (a: Key, b: Key) -> Bool { (a.trackerId, a.slot) < (b.trackerId, b.slot) }
    }

    struct Timer {
        let key: Key
        var due: Int
        let interval: Int
        let fire: () -> Void
    }

    /// A handful of timers at most (one or two per tracker), kept in key order: a scan of a small
    /// array beats hashing, and the clock asks for due timers before every step.
    private var timers: [Timer] = []
    /// The earliest due time of any timer (Int.max when none), so the common question "is
    /// anything due before this step?" costs one comparison.
    private var earliestDue = Int.max

    init() {}

    mutating func start(_ key: Key, interval: Int, now: Int, fire: @escaping () -> Void) {
        let index = timers.firstIndex { !($0.key < key) } ?? timers.endIndex
        let replaces = index < timers.endIndex && timers[index].key == key
        if interval > 0 {
            let timer = Timer(key: key, due: now + interval, interval: interval, fire: fire)
            if replaces { timers[index] = timer } else { timers.insert(timer, at: index) }
        } else if replaces {
            timers.remove(at: index)
        }
        recomputeEarliestDue()
    }

    mutating func stop(_ key: Key) {
        guard let index = timers.firstIndex(where: { $0.key == key }) else { return }
        timers.remove(at: index)
        recomputeEarliestDue()
    }

    /// Stops every timer of the tracker whose slot is `fromSlot` or above.
    mutating func stopAll(trackerId: Int, fromSlot: Int = 0) {
        timers.removeAll { $0.key.trackerId == trackerId && $0.key.slot >= fromSlot }
        recomputeEarliestDue()
    }

    func isRunning(_ key: Key) -> Bool { timers.contains { $0.key == key } }

    func nextDue(_ key: Key) -> Int? { timers.first { $0.key == key }?.due }

    /// Takes the earliest timer due at or before `t`, moves it to its next period and returns
    /// when it was due and what to run.
    mutating func popDue(atOrBefore t: Int) -> (due: Int, fire: () -> Void)? {
        guard earliestDue <= t else { return nil }
        // Key order makes the first timer with the earliest due time the tie-break winner.
        var pick = 0
        for index in timers.indices.dropFirst() where timers[index].due < timers[pick].due { pick = index }
        let due = timers[pick].due
        timers[pick].due += timers[pick].interval
        let fire = timers[pick].fire
        recomputeEarliestDue()
        return (due, fire)
    }

    private mutating func recomputeEarliestDue() {
        earliestDue = Int.max
        for timer in timers where timer.due < earliestDue { earliestDue = timer.due }
    }
}
