import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Busy loops that keep every core occupied while a timing-sensitive test runs, as a loaded CI
/// runner would: a test that only passes on an idle machine fails here instead of in CI.
final class BackgroundLoad {
    private var processes: [Process] = []

    /// Two busy shells per core (a load of about twice the core count).
    init(perCore: Int = 2) throws {
        for _ in 0..<(ProcessInfo.processInfo.activeProcessorCount * perCore) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            // Each loop ends by itself once the test process is gone, even if it was killed.
            let runner = ProcessInfo.processInfo.processIdentifier
            process.arguments = ["-c", "while kill -0 \(runner) 2>/dev/null; do :; done"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append(process)
        }
    }

    func stop() {
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
        processes = []
    }

    deinit { stop() }
}
