import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Waiting for what a process has done, never for a fixed time: a condition polled until it
/// holds or a generous deadline passes (a failure, not a hang of the suite).
enum Readiness {
    @discardableResult
    static func wait(upTo seconds: TimeInterval = 60, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Blocks until `handle` yields its first bytes (or closes); false after `seconds`.
    static func firstBytes(of handle: FileHandle, upTo seconds: TimeInterval = 60) -> Bool {
        let arrived = DispatchSemaphore(value: 0)
        let reader = Thread {
            _ = handle.availableData
            arrived.signal()
        }
        reader.start()
        return arrived.wait(timeout: .now() + seconds) == .success
    }
}

/// Everything a child process writes to a pipe, read as it comes on a thread of its own (so the
/// child never blocks on a full pipe), for tests that wait for a line before acting.
final class PipeCollector: @unchecked Sendable {
    let pipe = Pipe()
    private let lock = NSLock()
    private var data = Data()

    init() {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                lock.withLock { data.append(chunk) }
            }
        }.start()
    }

    var lineCount: Int { lock.withLock { data.reduce(0) { $1 == 10 ? $0 + 1 : $0 } } }
}
