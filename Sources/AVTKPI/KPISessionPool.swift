import AVTReplay
import AVTTimeline
import AVTTrackers
import Foundation

/// `kpi --jobs N`: the inputs replayed by N worker threads, their KPIs handed on in input order
/// on the calling thread, so the output is `--jobs 1`'s byte for byte. Workers run at most 2N
/// inputs ahead of the one being printed, so the sessions waiting their turn stay few. A session
/// is handed on whole (its playbacks are not folded as they end, as `--jobs 1` does: each worker
/// holds its own session's figures), so `--jobs` is for corpora of many sessions.
///
/// Its state is guarded by `lock`, which every access takes: hence `@unchecked Sendable`.
package final class KPISessionPool: @unchecked Sendable {
    /// What a worker made of an input.
    private enum Slot {
        case pending
        case done([SessionKPIs], warnings: [String])
        case failed(Error, warnings: [String])
        /// Printed; its sessions let go.
        case taken
    }

    private let lock = NSCondition()
    private var slots: [Slot] = []
    private var nextIndex = 0
    private var printed = 0
    private var cancelled = false
    private let jobs: Int
    private let read: @Sendable (String, _ warn: @escaping (String) -> Void) throws -> [SessionKPIs]

    /// `read` is one input's sessions (`KPISessions.read`), called on the workers; what it warns
    /// is kept with them and said in input order (`forEach`'s `warn`), as `--jobs 1` says it.
    package init(
        jobs: Int, read: @escaping @Sendable (String, _ warn: @escaping (String) -> Void) throws -> [SessionKPIs]
    ) {
        self.jobs = jobs
        self.read = read
    }

    /// Each input's sessions to `body`, in input order; an input that failed to `failed`, which
    /// rethrows to stop (the workers then stop claiming inputs) or returns to go on. `stop`
    /// (Ctrl-C) ends the loop before the next input: the workers' replays see it and stop too.
    package func forEach(
        _ paths: [String], stop: StopRequest?, warn: (String) -> Void, failed: (String, Error) throws -> Void,
        _ body: ([SessionKPIs]) throws -> Void
    ) throws {
        slots = Array(repeating: .pending, count: paths.count)
        let group = DispatchGroup()
        for _ in 0..<min(jobs, paths.count) {
            group.enter()
            Thread { [self] in
                work(paths)
                group.leave()
            }.start()
        }
        defer {
            lock.lock()
            cancelled = true
            lock.broadcast()
            lock.unlock()
            // No worker outlives the call: the replays under way see the stop or finish.
            group.wait()
        }
        for (index, path) in paths.enumerated() {
            lock.lock()
            while case .pending = slots[index] { lock.wait() }
            let slot = slots[index]
            slots[index] = .taken
            printed = index + 1
            lock.broadcast()
            lock.unlock()
            if stop?.isRequested == true { return }
            switch slot {
            case .done(let sessions, let warnings):
                warnings.forEach(warn)
                try body(sessions)
            case .failed(let error, let warnings):
                warnings.forEach(warn)
                try failed(path, error)
            case .pending, .taken: continue
            }
        }
    }

    private func work(_ paths: [String]) {
        while true {
            lock.lock()
            // At most 2N inputs ahead of the one being printed.
            while !cancelled, nextIndex < paths.count, nextIndex >= printed + 2 * jobs { lock.wait() }
            let index = nextIndex
            nextIndex += 1
            let done = cancelled || index >= paths.count
            lock.unlock()
            if done { return }
            let warnings = Warnings()
            let slot: Slot
            do {
                slot = .done(try read(paths[index]) { warnings.said.append($0) }, warnings: warnings.said)
            } catch {
                slot = .failed(error, warnings: warnings.said)
            }
            lock.lock()
            slots[index] = slot
            lock.broadcast()
            lock.unlock()
        }
    }
}

/// What one input's reading warned, on the worker that reads it.
private final class Warnings {
    var said: [String] = []
}
