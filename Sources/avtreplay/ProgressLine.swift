import Foundation

/// A progress line on stderr for long runs: only on a terminal, redrawn at most 4 times a
/// second from a background thread, erased when done.
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    private let steps: @Sendable () -> Int
    private let lock = NSLock()
    private var sessionsDone = 0
    private var finished = false
    private var drawn = false
    private let started = Date()

    init(total: Int, steps: @escaping @Sendable () -> Int) {
        self.total = total
        self.steps = steps
        guard isatty(2) != 0 else { return }
        Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.25)
                guard draw() else { return }
            }
        }.start()
    }

    func sessionDone() {
        lock.lock()
        sessionsDone += 1
        lock.unlock()
    }

    /// Returns false once finished.
    private func draw() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return false }
        // Short runs stay quiet: nothing before the first second.
        guard Date().timeIntervalSince(started) >= 1 else { return true }
        drawn = true
        let line = "\r\u{1B}[Kavtreplay: \(sessionsDone)/\(total) sessions, \(steps()) steps"
        Diagnostics.writeRaw(line)
        return true
    }

    func finish() {
        lock.lock()
        finished = true
        if drawn { Diagnostics.writeRaw("\r\u{1B}[K") }
        lock.unlock()
    }
}
