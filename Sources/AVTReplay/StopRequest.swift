import Synchronization

/// Set from another thread (a Ctrl-C handler) to ask a running replay to stop: the step loop
/// plays no further step, the pacer stops sleeping and deliveries stop retrying, so every
/// backend flushes what it holds and what the servers did not take goes to the dead-letter file.
public final class StopRequest: Sendable {
    private let flag = Atomic<Int32>(0)

    /// A request not yet made.
    public init() {}

    /// Asks to stop; `signal` is the reason (the signal number), kept for the exit code.
    package func request(signal: Int32) {
        _ = flag.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
    }

    /// Whether a stop was asked for.
    public var isRequested: Bool { flag.load(ordering: .relaxed) != 0 }

    /// The signal that asked to stop, or nil.
    public var signal: Int32? {
        let value = flag.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
