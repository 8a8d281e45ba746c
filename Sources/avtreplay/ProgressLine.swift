import Foundation

/// A progress line on stderr for long runs: only on a terminal, redrawn at most 4 times a
/// second from a background thread, erased when done.
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    /// What is counted (`sessions`, `cases`).
    private let unit: String
    /// The steps replayed so far, when the line shows them.
    private let steps: (@Sendable () -> Int)?
    private let lock = NSLock()
    private var sessionsDone = 0
    private var finished = false
    private var drawn = false
    private let started = Date()

    /// `quiet`: no counter even on a terminal (what it would count is printed there already).
    init(total: Int, unit: String = "sessions", steps: (@Sendable () -> Int)? = nil, quiet: Bool = false) {
        self.total = total
        self.unit = unit
        self.steps = steps
        guard !quiet, isatty(2) != 0 else { return }
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
        let line = "\r\u{1B}[Kavtreplay: \(sessionsDone)/\(total) \(unit)" + (steps.map { ", \($0()) steps" } ?? "")
        Diagnostics.writeRaw(line)
        return true
    }

    /// Prints a line of its own on stderr, erasing the counter first (it comes back on the
    /// next redraw), so the two never share a line.
    func print(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if drawn { Diagnostics.writeRaw("\r\u{1B}[K") }
        Diagnostics.print(text)
    }

    func finish() {
        lock.lock()
        finished = true
        if drawn { Diagnostics.writeRaw("\r\u{1B}[K") }
        lock.unlock()
    }
}
