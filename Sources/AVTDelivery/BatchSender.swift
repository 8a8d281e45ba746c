import Foundation

/// Hands a replay's lines (or samples) to a delivery in batches on a sender thread. One batch is
/// settled (sent, answered, retried) while the replay fills the next; when the next is full
/// before the first is settled, the replay waits. So at most two batches are in memory however
/// slow the server is, and a fast server costs the replay little. The two batches take turns:
/// a settled one comes back emptied, its storage kept, to be filled again.
final class BatchSender<Batch: SenderBatch> {
    /// The batch being filled; a backend appends to it, then calls `shipIfFull`.
    var pending = Batch()
    private let batchLines: Int
    private let deliver: @Sendable (Batch) -> Void
    private let queue: DispatchQueue
    private let inFlight = DispatchSemaphore(value: 1)
    private let slots = Slots()

    /// The batch in flight and the one the sender has settled, for the replay to fill next. The
    /// replay's thread writes `sending` before it queues the send; the sender's queue writes
    /// `settled` before it signals `inFlight`, which the replay waits for before reading it: the
    /// queue and the semaphore order every access. Held here rather than captured by the send,
    /// so that each batch has a single owner and emptying it keeps its storage.
    private final class Slots: @unchecked Sendable {
        var sending: Batch?
        var settled: Batch?
    }

    init(label: String, batchLines: Int, deliver: @escaping @Sendable (Batch) -> Void) {
        self.queue = DispatchQueue(label: label)
        self.batchLines = batchLines
        self.deliver = deliver
    }

    func shipIfFull() {
        if pending.count >= batchLines { ship() }
    }

    /// Hands the pending batch to the sender (waiting while the previous one is in flight).
    func ship() {
        guard pending.count > 0 else { return }
        inFlight.wait()
        var batch = slots.settled.take() ?? Batch()
        swap(&batch, &pending)
        slots.sending = consume batch
        queue.async { [deliver, inFlight, slots] in
            var batch = slots.sending.take()!
            deliver(batch)
            batch.removeAll(keepingCapacity: true)
            slots.settled = consume batch
            inFlight.signal()
        }
    }

    /// Ships what is pending and waits until every batch is settled (delivered or dead-lettered).
    func finish() {
        ship()
        queue.sync {}
    }
}

/// What `BatchSender` carries: lines, or samples with their series.
protocol SenderBatch: Sendable {
    init()
    var count: Int { get }
    mutating func removeAll(keepingCapacity: Bool)
}

extension Array: SenderBatch where Element == String {}
