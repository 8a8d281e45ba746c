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
        /// Which start made it: a timer started again under the same key is another timer.
        let serial: Int
        /// Its owner said its ticks do nothing until it wakes it (`idle`): the queue skips them,
        /// and `due` is the first tick after it went idle, the phase its later ticks keep.
        var isIdle = false
    }

    /// The ticks one timer fires in a row: at `due`, `due + interval`, … for as long as each
    /// comes before `until`, where another timer would be first. The queue is left as it is
    /// while they fire (see `Instrument.advanceClock`); `resume` then moves the timer past them.
    /// Firing a stretch of a 500 ms observer's ticks costs one look-up of the queue instead of one
    /// per tick.
    struct Run {
        let key: Key
        let serial: Int
        let due: Int
        let interval: Int
        /// The first due time at which another timer fires before this one (Int.max: none).
        let until: Int
        let fire: () -> Void
    }

    /// A handful of timers at most (one or two per tracker), kept in key order: a scan of a small
    /// array beats hashing, and the clock asks for due timers before every step.
    private var timers: [Timer] = []
    /// The earliest due time of any timer (Int.max when none), so the common question "is
    /// anything due before this step?" costs one comparison.
    private var earliestDue = Int.max
    private var serials = 0
    /// Counts the starts and stops: a run goes on only while nothing started or stopped a timer,
    /// since either may change which timer is first.
    private(set) var changes = 0

    init() {}

    mutating func start(_ key: Key, interval: Int, now: Int, fire: @escaping () -> Void) {
        changes &+= 1
        serials &+= 1
        let index = timers.firstIndex { !($0.key < key) } ?? timers.endIndex
        let replaces = index < timers.endIndex && timers[index].key == key
        if interval > 0 {
            let timer = Timer(key: key, due: now + interval, interval: interval, fire: fire, serial: serials)
            if replaces { timers[index] = timer } else { timers.insert(timer, at: index) }
        } else if replaces {
            timers.remove(at: index)
        }
        recomputeEarliestDue()
    }

    mutating func stop(_ key: Key) {
        changes &+= 1
        guard let index = timers.firstIndex(where: { $0.key == key }) else { return }
        timers.remove(at: index)
        recomputeEarliestDue()
    }

    /// Stops every timer of the tracker whose slot is `fromSlot` or above.
    mutating func stopAll(trackerId: Int, fromSlot: Int = 0) {
        changes &+= 1
        timers.removeAll { $0.key.trackerId == trackerId && $0.key.slot >= fromSlot }
        recomputeEarliestDue()
    }

    func isRunning(_ key: Key) -> Bool { timers.contains { $0.key == key } }

    func nextDue(_ key: Key) -> Int? { timers.first { $0.key == key }?.due }

    func isIdle(_ key: Key) -> Bool { timers.first { $0.key == key }?.isIdle ?? false }

    /// The timer's ticks do nothing from now on, until `wake`: they are skipped, not fired, and
    /// its schedule keeps its phase. A timer of a tracker that is waiting for something to change
    /// (a playing player's periodic observer) costs nothing while it waits.
    mutating func idle(_ key: Key) {
        guard let index = timers.firstIndex(where: { $0.key == key }), !timers[index].isIdle else { return }
        changes &+= 1
        timers[index].isIdle = true
        recomputeEarliestDue()
    }

    /// Ends the timer's idleness at `now`: its next tick is the first of its schedule that has not
    /// passed. Ticks before `now` have passed; so has one at `now` unless the clock is firing the
    /// timers due at `now` (`firing`, the key of the tick firing) and this one comes after it in
    /// the firing order (a larger key). Outside timers (`firing` nil), every tick at `now` has fired.
    mutating func wake(_ key: Key, now: Int, firing: Key?) {
        guard let index = timers.firstIndex(where: { $0.key == key }), timers[index].isIdle else { return }
        changes &+= 1
        let timer = timers[index]
        var due = timer.due
        if due < now { due += (now - due + timer.interval - 1) / timer.interval * timer.interval }
        if due == now, !(firing.map { $0 < key } ?? false) { due += timer.interval }
        timers[index].due = due
        timers[index].isIdle = false
        recomputeEarliestDue()
    }

    /// The run of the earliest timer due at or before `t`, or nil when none is due. The queue
    /// is unchanged: the caller fires the run's ticks, then `resume`s it.
    func run(atOrBefore t: Int) -> Run? {
        guard earliestDue <= t else { return nil }
        // Key order makes the first timer with the earliest due time the tie-break winner. Idle
        // timers fire nothing: `earliestDue` leaves them out, so at least one timer is awake.
        var pick = timers.firstIndex { !$0.isIdle } ?? 0
        for index in timers.indices where !timers[index].isIdle && timers[index].due < timers[pick].due {
            pick = index
        }
        let timer = timers[pick]
        // A timer of a smaller key fires first at its due time (the tie-break); one of a larger
        // key, only after it.
        var until = Int.max
        for index in timers.indices where index != pick && !timers[index].isIdle {
            let first = timers[index].key < timer.key ? timers[index].due : timers[index].due + 1
            if first < until { until = first }
        }
        return Run(
            key: timer.key, serial: timer.serial, due: timer.due, interval: timer.interval, until: until,
            fire: timer.fire)
    }

    /// Moves the run's timer to `nextDue`, the first of its ticks not fired, unless a tick
    /// stopped it or started it again.
    mutating func resume(_ run: Run, at nextDue: Int) {
        if let index = timers.firstIndex(where: { $0.key == run.key }), timers[index].serial == run.serial {
            timers[index].due = nextDue
        }
        recomputeEarliestDue()
    }

    private mutating func recomputeEarliestDue() {
        earliestDue = Int.max
        for timer in timers where !timer.isIdle && timer.due < earliestDue { earliestDue = timer.due }
    }
}
