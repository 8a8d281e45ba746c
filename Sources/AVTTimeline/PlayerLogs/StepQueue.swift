/// The steps a player log's reader has derived and not yet handed out, in order. Each step is
/// numbered as it arrives, and none goes back in time: one derived late (an error flushed at the
/// next line) is placed at the time already reached, even when the steps before it are gone.
struct StepQueue {
    private var steps: [Step] = []
    private var head = 0
    private var lastT = 0

    /// The index the next step gets: how many were pushed.
    private(set) var nextIndex = 0

    var isEmpty: Bool { head == steps.count }

    mutating func push(_ step: Step) {
        var step = step
        step.origin.index = nextIndex
        step.t = max(step.t, lastT)
        lastT = step.t
        nextIndex += 1
        steps.append(step)
    }

    /// The earliest step not handed out; nil when none is waiting.
    mutating func pop() -> Step? {
        guard head < steps.count else { return nil }
        let step = steps[head]
        head += 1
        if head == steps.count {
            // Drained: the storage is reused, so it never grows past one read's steps.
            steps.removeAll(keepingCapacity: true)
            head = 0
        }
        return step
    }
}
