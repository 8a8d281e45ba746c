/// The replay's notion of "now": integer milliseconds since t=0 that only move when the replay
/// driver says so. Every time-since, deltaPlayTime and accumulator is an exact difference of
/// two readings, which is what makes replays deterministic.
public final class VirtualClock {
    /// A getter over private storage, not a `public private(set) var`: other modules read a
    /// public stored property directly, with a run-time exclusivity check around each read, and
    /// trackers read the clock on every event. Private storage the compiler sees all of needs none.
    public var now: Int { reading }
    private var reading: Int

    /// A clock reading `now` ms.
    public init(now: Int = 0) { self.reading = now }

    /// Moves the clock forward; time never runs backwards.
    public func advance(to t: Int) {
        precondition(t >= reading, "virtual time cannot run backwards (\(reading) → \(t))")
        reading = t
    }
}
