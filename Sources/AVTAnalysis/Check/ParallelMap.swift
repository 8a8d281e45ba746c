import Foundation

/// `items.map(transform)` on up to `jobs` threads, results in input order: `check --jobs N`
/// replays independent timelines side by side, and its report must not depend on which finished
/// first.
package final class ParallelMap<Item: Sendable, Result: Sendable>: @unchecked Sendable {
    private let items: [Item]
    private let transform: @Sendable (Item) -> Result
    // Guarded by `lock`: the next index to claim and the results so far.
    private let lock = NSLock()
    private var next = 0
    private var results: [Result?]

    private init(_ items: [Item], transform: @escaping @Sendable (Item) -> Result) {
        self.items = items
        self.transform = transform
        self.results = Array(repeating: nil, count: items.count)
    }

    package static func map(_ items: [Item], jobs: Int, _ transform: @escaping @Sendable (Item) -> Result) -> [Result] {
        if jobs <= 1 || items.count <= 1 { return items.map(transform) }
        let work = ParallelMap(items, transform: transform)
        let group = DispatchGroup()
        for _ in 0..<min(jobs, items.count) {
            group.enter()
            Thread {
                work.drain()
                group.leave()
            }.start()
        }
        group.wait()
        return work.results.compactMap { $0 }
    }

    private func drain() {
        while true {
            lock.lock()
            let index = next
            next += 1
            lock.unlock()
            guard index < items.count else { return }
            let result = transform(items[index])
            lock.lock()
            results[index] = result
            lock.unlock()
        }
    }
}
