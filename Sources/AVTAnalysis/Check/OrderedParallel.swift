import Foundation

/// `while let item = next() { deliver(transform(item)) }` with the transforms on up to `jobs`
/// threads: items are pulled and results delivered on the calling thread, in input order, each
/// result as soon as it and those before it are done. At most `window` items are pulled but not
/// yet delivered, so memory is bounded by a few items and results however many there are
/// (`check --jobs N` of 10^5 cases, listed as they are checked).
package final class OrderedParallel<Item: Sendable, Result: Sendable>: @unchecked Sendable {
    private let transform: @Sendable (Item) -> Result
    // Guarded by `condition`: the items waiting for a worker (by index), the results waiting for
    // delivery, and whether the workers are to stop.
    private let condition = NSCondition()
    private var waiting: [(index: Int, item: Item)] = []
    private var ready: [Int: Result] = [:]
    private var stopped = false

    private init(transform: @escaping @Sendable (Item) -> Result) {
        self.transform = transform
    }

    /// The items of an array.
    package static func forEach(
        _ items: [Item], jobs: Int, window: Int? = nil, _ transform: @escaping @Sendable (Item) -> Result,
        deliver: (Result) throws -> Void
    ) throws {
        var iterator = items.makeIterator()
        try forEach(
            next: { iterator.next() }, jobs: min(jobs, items.count), window: window, transform, deliver: deliver)
    }

    /// The items `next` gives until it gives nil. An error thrown by `next` or `deliver` stops
    /// the work (items already pulled are dropped) and is thrown.
    package static func forEach(
        next: () throws -> Item?, jobs: Int, window: Int? = nil, _ transform: @escaping @Sendable (Item) -> Result,
        deliver: (Result) throws -> Void
    ) throws {
        if jobs <= 1 {
            while let item = try next() { try deliver(transform(item)) }
            return
        }
        let work = OrderedParallel(transform: transform)
        let group = DispatchGroup()
        for _ in 0..<jobs {
            group.enter()
            Thread {
                work.drain()
                group.leave()
            }.start()
        }
        defer {
            work.stop()
            group.wait()
        }
        let window = max(window ?? 2 * jobs, jobs)
        var (pulled, delivered, exhausted) = (0, 0, false)
        while true {
            while !exhausted, pulled - delivered < window {
                if let item = try next() {
                    work.submit(item, index: pulled)
                    pulled += 1
                } else {
                    exhausted = true
                }
            }
            guard delivered < pulled else { return }
            try deliver(work.take(delivered))
            delivered += 1
        }
    }

    private func submit(_ item: Item, index: Int) {
        condition.lock()
        waiting.append((index, item))
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the result of `index` and removes it.
    private func take(_ index: Int) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = ready.removeValue(forKey: index) { return result }
            condition.wait()
        }
    }

    private func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func drain() {
        while true {
            condition.lock()
            while !stopped, waiting.isEmpty { condition.wait() }
            guard !stopped else {
                condition.unlock()
                return
            }
            // The window keeps `waiting` short: taking from its front is cheap.
            let (index, item) = waiting.removeFirst()
            condition.unlock()
            let result = transform(item)
            condition.lock()
            ready[index] = result
            condition.broadcast()
            condition.unlock()
        }
    }
}
