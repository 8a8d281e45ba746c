import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `kpi` writes each session as soon as it is replayed: interrupted by Ctrl-C or SIGTERM, it has
/// printed every session it finished, whole, and ends with 130 or 143 and one line saying so.
/// Each signal is sent once the first session's output has arrived, while `kpi` waits on a FIFO
/// nobody writes, never after a fixed time.
final class KPIStreamingTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
            to: dir.appendingPathComponent("a.json"))
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("live.json").path, 0o644), 0)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// Runs `arguments`, waits until standard output is `printed` (nil: until it holds the FIFO
    /// open, after its handlers are installed) or the process ended, sends `signal`, and returns
    /// the exit status and both outputs.
    private func interrupted(_ arguments: [String], signal: Int32, once printed: String?) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = dir
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let received = Received()
        out.fileHandleForReading.readabilityHandler = { received.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let fifo = dir.appendingPathComponent("live.json").path
        let arrived = Readiness.wait(upTo: 60) {
            guard process.isRunning else { return true }
            guard let printed else { return CLI.holds(process.processIdentifier, fifo) }
            return received.text == printed
        }
        XCTAssertTrue(arrived, "\(arguments): printed \(received.text.utf8.count) bytes")
        XCTAssertTrue(process.isRunning, "\(arguments): ended before the signal")
        kill(process.processIdentifier, signal)
        XCTAssertTrue(Readiness.wait(upTo: 60) { !process.isRunning }, "\(arguments): still running after the signal")
        process.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        received.append(out.fileHandleForReading.readDataToEndOfFile())
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, received.text, stderr)
    }

    /// `--progress` prints plain lines for logs: sessions done of the inputs' sessions, the steps
    /// replayed with their rate, and the bytes read of the inputs' sizes. Waited for (one session
    /// done, the second waiting on the FIFO), then stopped.
    func testProgressLinesCountTheSessions() throws {
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = ["kpi", "a.json", "live.json", "--progress", "--progress-every", "0.2"]
        process.currentDirectoryURL = dir
        let errPath = dir.appendingPathComponent("stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: errPath, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let printed = Readiness.wait {
            ((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "").contains("progress: 1/2 sessions")
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let lines = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        XCTAssertTrue(printed, lines)
        // happy-path.json: its steps, and its bytes of the two inputs' (a FIFO counts 0).
        let steps =
            try CLI.run(["convert", "a.json", "-", "--output-format", "jsonl"], in: dir).stdout
            .split(separator: "\n").count - 1
        let size = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("a.json").path)[.size]
        let megabytes = String(format: "%.1f", Double((size as? Int) ?? -1) / 1e6)
        XCTAssertTrue(lines.contains("progress: 1/2 sessions, \(steps) steps ("), lines)
        XCTAssertTrue(lines.contains("steps/s), \(megabytes) of \(megabytes) MB"), lines)
    }

    func testCtrlCLeavesTheTablesOfTheSessionsFinishedAndExits130() throws {
        let alone = try CLI.run(["kpi", "a.json"], in: dir)
        XCTAssertEqual(alone.status, 0, alone.stderr)
        let result = try interrupted(["kpi", "a.json", "live.json", "--aggregate"], signal: SIGINT, once: alone.stdout)
        XCTAssertEqual(result.status, 130, result.stderr)
        // a.json's table, whole; no aggregate (it would be of part of the inputs).
        XCTAssertEqual(result.stdout, alone.stdout)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("interrupted (SIGINT): 1 session printed in full"), result.stderr)
    }

    func testSIGTERMLeavesTheCSVRowsOfTheSessionsFinishedAndExits143() throws {
        let alone = try CLI.run(["kpi", "a.json", "--format", "csv"], in: dir)
        XCTAssertEqual(alone.status, 0, alone.stderr)
        let result = try interrupted(
            ["kpi", "a.json", "live.json", "--format", "csv", "--aggregate"], signal: SIGTERM, once: alone.stdout)
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertEqual(result.stdout, alone.stdout)
        XCTAssertTrue(result.stderr.contains("interrupted (SIGTERM)"), result.stderr)
    }

    func testJSONSessionsFinishedArePrintedWhole() throws {
        let alone = try CLI.run(["kpi", "a.json", "--format", "json"], in: dir)
        XCTAssertEqual(alone.status, 0, alone.stderr)
        // The document up to the end of a.json's session: `{…,"sessions":[{…}` and no closing.
        let closing = "]}\n"
        XCTAssertTrue(alone.stdout.hasSuffix(closing))
        let prefix = String(alone.stdout.dropLast(closing.count))
        let result = try interrupted(["kpi", "a.json", "live.json", "--format", "json"], signal: SIGINT, once: prefix)
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertEqual(result.stdout, prefix)
    }

    /// With `-o`, the file is complete or absent: an interrupted `kpi` does not write it, and
    /// keeps the sessions it finished as `k.txt.partial`.
    func testAnInterruptedKPIWritesNoFileButAPartialOne() throws {
        let alone = try CLI.run(["kpi", "a.json"], in: dir)
        let result = try interrupted(["kpi", "a.json", "live.json", "-o", "k.txt"], signal: SIGTERM, once: nil)
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertTrue(result.stderr.contains("the output file was not written"), result.stderr)
        XCTAssertTrue(result.stderr.contains("k.txt.partial"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("k.txt").path))
        let partial = try String(contentsOf: dir.appendingPathComponent("k.txt.partial"), encoding: .utf8)
        XCTAssertFalse(partial.isEmpty)
        XCTAssertTrue(alone.stdout.hasPrefix(partial), "a.json's KPIs, whole")
    }
}

/// Bytes read from a pipe on another thread.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
