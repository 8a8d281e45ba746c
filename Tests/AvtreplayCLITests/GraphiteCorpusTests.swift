import Foundation
import XCTest

/// A folder of 50 generated sessions against a real carbon-cache (scripts/test starts one and
/// sets AVTREPLAY_CARBON_PORT and AVTREPLAY_CARBON_WHISPER_DIR): what the run calls delivered is
/// what carbon keeps, counted back from its whisper files.
final class GraphiteCorpusTests: XCTestCase {
    private static let sessions = 50

    private func server() throws -> (port: String, whisper: String) {
        let env = ProcessInfo.processInfo.environment
        if let port = env["AVTREPLAY_CARBON_PORT"], let whisper = env["AVTREPLAY_CARBON_WHISPER_DIR"] {
            return (port, whisper)
        }
        if env["AVTREPLAY_REQUIRE_TOOLS"] == "1" { XCTFail("no carbon: scripts/test starts one") }
        throw XCTSkip(
            "no carbon-cache: set AVTREPLAY_CARBON_PORT and AVTREPLAY_CARBON_WHISPER_DIR (scripts/test starts one)")
    }

    /// Every value stored under `directory` since `from` (epoch s), by the path below it
    /// (`session/Metric`): read by whisper's own module, in one process for all files.
    private func stored(under directory: String, from: Int) throws -> [String: [Int: Double]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            """
            import os, sys, whisper
            root, start = sys.argv[1], int(sys.argv[2])
            for folder, _, files in os.walk(root):
                for name in files:
                    if not name.endswith(".wsp"): continue
                    path = os.path.join(folder, name)
                    (first, _, step), values = whisper.fetch(path, start)
                    for i, value in enumerate(values):
                        if value is not None:
                            print("%s\\t%d\\t%r" % (os.path.relpath(path, root)[:-4], first + i * step, value))
            """,
            directory, String(from),
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var values: [String: [Int: Double]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let t = Int(fields[1]), let v = Double(fields[2]) else { continue }
            values[String(fields[0]), default: [:]][t] = v
        }
        return values
    }

    /// Polls (carbon writes about once a second) until `count` values are stored, or 20 s.
    private func waitStored(_ count: Int, under directory: String, from: Int) throws -> [String: [Int: Double]] {
        var values: [String: [Int: Double]] = [:]
        for _ in 0..<80 {
            values = try stored(under: directory, from: from)
            if values.values.map(\.count).reduce(0, +) >= count { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return values
    }

    private func delivered(_ stderr: String) -> (delivered: Int, overwritten: Int)? {
        let pattern = #/: (\d+) points? delivered, (?:(\d+) overwritten[^,]*, )?0 undelivered/#
        guard let match = stderr.firstMatch(of: pattern), let n = Int(match.1) else { return nil }
        return (n, match.2.flatMap { Int($0) } ?? 0)
    }

    func testEverySessionOfAFolderEndingNowIsKeptWhole() throws {
        let (port, whisper) = try server()
        let corpus = try GeneratedCorpus.make(count: Self.sessions, steps: 60)
        defer { try? FileManager.default.removeItem(at: corpus) }
        // Every session ends at the same second: the sessions' last values share their times.
        let end = Int(Date().timeIntervalSince1970) * 1000
        let prefix = "f" + UUID().uuidString.prefix(8).lowercased()
        let arguments = ["run", corpus.path, "--end-time", String(end), "--jobs", "2"]
        let records = try CLI.run(arguments + ["--metrics-only"])
        XCTAssertEqual(records.status, 0, records.stderr)
        let counted = try GeneratedCorpus.counterTotals(records.stdout)
        XCTAssertGreaterThan(counted["NumRequests"] ?? 0, 0)

        let sent = try CLI.run(
            arguments + ["--to", "graphite://127.0.0.1:\(port)", "--graphite-prefix", prefix])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        let delivered = try XCTUnwrap(delivered(sent.stderr), sent.stderr)
        XCTAssertEqual(delivered.overwritten, 0, sent.stderr)

        let values = try waitStored(delivered.delivered, under: whisper + "/" + prefix, from: end / 1000 - 3600)
        XCTAssertEqual(values.values.map(\.count).reduce(0, +), delivered.delivered, "delivered = kept by carbon")
        // One path per session and metric: the session is a path component.
        XCTAssertEqual(Set(values.keys.map { $0.split(separator: "/").first! }).count, Self.sessions)
        // What the sessions counted is what carbon adds up, counter by counter.
        var kept: [String: Double] = [:]
        for (path, points) in values {
            kept[String(path.split(separator: "/").last!), default: 0] += points.values.reduce(0, +)
        }
        for (name, total) in counted { XCTAssertEqual(kept[name], total, name) }
    }

    /// `send` too: a dead-letter file holding two values of one path and second delivers one;
    /// the other is counted overwritten, and carbon holds one value.
    func testSendCountsAPathAndSecondSentTwiceAsOverwritten() throws {
        let (port, whisper) = try server()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let prefix = "d" + UUID().uuidString.prefix(8).lowercased()
        let now = Int(Date().timeIntervalSince1970) - 60
        let entries = ["\(prefix).NumPlays 1 \(now)", "\(prefix).NumPlays 2 \(now)", "\(prefix).NumPlays 3 \(now + 1)"]
            .map {
                #"{"to":"graphite://127.0.0.1:9","format":"graphite","reason":"down","line":"\#($0)"}"#
            }
        XCTAssertTrue(
            FileManager.default.createFile(atPath: dead, contents: Data((entries.joined(separator: "\n") + "\n").utf8)))
        let send = try CLI.run([
            "send", dead, "--to", "graphite://127.0.0.1:\(port)", "--dead-letter", dir.path + "/again.jsonl",
        ])
        XCTAssertEqual(send.status, 3, send.stderr)
        XCTAssertTrue(
            send.stderr.contains(
                "2 delivered, 1 overwritten by a later point of the same path and second, 0 undelivered"),
            send.stderr)
        let values = try waitStored(2, under: whisper + "/" + prefix, from: now - 60)
        XCTAssertEqual(values["NumPlays"]?.count, 2, "carbon holds one value per second: \(values)")
    }

    func testSessionsSharingPathsAreCountedOverwrittenNotDelivered() throws {
        let (port, whisper) = try server()
        let corpus = try GeneratedCorpus.make(count: Self.sessions, steps: 60)
        defer { try? FileManager.default.removeItem(at: corpus) }
        let end = Int(Date().timeIntervalSince1970) * 1000
        let prefix = "o" + UUID().uuidString.prefix(8).lowercased()
        let sent = try CLI.run([
            "run", corpus.path, "--end-time", String(end), "--jobs", "2", "--no-session-label",
            "--to", "graphite://127.0.0.1:\(port)", "--graphite-prefix", prefix,
        ])
        XCTAssertEqual(sent.status, 3, "not all were kept: \(sent.stderr)")
        XCTAssertTrue(sent.stderr.contains("overwritten: carbon keeps one value per path and second"), sent.stderr)
        let counts = try XCTUnwrap(delivered(sent.stderr), sent.stderr)
        XCTAssertGreaterThan(counts.overwritten, 0, sent.stderr)
        let values = try waitStored(counts.delivered, under: whisper + "/" + prefix, from: end / 1000 - 3600)
        XCTAssertEqual(values.values.map(\.count).reduce(0, +), counts.delivered, "delivered = kept by carbon")
    }
}
