import Foundation
import XCTest

/// Inputs of a few bytes that ask for endless work end with a located bad-input error naming the
/// limit and the flag that raises it, in bounded time.
final class HostileInputTests: XCTestCase {
    /// 119 bytes asking for 2^53 − 1 ms of virtual time: 3·10^11 pings at the default interval.
    static let endless = """
        {"trackers":[{"name":"c"}]}
        {"t":0,"tracker":"c","action":"Start"}
        {"t":9007199254740991,"tracker":"c","action":"End"}

        """

    func testAnEndlessTimelineIsBadInputForEveryReplayingCommand() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let timeline = dir.appendingPathComponent("endless.jsonl")
        try Data(Self.endless.utf8).write(to: timeline)
        // An empty golden file, so `check` replays the timeline.
        try Data().write(to: dir.appendingPathComponent("endless.expected.jsonl"))
        let html = dir.appendingPathComponent("r.html").path
        for arguments in [
            ["run", timeline.path], ["kpi", timeline.path], ["report", timeline.path, "-o", html],
            ["check", dir.path],
        ] {
            let result = try Self.run(arguments, timeout: 10)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("endless.jsonl:3:1: steps[1].t"), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--max-duration"), "\(arguments): \(result.stderr)")
        }
    }

    /// Event logs whose times add up past Int.max: `kpi --from-events` and `report` read them
    /// without a trap; integers past 2^53 - 1 are bad input at their line and column.
    func testHugeTimesInAnEventLogAreBadInputNotACrash() throws {
        func event(_ t: Int, _ action: String, _ attributes: String) -> String {
            #"{"type":"event","t":\#(t),"action":"\#(action)","tracker":"c","attributes":{"playbackId":"p",\#(attributes)}}"#
        }
        let logs = [
            // Two deltaPlayTime of 2^62: their sum overflowed the play time.
            event(0, "Ping", #""deltaPlayTime":4611686018427387904"#) + "\n"
                + event(1, "Ping", #""deltaPlayTime":4611686018427387904"#) + "\n",
            // Two Starts with timeSinceMediaRequest 2^63 - 1: their sum overflowed the mean startup.
            event(0, "Start", #""timeSinceMediaRequest":9223372036854775807"#) + "\n"
                + event(1, "Start", #""timeSinceMediaRequest":9223372036854775807"#) + "\n",
        ]
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, log) in logs.enumerated() {
            let file = dir.appendingPathComponent("events\(n).jsonl")
            try Data(log.utf8).write(to: file)
            for arguments in [
                ["kpi", "--from-events", file.path],
                ["report", "--from-events", file.path, "-o", dir.appendingPathComponent("r.html").path],
            ] {
                let result = try CLI.run(arguments)
                XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("events\(n).jsonl:1:"), "\(arguments): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("2^53 - 1"), "\(arguments): \(result.stderr)")
            }
        }
    }

    /// A report draws a timeline of any length the limit allows (the x position of a step at
    /// 9.2·10^14 ms overflowed).
    func testAReportOfTheLongestAllowedTimelineDoesNotTrap() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for t in [922_337_203_685_478, 9_007_199_254_740_991] {
            let timeline = """
                {"trackers":[{"name":"c"}],"pingInterval":0}
                {"t":0,"tracker":"c","action":"Start"}
                {"t":\(t),"tracker":"c","action":"End"}

                """
            let html = dir.appendingPathComponent("r.html").path
            let file = dir.appendingPathComponent("long.jsonl")
            try Data(timeline.utf8).write(to: file)
            let result = try CLI.run(["report", file.path, "--max-duration", String(t), "-o", html])
            XCTAssertEqual(result.status, 0, "t \(t): \(result.stderr)")
        }
    }

    func testMaxDurationRaisesTheLimit() throws {
        let timeline = """
            {"trackers":[{"name":"c"}],"pingInterval":0}
            {"t":0,"tracker":"c","action":"Start"}
            {"t":40000000000,"tracker":"c","action":"End"}

            """
        let refused = try CLI.run(["kpi", "-"], stdin: timeline)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("limit of 31622400000 ms"), refused.stderr)
        let raised = try CLI.run(["kpi", "--max-duration", "40000000000", "-"], stdin: timeline)
        XCTAssertEqual(raised.status, 0, raised.stderr)
    }

    func testAnUntilPastTheLimitIsRefusedBeforeReplaying() throws {
        let result = try CLI.run(
            ["run", "-"], stdin: "{\"trackers\":[{\"name\":\"c\"}],\"until\":31622400001}\n")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("until: 31622400001 ms is past"), result.stderr)
    }

    func testSIGTERMDuringALongStretchOfPingsExits143AtOnce() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let timeline = dir.appendingPathComponent("long.jsonl")
        // 3·10^7 pings between the two steps: seconds of work once the pacer stops sleeping.
        let text = """
            {"trackers":[{"name":"c"}]}
            {"t":0,"tracker":"c","action":"Start"}
            {"t":1000000000000,"tracker":"c","action":"End"}

            """
        try Data(text.utf8).write(to: timeline)
        let load = try BackgroundLoad()
        defer { load.stop() }
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = ["run", timeline.path, "--speed", "1", "--max-duration", "1000000000000"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first record (t = 0) is written after the signal handlers are installed: from
        // then on SIGTERM is the replay's to handle, not the default action's.
        XCTAssertTrue(Readiness.firstBytes(of: out.fileHandleForReading), "no record within 60 s")
        let sent = Date()
        process.terminate()
        let stopped = Readiness.wait(upTo: 10) { !process.isRunning }
        let elapsed = Date().timeIntervalSince(sent)
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 143)
        XCTAssertLessThan(elapsed, 5, "took \(elapsed) s to stop (3·10^7 pings would take minutes)")
    }

    /// Runs the binary (standard output and error together), killing it after `timeout` seconds (a failure, not a hang of the suite).
    static func run(_ arguments: [String], timeout: TimeInterval) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        // One pipe for both: `check` reports an ERROR verdict on standard output.
        let err = Pipe()
        process.standardOutput = err
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return (-1, "still running after \(timeout) s")
        }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stderr)
    }
}
