import Foundation
import XCTest

/// A private InfluxDB 1.x (started with scripts/start-influxdb.sh on a free port) is stopped in
/// the middle of a paced replay and restarted on the same port and data: retries cover the
/// outage, and every point is stored exactly once.
final class InfluxRestartTests: XCTestCase {
    private struct Server {
        var pid: String
        var dir: String
        var port: Int
    }

    /// Runs a script with its output in a file (never a pipe, which a daemon could keep open).
    @discardableResult
    private func script(_ command: String, environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("avtreplay-script-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        XCTAssertTrue(FileManager.default.createFile(atPath: out.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8))
    }

    private func start(port: Int, dir: String?, auth: [String: String] = [:]) throws -> Server {
        // Empty values stand for unset: an INFLUX_DIR or INFLUX_USER in the caller's environment
        // (a shell that started its own server) must not become this server's directory or user.
        var environment = [
            "INFLUX_PORT": String(port), "INFLUX_DB": "restart", "INFLUX_USER": "", "INFLUX_PASSWORD": "",
        ]
        .merging(auth) { $1 }
        environment["INFLUX_DIR"] = dir ?? ""
        let (status, output) = try script("scripts/start-influxdb.sh", environment: environment)
        XCTAssertEqual(status, 0, output)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return Server(pid: try XCTUnwrap(values["INFLUX_PID"]), dir: try XCTUnwrap(values["INFLUX_DIR"]), port: port)
    }

    private func stop(_ server: Server) throws {
        try script("scripts/stop-server.sh \(server.pid) 10 '\(server.dir)'")
    }

    /// A port p with p and p+2 (influxd's RPC port) free.
    private func freePort() -> Int {
        func free(_ port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            } == 0
        }
        var port = 19_000 + Int(getpid() % 500) * 4
        while !(free(port) && free(port + 2)) { port += 4 }
        return port
    }

    private func points(port: Int) throws -> Int {
        var total = 0
        for (measurement, pick) in [("OAVT_EVENTS", "count(accumBufferTime)"), ("OAVT_METRICS", "count(*)")] {
            var components = URLComponents(string: "http://127.0.0.1:\(port)/query")!
            components.queryItems = [
                URLQueryItem(name: "db", value: "restart"),
                URLQueryItem(name: "q", value: "SELECT \(pick) FROM \(measurement)"),
            ]
            let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: components.url!)) as? [String: Any]
            let series = ((json?["results"] as? [[String: Any]])?.first?["series"] as? [[String: Any]])?.first
            total += ((series?["values"] as? [[Any]])?.first?.dropFirst().compactMap { $0 as? Int } ?? []).reduce(0, +)
        }
        return total
    }

    func testServerStoppedAndRestartedMidReplayLosesAndDuplicatesNothing() throws {
        guard ProcessInfo.processInfo.environment["AVTREPLAY_INFLUX_URL"] != nil else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                XCTFail("scripts/test starts InfluxDB")
            }
            throw XCTSkip("no InfluxDB: scripts/test runs this test (it starts and restarts a private influxd)")
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 300 steps over 980 s of virtual time, 453 records: about 20 s at --speed 50.
        let timeline = dir.appendingPathComponent("t.jsonl")
        try script("python3 scripts/gen-timeline.py 300 --seed 1 --format jsonl > '\(timeline.path)'")
        let expected = try CLI.run(["run", timeline.path]).stdout.split(separator: "\n").count
        XCTAssertEqual(expected, 453)

        var server = try start(port: freePort(), dir: nil)
        defer {
            try? stop(server)
            try? FileManager.default.removeItem(atPath: server.dir)
        }
        let replay = Process()
        replay.executableURL = try CLI.binary
        // Retry budget: 30 attempts from 100 ms doubling to 1 s cover far more than the outage.
        // The records also go to standard output, as they come due: the test's clock.
        replay.arguments = [
            "run", timeline.path, "--to", "influxdb://127.0.0.1:\(server.port)/restart", "--to", "stdout", "--speed",
            "50", "--delivery-max-age", "200", "--delivery-attempts", "30", "--delivery-retry-delay", "100",
            "--dead-letter", dir.appendingPathComponent("dead.jsonl").path,
        ]
        replay.currentDirectoryURL = CLI.packageRoot
        let errPath = dir.appendingPathComponent("stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: errPath, contents: nil))
        replay.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let records = PipeCollector()
        replay.standardOutput = records.pipe
        try replay.run()
        // Batches leave every 200 ms: wait until the server has stored some, so part of the
        // replay is stored before the outage and the rest comes during (failed attempts,
        // retried) and after it.
        XCTAssertTrue(Readiness.wait { ((try? points(port: server.port)) ?? 0) > 0 }, "nothing stored within 60 s")
        let before = try points(port: server.port)
        XCTAssertLessThan(before, expected)
        try stop(server)
        // While the server is down, a stand-in on its port answers 503 and counts the replay's
        // attempts: the outage lasts until the replay has failed (and retried) twice. Retries
        // hold the replay back, so its records cannot be the clock here.
        let standIn = try MockHTTPServer(fallback: 503, port: UInt16(server.port))
        XCTAssertTrue(Readiness.wait { standIn.requests.count >= 2 }, "no attempt during the outage within 60 s")
        XCTAssertLessThan(records.lineCount, expected, "the replay is still going when the server is back")
        standIn.stopListening()
        server = try start(port: server.port, dir: server.dir)
        replay.waitUntilExit()
        let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
        XCTAssertEqual(replay.terminationStatus, 0, stderr)
        XCTAssertTrue(stderr.contains("\(expected) points delivered, 0 undelivered"), stderr)
        XCTAssertEqual(try points(port: server.port), expected, "every record exactly once across the outage")
    }

    func testBadCredentialsAreTheServersRefusalAfterOneAttempt() throws {
        guard ProcessInfo.processInfo.environment["AVTREPLAY_INFLUX_URL"] != nil else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                XCTFail("scripts/test starts InfluxDB")
            }
            throw XCTSkip("no InfluxDB: scripts/test runs this test (it starts a private influxd with authentication)")
        }
        let server = try start(port: freePort(), dir: nil, auth: ["INFLUX_USER": "admin", "INFLUX_PASSWORD": "s3cret"])
        defer {
            try? stop(server)
            try? FileManager.default.removeItem(atPath: server.dir)
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = [
            "run", "fixtures/happy-path.json", "--to", "influxdb://127.0.0.1:\(server.port)/restart",
            "--delivery-retry-delay", "60000", "--dead-letter", dir.appendingPathComponent("dead.jsonl").path,
        ]
        let started = Date()
        let wrong = try CLI.run(arguments, environment: ["INFLUX_USERNAME": "admin", "INFLUX_PASSWORD": "wrong"])
        XCTAssertEqual(wrong.status, 3, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("Reasons: HTTP 401: authorization failed"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("attempts"), wrong.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "a retry would have waited 60 s")
        let right = try CLI.run(arguments, environment: ["INFLUX_USERNAME": "admin", "INFLUX_PASSWORD": "s3cret"])
        XCTAssertEqual(right.status, 0, right.stderr)
        XCTAssertTrue(right.stderr.contains("33 points delivered, 0 undelivered"), right.stderr)
    }
}
