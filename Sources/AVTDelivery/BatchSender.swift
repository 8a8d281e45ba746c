import Foundation

/// Hands a replay's lines to a delivery in batches on a sender thread. One batch is settled
/// (sent, answered, retried) while the replay fills the next; when the next is full before the
/// first is settled, the replay waits. So at most two batches are in memory however slow the
/// server is, and a fast server costs the replay little.
final class BatchSender {
    /// The batch being filled; a backend appends to it, then calls `shipIfFull`.
    var pending: [String] = []
    private let batchLines: Int
    private let deliver: @Sendable ([String]) -> Void
    private let queue: DispatchQueue
    private let inFlight = DispatchSemaphore(value: 1)

    init(label: String, batchLines: Int, deliver: @escaping @Sendable ([String]) -> Void) {
        self.queue = DispatchQueue(label: label)
        self.batchLines = batchLines
        self.deliver = deliver
    }

    func shipIfFull() {
        if pending.count >= batchLines { ship() }
    }

    /// Hands the pending batch to the sender (waiting while the previous one is in flight).
    func ship() {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pending.reserveCapacity(batch.count)
        inFlight.wait()
        queue.async { [deliver, inFlight] in
            deliver(batch)
            inFlight.signal()
        }
    }

    /// Ships what is pending and waits until every batch is settled (delivered or dead-lettered).
    func finish() {
        ship()
        queue.sync {}
    }
}
