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
            "--delivery-retry-delay", "5", "--start-time", "now",
        ])
        XCTAssertEqual(down.status, 3, down.stderr)
        let kept = try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(kept.count, 14)
        XCTAssertTrue(kept.allSatisfy { $0.contains(#""format":"graphite""#) })
        let send = try CLI.run(["send", dead, "--to", "graphite://127.0.0.1:\(port)"])
        XCTAssertEqual(send.status, 0, send.stderr)
        XCTAssertTrue(send.stderr.contains("14 delivered, 0 undelivered"), send.stderr)
    }
}
