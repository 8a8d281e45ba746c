import AVTDelivery
import Foundation
import XCTest

/// `run --speed` (wall-clock pacing) and Ctrl-C/SIGTERM (stop, flush, dead-letter, exit code),
/// against a local HTTP server speaking InfluxDB 2.x's write API.
final class PacingAndInterruptTests: XCTestCase {
    private let environment = ["INFLUX_TOKEN": "t"]

    private func address(_ server: MockHTTPServer) -> String { "influxdb2://127.0.0.1:\(server.port)?org=o&bucket=b" }

    private func lines(_ request: MockHTTPServer.Request) -> [String] {
        String(decoding: Gzip.decompress(request.body) ?? request.body, as: UTF8.self).split(separator: "\n").map(
            String.init)
    }

    func testSpeedTenPlaysThirtyVirtualSecondsInAboutThreeSeconds() throws {
        // happy-path until 30000 ms with pings every 800 ms: the last record, a ping at 29400,
        // is due at 2.94 s. At --speed 1 it would take 29.4 s: the bounds tell the speeds apart
        // with room for a loaded machine.
        let flags = ["run", "fixtures/happy-path.json", "--until", "30000", "--ping-interval", "800"]
        let expected = try CLI.run(flags + ["--format", "influx"]).stdout.split(separator: "\n").map(String.init)
        let times = try CLI.run(flags).stdout.split(separator: "\n").compactMap {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["t"] as? Int
        }
        XCTAssertEqual(times.last, 29400)
        XCTAssertEqual(times, times.sorted())
        let server = try MockHTTPServer(fallback: 204)
        let began = Date()
        let result = try CLI.run(
            flags + ["--to", address(server), "--speed", "10", "--delivery-max-age", "100"], environment: environment)
        let elapsed = Date().timeIntervalSince(began)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThanOrEqual(elapsed, 2.94, "29.4 s of virtual time at 10×")
        XCTAssertLessThan(elapsed, 15, "far from the 30 s of --speed 1")
        let requests = server.requests
        XCTAssertEqual(
            requests.flatMap(lines), expected, "every record once, in time order, with its virtual timestamp")
        // Batches leave by age (100 ms), not only at the end: the first batch (t = 0 …) leaves
        // at about 0.1 s and the last record is due at 2.94 s, so the first and last arrivals are
        // seconds apart.
        XCTAssertGreaterThan(requests.count, 2)
        XCTAssertFalse(lines(requests[0]).contains(expected.last!))
        let firstArrival = try XCTUnwrap(requests.first?.received)
        let lastArrival = try XCTUnwrap(requests.last?.received)
        XCTAssertGreaterThanOrEqual(lastArrival.timeIntervalSince(firstArrival), 2)
    }

    func testWithoutSpeedNothingWaits() throws {
        // 150 s of virtual time (until) replays in a moment of wall time: well under the 150 s
        // a sleeping replay would take, with room for a loaded machine.
        let began = Date()
        let result = try CLI.run(["run", "fixtures/happy-path.json"])
        XCTAssertEqual(result.status, 0)
        XCTAssertLessThan(Date().timeIntervalSince(began), 15)
    }

    /// Starts a paced replay of happy-path at a tenth of real time (BufferFinish, at t = 1350,
    /// is due 13.5 s in) to `server` and to standard output, under background load; once that holds
    /// the records at t = 0, 180 and 200 (6 lines), signals it and returns its exit status and
    /// stderr (`whenServerAsked`: once the server saw a first request, for a server that refuses
    /// everything, where retries hold the replay back). Waiting for what the replay did, never for a fixed time, keeps the signal after
    /// the binary's handlers are installed however loaded the machine is.
    private func interrupted(
        by signal: Int32, server: MockHTTPServer, extra: [String] = [], whenServerAsked: Bool = false
    ) throws -> (status: Int32, stderr: String) {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let load = try BackgroundLoad()
        defer { load.stop() }
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments =
            [
                "run", "fixtures/happy-path.json", "--to", address(server), "--to", "stdout", "--speed", "0.1",
                "--delivery-max-age", "100",
            ] + extra
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // A file for stderr: nothing to drain.
        let errPath = dir.appendingPathComponent("stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: errPath, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        // Standard output is flushed as records come due: the readiness signal.
        let records = PipeCollector()
        process.standardOutput = records.pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let ready = Readiness.wait { whenServerAsked ? !server.requests.isEmpty : records.lineCount >= 6 }
        XCTAssertTrue(
            ready, whenServerAsked ? "no request within 60 s" : "the first 6 records were not replayed within 60 s")
        let sent = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(sent), 10, "stops promptly, not after the 1500 s replay")
        return (process.terminationStatus, try String(contentsOfFile: errPath, encoding: .utf8))
    }

