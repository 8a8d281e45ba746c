import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT end a command within a second while it waits for input that never comes
/// (a FIFO with no writer) or reads noise that never makes a step (/dev/urandom as any format):
/// a CI job's timeout must be able to end it. Each signal is sent once the process has opened its
/// input, seen in /proc, never after a fixed time.
final class BlockedInputSignalTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { throw XCTSkip("needs /proc") }
        dir = try CLI.temporaryDirectory()
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// Whether the process holds `path` open and, for a device, has read from it: its input is
    /// open (after its signal handlers are installed), not some file the runtime opened at start.
    private static func holds(_ pid: Int32, _ path: String, reading: Bool) -> Bool {
        guard CLI.holds(pid, path) else { return false }
        guard reading, let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return true }
        let read = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap {
            Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return (read ?? 0) > 1 << 20
    }

    /// Runs `arguments`, signals it once it holds `input` open, and returns its exit status and
    /// the seconds from the signal to its end.
    private func signalled(
        _ arguments: [String], input: String, signal: Int32 = SIGTERM, reading: Bool = false
    ) throws -> (status: Int32, seconds: TimeInterval) {
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = dir
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let opened = Readiness.wait(upTo: 30) {
            Self.holds(process.processIdentifier, input, reading: reading) || !process.isRunning
        }
        XCTAssertTrue(opened, "\(arguments): never opened \(input)")
        // Refused before (noise that is no JSON Lines): nothing left to end.
        guard process.isRunning else {
            process.waitUntilExit()
            return (process.terminationStatus, 0)
        }
        let sent = Date()
        kill(process.processIdentifier, signal)
        let ended = Readiness.wait(upTo: 30) { !process.isRunning }
        let seconds = Date().timeIntervalSince(sent)
        XCTAssertTrue(ended, "\(arguments): still running 30 s after the signal")
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // A command without a handler of its own ends by the signal itself: 128 + N to a shell.
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, seconds)
    }

    func testAFIFOWithNoWriterEndsOnTheFirstSignal() throws {
        let fifo = dir.appendingPathComponent("fifo.json").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let load = try BackgroundLoad()
        defer { load.stop() }
        for (arguments, signal, status) in [
            (["run", fifo], SIGTERM, Int32(143)), (["run", fifo, "--format", "table"], SIGINT, 130),
            (["kpi", fifo], SIGTERM, 143), (["report", fifo, "-o", "r.html"], SIGTERM, 143),
        ] {
            let (exit, seconds) = try signalled(arguments, input: fifo, signal: signal)
            XCTAssertEqual(exit, status, "\(arguments)")
            XCTAssertLessThanOrEqual(seconds, 1, "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.html").path))
    }

    func testNoiseInEveryInputFormatEndsOnTheFirstSignal() throws {
        let load = try BackgroundLoad()
        defer { load.stop() }
        for format in ["json", "jsonl", "csv", "avmetrics", "exoplayer-log", "chrome-media-log", "avplayer-accesslog"] {
            let arguments = ["run", "/dev/urandom", "--input-format", format]
            let (exit, seconds) = try signalled(arguments, input: "/dev/urandom", reading: true)
            // A format that refuses the noise at once has ended before the signal: that is fine too.
            XCTAssertTrue([143, 2].contains(exit), "\(format): \(exit)")
            XCTAssertLessThanOrEqual(seconds, 1, format)
        }
    }
}
