import Synchronization

/// Steps replayed so far, across sessions and worker threads: what a progress line shows.
/// Replays add in batches (`Batch`), so workers do not contend on it for every step.
package final class StepCounter: Sendable {
    private let count = Atomic<Int>(0)

    package init() {}

    package var value: Int { count.load(ordering: .relaxed) }

    package func add(_ steps: Int) { count.add(steps, ordering: .relaxed) }

    /// One replay's share: `reached` is given its running step count, `finish` the last one.
    package struct Batch {
        private let counter: StepCounter?
        private var reported = 0

        package init(_ counter: StepCounter?) { self.counter = counter }

        package mutating func reached(_ steps: Int) {
            guard let counter, steps - reported >= 4096 else { return }
            counter.add(steps - reported)
            reported = steps
        }

        package mutating func finish(_ steps: Int) {
            guard let counter, steps > reported else { return }
            counter.add(steps - reported)
            reported = steps
        }
    }
}