    func testCtrlCFlushesWhatWasReplayedAndExits130() throws {
        let all = try CLI.run(["run", "fixtures/happy-path.json", "--format", "influx"]).stdout.split(separator: "\n")
            .map(String.init)
        let server = try MockHTTPServer(fallback: 204)
        let (status, stderr) = try interrupted(by: SIGINT, server: server)
        XCTAssertEqual(status, 130, stderr)
        XCTAssertTrue(stderr.contains("interrupted by SIGINT"), stderr)
        let received = server.requests.flatMap(lines)
        // Signalled after the records at t = 0, 180 and 200 (6 lines), while the next one
        // (BufferFinish, t = 1350) waits for its time: that one is released by the stop, no later one.
        XCTAssertEqual(received, Array(all.prefix(received.count)), "a prefix of the replay, each record once")
        XCTAssert((6...7).contains(received.count), "\(received.count) records delivered")
        XCTAssertTrue(stderr.contains(": \(received.count) points delivered, 0 undelivered"), stderr)
    }

    func testSIGTERMWithTheServerDownKeepsEverythingAndExits3() throws {
        let all = try CLI.run(["run", "fixtures/happy-path.json", "--format", "influx"]).stdout.split(separator: "\n")
            .map(String.init)
        let down = try MockHTTPServer(fallback: 503)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        // Long retries: only the stop request lets the run end within the test's bound.
        let (status, stderr) = try interrupted(
            by: SIGTERM, server: down,
            extra: ["--dead-letter", dead, "--delivery-attempts", "50", "--delivery-retry-delay", "200"],
            whenServerAsked: true)
        XCTAssertEqual(status, 3, "undelivered records win over the signal's 143: " + stderr)
        XCTAssertTrue(stderr.contains("interrupted by SIGTERM"), stderr)
        let kept = try DeadLetterEntry.read(path: dead).map(\.line)
        XCTAssertEqual(kept, Array(all.prefix(kept.count)), "what was replayed, in order, kept once")
        XCTAssertTrue(Set(down.requests.flatMap(lines)).isSubset(of: kept), "every record the server refused is kept")
        XCTAssert((1...7).contains(kept.count), "\(kept.count) records kept, none past BufferFinish (t = 1350)")
    }

    func testSIGTERMWithEverythingDeliveredExits143() throws {
        let server = try MockHTTPServer(fallback: 204)
        let (status, stderr) = try interrupted(by: SIGTERM, server: server)
        XCTAssertEqual(status, 143, stderr)
    }

    /// `-o FILE` is complete or absent: a replay interrupted while writing keeps what it wrote as
    /// `FILE.partial` (whole records, a prefix of the full output), says so, and leaves `FILE` as
    /// it was. The signal goes once the output's temporary exists: the handlers are installed
    /// before the output is opened.
    func testAnInterruptedOutputIsLeftAsPartialNotUnderItsName() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.jsonl").path
        try "earlier output\n".write(toFile: out, atomically: true, encoding: .utf8)
        let all = try CLI.run(["run", "fixtures/happy-path.json"]).stdout
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = ["run", "fixtures/happy-path.json", "--speed", "0.1", "-o", out]
        process.currentDirectoryURL = CLI.packageRoot
        let errPath = dir.appendingPathComponent("stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: errPath, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let temporary = out + ".tmp-\(process.processIdentifier)"
        XCTAssertTrue(Readiness.wait { FileManager.default.fileExists(atPath: temporary) }, "no output opened")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "earlier output\n")
        let partial = try String(contentsOfFile: out + ".partial", encoding: .utf8)
        XCTAssertTrue(all.hasPrefix(partial), "a prefix of the replay")
        XCTAssertTrue(partial.isEmpty || partial.hasSuffix("\n"), "whole records")
        XCTAssertLessThan(partial.count, all.count)
        XCTAssertTrue(stderr.contains("out.jsonl.partial"), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary))
    }

    /// `--progress` prints plain lines for a log that shows no redrawn line: what is done, the
    /// steps and their rate, the bytes read of the input's size. Waited for, then stopped.
    func testProgressLinesForLogs() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = [
            "run", "fixtures/happy-path.json", "--speed", "0.1", "--progress", "--progress-every", "0.2", "-o",
            dir.appendingPathComponent("out.jsonl").path,
        ]
        process.currentDirectoryURL = CLI.packageRoot
        let errPath = dir.appendingPathComponent("stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: errPath, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let size = try XCTUnwrap(
            FileManager.default.attributesOfItem(
                atPath: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json").path)[.size] as? Int)
        let printed = Readiness.wait {
            ((try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "").components(separatedBy: "progress:").count
                > 2
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
        XCTAssertTrue(printed, stderr)
        let line = try XCTUnwrap(stderr.split(separator: "\n").first { $0.hasPrefix("avtreplay: progress: ") })
        XCTAssertTrue(line.hasPrefix("avtreplay: progress: 0/1 sessions, "), String(line))
        XCTAssertTrue(line.contains(" steps/s)"), String(line))
        XCTAssertTrue(line.contains(String(format: "0.0 of %.1f MB", Double(size) / 1e6)), String(line))
    }
}
