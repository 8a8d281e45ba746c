import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `check` stopped by Ctrl-C or SIGTERM: no case starts after the signal, the report holds the
/// cases finished before it, and an `-o` file is complete or absent (what was done is kept as
/// `FILE.partial`); the exit status is 130 or 143. The signal is sent while the second case
/// waits on a FIFO nobody writes, never after a fixed time.
final class CheckInterruptTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
            to: dir.appendingPathComponent("a.json"))
        let produced = try CLI.run(["run", "a.json"], in: dir)
        XCTAssertEqual(produced.status, 0, produced.stderr)
        for name in ["a.expected.jsonl", "b.expected.jsonl"] {
            try Data(produced.stdout.utf8).write(to: dir.appendingPathComponent(name))
        }
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("b.json").path, 0o644), 0)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// Runs `arguments` (one case at a time), waits until it holds the FIFO open, that is
    /// until a.json's case is over, and until its stderr holds `said`, sends `signal` and returns
    /// the exit status and stderr.
    private func interrupted(_ arguments: [String], signal: Int32, once said: String = "") throws
        -> (status: Int32, stderr: String)
    {
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = arguments + ["--jobs", "1"]
        process.currentDirectoryURL = dir
        let errPath = dir.appendingPathComponent("stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: errPath, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let fifo = dir.appendingPathComponent("b.json").path
        let waiting = Readiness.wait(upTo: 60) {
            guard process.isRunning else { return true }
            let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            return CLI.holds(process.processIdentifier, fifo) && (said.isEmpty || stderr.contains(said))
        }
        XCTAssertTrue(waiting && process.isRunning, "\(arguments): never waited on the FIFO")
        kill(process.processIdentifier, signal)
        XCTAssertTrue(Readiness.wait(upTo: 60) { !process.isRunning }, "\(arguments): still running after the signal")
        process.waitUntilExit()
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    func testAnInterruptedCheckKeepsTheCasesFinishedAsAPartialReport() throws {
        let result = try interrupted(
            ["check", "a.json", "b.json", "--format", "junit", "-o", "report.xml"], signal: SIGINT)
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("interrupted (SIGINT): the report holds 1 of 2 cases checked"), result.stderr)
        XCTAssertTrue(result.stderr.contains("report.xml.partial"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("report.xml").path))
        let report = try String(contentsOf: dir.appendingPathComponent("report.xml.partial"), encoding: .utf8)
        // a.json passed; b.json, cut short by the signal, is not in it (no failure, no error).
        XCTAssertTrue(report.contains("tests=\"1\" failures=\"0\" errors=\"0\""), report)
        XCTAssertTrue(report.contains("name=\"a.json\""), report)
        XCTAssertFalse(report.contains("b.json"), report)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    /// `--progress-every` prints a status line for logs: cases done, the steps replayed and
    /// their rate (happy-path.json's steps, as `convert` counts them).
    func testProgressEveryPrintsStatusLines() throws {
        let steps =
            try CLI.run(["convert", "a.json", "-", "--output-format", "jsonl"], in: dir).stdout
            .split(separator: "\n").count - 1
        let said = "avtreplay: progress: 1/2 cases, \(steps) steps ("
        let result = try interrupted(
            ["check", "a.json", "b.json", "--progress-every", "0.2"], signal: SIGINT, once: said)
        XCTAssertEqual(result.status, 130, result.stderr)
        XCTAssertTrue(result.stderr.contains(said), result.stderr)
        XCTAssertEqual(try CLI.run(["check", "a.json", "--progress-every", "0"], in: dir).status, 2)
    }

    /// An update stops between golden files: the one written is listed, none is cut short, and
    /// the case the signal cut is no error.
    func testAnInterruptedUpdateListsTheGoldenFilesWritten() throws {
        try Data("{}\n".utf8).write(to: dir.appendingPathComponent("a.expected.jsonl"))
        let golden = try Data(contentsOf: dir.appendingPathComponent("b.expected.jsonl"))
        let result = try interrupted(["check", "a.json", "b.json", "--update", "-o", "update.txt"], signal: SIGTERM)
        XCTAssertEqual(result.status, 143, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("interrupted (SIGTERM): the report holds 1 of 2 cases updated"), result.stderr)
        let report = try String(contentsOf: dir.appendingPathComponent("update.txt.partial"), encoding: .utf8)
        XCTAssertTrue(report.contains("updated a.expected.jsonl"), report)
        XCTAssertTrue(report.hasSuffix("0 created, 1 updated, 0 unchanged\n"), report)
        XCTAssertFalse(report.contains("error"), report)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("a.expected.jsonl")), golden)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("b.expected.jsonl")), golden, "untouched")
    }
}
