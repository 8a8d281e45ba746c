/// The replay's notion of "now": integer milliseconds since t=0 that only move when the replay
/// driver says so. Every time-since, deltaPlayTime and accumulator is an exact difference of
/// two readings, which is what makes replays deterministic.
// State is `@exclusivity(unchecked)` for the reason given on `Instrument`.
public final class VirtualClock {
    @exclusivity(unchecked) public private(set) var now: Int

    public init(now: Int = 0) { self.now = now }

    /// Moves the clock forward; time never runs backwards.
    public func advance(to t: Int) {
        precondition(t >= now, "virtual time cannot run backwards (\(now) → \(t))")
        now = t
    }
}
