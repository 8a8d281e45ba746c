import Foundation
import XCTest

/// Against a real carbon-cache (scripts/test starts one and sets AVTREPLAY_CARBON_PORT and
/// AVTREPLAY_CARBON_WHISPER_DIR).
final class GraphiteServerTests: XCTestCase {
    private func server() throws -> (port: String, whisper: String) {
        let env = ProcessInfo.processInfo.environment
        if let port = env["AVTREPLAY_CARBON_PORT"], let whisper = env["AVTREPLAY_CARBON_WHISPER_DIR"] {
            return (port, whisper)
        }
        if env["AVTREPLAY_REQUIRE_TOOLS"] == "1" { XCTFail("no carbon: scripts/test starts one") }
        throw XCTSkip(
            "no carbon-cache: set AVTREPLAY_CARBON_PORT and AVTREPLAY_CARBON_WHISPER_DIR (scripts/test starts one)")
    }

    private func fetch(_ file: String, from: Int) throws -> [Int: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/whisper-fetch")
        process.arguments = ["--from=\(from)", file]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var values: [Int: Double] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            // whisper-fetch prints None for empty slots; those are not points.
            if fields.count == 2, let t = Int(fields[0]), let v = Double(fields[1]) { values[t] = v }
        }
        return values
    }

    func testEveryAggregatedValueArrivesInWhisper() throws {
        let (port, whisper) = try server()
        // Inside carbon's retention and in the past, so whisper shows every point at once; a
        // prefix of its own keeps this test's files apart.
        let start = (Int(Date().timeIntervalSince1970) - 600) * 1000
        let prefix = "t" + UUID().uuidString.prefix(8).lowercased()
        let arguments = ["run", "fixtures/happy-path.json", "--start-time", String(start), "--graphite-prefix", prefix]
        let expected = try CLI.run(arguments + ["--format", "graphite"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertFalse(expected.isEmpty)
        let sent = try CLI.run(arguments + ["--to", "graphite://127.0.0.1:\(port)"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stderr.contains("\(expected.count) points delivered, 0 undelivered"), sent.stderr)
        // Carbon writes about once a second: poll until every point is there (bounded).
        var missing: [String] = []
        for _ in 0..<40 {
            missing = try expected.filter { line in
                let fields = line.split(separator: " ")
                let file = whisper + "/" + fields[0].replacingOccurrences(of: ".", with: "/") + ".wsp"
                guard FileManager.default.fileExists(atPath: file) else { return true }
                return try fetch(file, from: start / 1000 - 10)[Int(fields[2])!] != Double(fields[1])!
            }
            if missing.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTAssertEqual(missing, [], "points not in whisper")
    }

    func testCarbonDownKeepsTheLinesForSend() throws {
        let (port, _) = try server()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let down = try CLI.run([
            "run", "fixtures/happy-path.json", "--to", "graphite://127.0.0.1:9", "--dead-letter", dead,
            "--delivery-attempts", "2",
            "--delivery-retry-delay", "5", "--end-time", "now",
        ])
        XCTAssertEqual(down.status, 3, down.stderr)
        let kept = try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(kept.count, 14)
        XCTAssertTrue(kept.allSatisfy { $0.contains(#""format":"graphite""#) })
        let send = try CLI.run(["send", dead, "--to", "graphite://127.0.0.1:\(port)"])
        XCTAssertEqual(send.status, 0, send.stderr)
        XCTAssertTrue(send.stderr.contains("14 delivered, 0 undelivered"), send.stderr)
    }

    /// Lines of `--format graphite` not (yet) in whisper with their value.
    private func missing(_ lines: [String], whisper: String, from: Int) throws -> [String] {
        try lines.filter { line in
            let fields = line.split(separator: " ")
            let file = whisper + "/" + fields[0].replacingOccurrences(of: ".", with: "/") + ".wsp"
            guard FileManager.default.fileExists(atPath: file) else { return true }
            return try fetch(file, from: from)[Int(fields[2])!] != Double(fields[1])!
        }
    }

    /// Polls (carbon writes about once a second) until every line is stored, or 10 s.
    private func waitStored(_ lines: [String], whisper: String, from: Int) throws -> [String] {
        var left = lines
        for _ in 0..<40 {
            left = try missing(left, whisper: whisper, from: from)
            if left.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return left
    }

    func testABackfillEndingNowStoresEveryLine() throws {
        let (port, whisper) = try server()
        // The documented example, `--end-time now`, with now fixed so both runs see the same lines.
        let end = String(Int(Date().timeIntervalSince1970) * 1000)
        let prefix = "e" + UUID().uuidString.prefix(8).lowercased()
        let arguments = ["run", "fixtures/happy-path.json", "--end-time", end, "--graphite-prefix", prefix]
        let expected = try CLI.run(arguments + ["--format", "graphite"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(expected.count, 14)
        let sent = try CLI.run(arguments + ["--to", "graphite://127.0.0.1:\(port)"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stderr.contains("14 points delivered, 0 undelivered"), sent.stderr)
        XCTAssertEqual(try waitStored(expected, whisper: whisper, from: Int(end)! / 1000 - 200), [])
    }

    func testPointsAheadOfNowWaitInTheDeadLetterFileUntilTheirTime() throws {
        let (port, whisper) = try server()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Six seconds with a metric in each: whisper refuses a point from the future.
        let timeline = dir.appendingPathComponent("six.json")
        try #"""
        {"trackers": [{"name": "content"}], "pingInterval": 0, "steps": [
          {"t": 0, "tracker": "content", "action": "MediaRequest"},
          {"t": 1000, "tracker": "content", "action": "StreamLoad"},
          {"t": 1100, "tracker": "content", "action": "Start"},
          {"t": 2000, "tracker": "content", "action": "BufferBegin"},
          {"t": 3000, "tracker": "content", "action": "BufferFinish"},
          {"t": 4000, "tracker": "content", "action": "PauseBegin"},
          {"t": 5000, "tracker": "content", "action": "PauseFinish"},
          {"t": 6000, "tracker": "content", "action": "End"}
        ]}
        """#.write(to: timeline, atomically: true, encoding: .utf8)
        let start = Int(Date().timeIntervalSince1970 * 1000)
        let prefix = "f" + UUID().uuidString.prefix(8).lowercased()
        let arguments = [
            "run", timeline.path, "--start-time", String(start), "--graphite-prefix", prefix, "--graphite-events",
        ]
        let expected = try CLI.run(arguments + ["--format", "graphite"]).stdout.split(separator: "\n").map(String.init)
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let run = try CLI.run(arguments + ["--to", "graphite://127.0.0.1:\(port)", "--dead-letter", dead])
        let after = Int(Date().timeIntervalSince1970)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("outside what carbon keeps (24 h ago to now)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("replay with --end-time now"), run.stderr)
        let kept = try DeadLetterLines.read(dead)
        // Exactly the points after now: none at or before the second the run began, all of them
        // after the second it ended.
        XCTAssertFalse(kept.isEmpty)
        XCTAssertTrue(kept.allSatisfy { Int($0.split(separator: " ")[2])! > start / 1000 }, "\(kept)")
        let sent = expected.filter { !kept.contains($0) }
        XCTAssertEqual(sent.count + kept.count, expected.count)
        XCTAssertTrue(sent.allSatisfy { Int($0.split(separator: " ")[2])! <= after }, "\(sent)")
        XCTAssertEqual(try waitStored(sent, whisper: whisper, from: start / 1000 - 10), [])
        // Once their time has passed, send stores them all.
        let last = expected.map { Int($0.split(separator: " ")[2])! }.max()!
        while Int(Date().timeIntervalSince1970) <= last { Thread.sleep(forTimeInterval: 0.2) }
        let send = try CLI.run([
            "send", dead, "--trust-destinations", "--dead-letter", dir.appendingPathComponent("again.jsonl").path,
        ])
        XCTAssertEqual(send.status, 0, send.stderr)
        XCTAssertTrue(send.stderr.contains("\(kept.count) delivered, 0 undelivered"), send.stderr)
        XCTAssertEqual(try waitStored(expected, whisper: whisper, from: start / 1000 - 10), [])
    }
}

/// The `line` of each entry of a dead-letter file.
enum DeadLetterLines {
    static func read(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            return try XCTUnwrap(object?["line"] as? String)
        }
    }
}
