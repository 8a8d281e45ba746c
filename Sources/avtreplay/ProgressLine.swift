import Foundation

/// Progress on stderr for long runs: on a terminal a live line redrawn at most 4 times a second
/// and erased when done; with `every` (`--progress`), a plain line at that interval for logs
/// (`kubectl logs`, CI) that do not show a redrawn line. Both say what is done, the steps and
/// their rate, and, when the inputs' sizes are known, the bytes read and the time left.
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    /// What is counted (`sessions`, `cases`).
    private let unit: String
    /// The steps replayed so far, when the line shows them.
    private let steps: (@Sendable () -> Int)?
    /// The inputs' sizes in bytes, all known (files), for the bytes read and the time left.
    private let totalBytes: Int?
    private let lock = NSLock()
    private var sessionsDone = 0
    private var bytesDone = 0
    private var finished = false
    private var drawn = false
    private let started = Date()
    /// The interval of plain lines; nil for the live line.
    private let every: TimeInterval?
    private var lastPlain: Date

    /// `quiet`: no counter even on a terminal (what it would count is printed there already).
    /// `every`: plain lines at that interval, terminal or not. `sizes`: each input's size in
    /// bytes when known.
    init(
        total: Int, unit: String = "sessions", steps: (@Sendable () -> Int)? = nil, quiet: Bool = false,
        every: TimeInterval? = nil, sizes: [Int?] = []
    ) {
        self.total = total
        self.unit = unit
        self.steps = steps
        self.every = every
        let known = sizes.compactMap { $0 }
        totalBytes = !sizes.isEmpty && known.count == sizes.count ? known.reduce(0, +) : nil
        lastPlain = started
        guard every != nil || !quiet && isatty(2) != 0 else { return }
        Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.25)
                guard draw() else { return }
            }
        }.start()
    }

    /// One session (or case) done, of `bytes` bytes when its size is known.
    func sessionDone(bytes: Int? = nil) {
        lock.lock()
        sessionsDone += 1
        bytesDone += bytes ?? 0
        lock.unlock()
    }

    /// Returns false once finished.
    private func draw() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return false }
        let now = Date()
        if let every {
            guard now.timeIntervalSince(lastPlain) >= every else { return true }
            lastPlain = now
            Diagnostics.print("avtreplay: progress: " + status(at: now))
            return true
        }
        // Short runs stay quiet: nothing before the first second.
        guard now.timeIntervalSince(started) >= 1 else { return true }
        drawn = true
        Diagnostics.writeRaw("\r\u{1B}[Kavtreplay: " + status(at: now))
        return true
    }

    /// `3/10 sessions, 120000 steps (45000 steps/s), 12.0 of 40.0 MB, about 7 s left`; without
    /// the sizes, the time left is by the count done.
    private func status(at now: Date) -> String {
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        var text = "\(sessionsDone)/\(total) \(unit)"
        if let steps {
            let count = steps()
            text += ", \(count) steps (\(Int(Double(count) / elapsed)) steps/s)"
        }
        if let totalBytes, totalBytes > 0 {
            text += String(format: ", %.1f of %.1f MB", Double(bytesDone) / 1e6, Double(totalBytes) / 1e6)
            if bytesDone > 0, bytesDone < totalBytes {
                let left = elapsed * Double(totalBytes - bytesDone) / Double(bytesDone)
                text += ", about \(Int(left.rounded())) s left"
            }
        } else if sessionsDone > 0, sessionsDone < total {
            // Sizes unknown (standard input, a suite's cases): the time left by the count done.
            let left = elapsed * Double(total - sessionsDone) / Double(sessionsDone)
            text += ", about \(Int(left.rounded())) s left"
        }
        return text
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

    /// The size of each file among `paths` (nil for standard input and what cannot be read).
    static func sizes(of paths: [String]) -> [Int?] {
        paths.map { path in
            var info = stat()
            guard path != "-", stat(path, &info) == 0 else { return nil }
            return Int(info.st_size)
        }
    }
}
