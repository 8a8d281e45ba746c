import Foundation

/// `items.forEach { deliver(transform($0)) }` with the transforms on up to `jobs` threads: the
/// results are delivered on the calling thread in input order, each as soon as it and those
/// before it are done. At most `window` items are taken but not yet delivered, so memory is
/// bounded by a few results however many items there are (`check --jobs N` of 10^5 cases).
package final class OrderedParallel<Item: Sendable, Result: Sendable>: @unchecked Sendable {
    private let items: [Item]
    private let window: Int
    private let transform: @Sendable (Item) -> Result
    // Guarded by `condition`: the next index to claim, the results waiting for delivery, how
    // many were delivered, and whether delivery gave up (the workers then stop claiming).
    private let condition = NSCondition()
    private var next = 0
    private var ready: [Int: Result] = [:]
    private var delivered = 0
    private var stopped = false

    private init(_ items: [Item], window: Int, transform: @escaping @Sendable (Item) -> Result) {
        self.items = items
        self.window = window
        self.transform = transform
    }

    package static func forEach(
        _ items: [Item], jobs: Int, window: Int? = nil, _ transform: @escaping @Sendable (Item) -> Result,
        deliver: (Result) throws -> Void
    ) throws {
        if jobs <= 1 || items.count <= 1 {
            for item in items { try deliver(transform(item)) }
            return
        }
        let work = OrderedParallel(items, window: max(window ?? 2 * jobs, jobs), transform: transform)
        let group = DispatchGroup()
        for _ in 0..<min(jobs, items.count) {
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
        for index in items.indices { try deliver(work.take(index)) }
    }

    /// Waits for the result of `index` and removes it.
    private func take(_ index: Int) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = ready.removeValue(forKey: index) {
                delivered = index + 1
                condition.broadcast()
                return result
            }
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
            while !stopped, next < items.count, next >= delivered + window { condition.wait() }
            guard !stopped, next < items.count else {
                condition.unlock()
                return
            }
            let index = next
            next += 1
            condition.unlock()
            let result = transform(items[index])
            condition.lock()
            ready[index] = result
            condition.broadcast()
            condition.unlock()
        }
    }
}
