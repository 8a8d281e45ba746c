import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Against a real InfluxDB 1.x (scripts/test starts one and sets AVTREPLAY_INFLUX_URL).
final class InfluxServerTests: XCTestCase {
    private var base: String {
        get throws {
            if let url = ProcessInfo.processInfo.environment["AVTREPLAY_INFLUX_URL"] { return url }
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                XCTFail("AVTREPLAY_INFLUX_URL is not set: scripts/test starts InfluxDB")
            }
            throw XCTSkip(
                "no InfluxDB: set AVTREPLAY_INFLUX_URL (scripts/test starts one with scripts/start-influxdb.sh)")
        }
    }

    private func query(_ q: String, db: String) throws -> String {
        var components = URLComponents(string: try base + "/query")!
        components.queryItems = [URLQueryItem(name: "db", value: db), URLQueryItem(name: "q", value: q)]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        let done = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var text = "" }
        let box = Box()
        URLSession.shared.dataTask(with: request) { data, _, _ in
            box.text = String(decoding: data ?? Data(), as: UTF8.self)
            done.signal()
        }.resume()
        done.wait()
        return box.text
    }

    /// A database of its own per test, so tests never see each other's points.
    private func freshDatabase() throws -> String {
        let name = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        _ = try query("CREATE DATABASE \(name)", db: name)
        return name
    }

    /// Points stored in both measurements (rows of `SELECT *`).
    private func count(_ db: String) throws -> Int {
        var total = 0
        for measurement in ["OAVT_EVENTS", "OAVT_METRICS"] {
            let text = try query("SELECT * FROM \(measurement)", db: db)
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let results = json?["results"] as? [[String: Any]] ?? []
            for series in results.flatMap({ $0["series"] as? [[String: Any]] ?? [] }) {
                total += (series["values"] as? [Any])?.count ?? 0
            }
        }
        return total
    }

    private func host() throws -> String { try base.replacingOccurrences(of: "http://", with: "") }

    func testEveryRecordOfManySessionsArrivesExactlyOnce() throws {
        let db = try freshDatabase()
        // Not the ExoPlayer fixture: its volume is a float (as upstream Android), the others'
        // an integer, and InfluxDB fixes a field's type per measurement (see the README).
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["happy-path", "preroll-ads", "avplayer-session", "ima-preroll", "html5-session"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name).json"),
                to: dir.appendingPathComponent("\(name).json"))
        }
        let expected = try CLI.run(["run", dir.path]).stdout.split(separator: "\n").count
        let result = try CLI.run(["run", dir.path, "--to", "influxdb://\(try host())/\(db)", "--jobs", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(expected) points delivered, 0 undelivered"), result.stderr)
        XCTAssertEqual(try count(db), expected, "each record is one point: none overwritten, none duplicated")
        // The same with gzip bodies (off by default to a loopback server): the server decodes them.
        let gzipped = try freshDatabase()
        let again = try CLI.run([
            "run", dir.path, "--to", "influxdb://\(try host())/\(gzipped)", "--influx-gzip", "always",
        ])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try count(gzipped), expected, "gzipped batches are stored the same")
    }

    func testServerDownThenSendDeliversTheDeadLetterFile() throws {
        let db = try freshDatabase()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let down = try CLI.run([
            "run", "fixtures/happy-path.json", "--to", "influxdb://127.0.0.1:9/\(db)", "--dead-letter", dead,
            "--delivery-attempts", "2", "--delivery-retry-delay", "5",
        ])
        XCTAssertEqual(down.status, 3, down.stderr)
        XCTAssertEqual(try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n").count, 33)
        let send = try CLI.run(["send", dead, "--to", "influxdb://\(try host())/\(db)"])
        XCTAssertEqual(send.status, 0, send.stderr)
        XCTAssertEqual(try count(db), 33)
    }

    func testARejectedPointIsKeptAndTheRestDelivered() throws {
        let db = try freshDatabase()
        // Make `bitrate` a float field first, in the replay's shard (InfluxDB fixes field types per
        // shard), so the replay's integer bitrate conflicts.
        var request = URLRequest(url: URL(string: try base + "/write?db=\(db)&precision=ms")!)
        request.httpMethod = "POST"
        request.httpBody = Data("OAVT_EVENTS,action=Seed bitrate=1.5 1772366400500\n".utf8)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        done.wait()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let result = try CLI.run([
            "run", "fixtures/happy-path.json", "--to", "influxdb://\(try host())/\(db)", "--dead-letter", dead,
        ])
        XCTAssertEqual(result.status, 3, result.stderr)
        let kept = try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n")
        XCTAssertFalse(kept.isEmpty)
        XCTAssertTrue(
            kept.allSatisfy { $0.contains("bitrate=") && $0.contains("field type conflict") },
            kept.joined(separator: "\n"))
        XCTAssertEqual(try count(db) - 1 + kept.count, 33, "delivered + kept = every record (the seed point aside)")
    }
}

/// A corpus-sized run against the real InfluxDB of scripts/test.
final class InfluxCorpusTests: XCTestCase {
    private func query(_ base: String, _ q: String, db: String) throws -> [String: Any] {
        var components = URLComponents(string: base + "/query")!
        components.queryItems = [URLQueryItem(name: "db", value: db), URLQueryItem(name: "q", value: q)]
        let data = try Data(contentsOf: components.url!)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Points per measurement: every event has accumBufferTime; every metric point one field.
    private func points(_ base: String, db: String) throws -> Int {
        var total = 0
        for (measurement, pick) in [("OAVT_EVENTS", "count(accumBufferTime)"), ("OAVT_METRICS", "count(*)")] {
            let json = try query(base, "SELECT \(pick) FROM \(measurement)", db: db)
            let series = ((json["results"] as? [[String: Any]])?.first?["series"] as? [[String: Any]])?.first
            let counts = ((series?["values"] as? [[Any]])?.first?.dropFirst().compactMap { $0 as? Int }) ?? []
            total += counts.reduce(0, +)
        }
        return total
    }

    func testHundredSessionsOfOverHundredThousandRecordsArriveExactlyOnce() throws {
        guard let base = ProcessInfo.processInfo.environment["AVTREPLAY_INFLUX_URL"] else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                XCTFail("scripts/test starts InfluxDB")
            }
            throw XCTSkip("no InfluxDB: set AVTREPLAY_INFLUX_URL (scripts/test starts one)")
        }
        let corpus = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: corpus) }
        // 100 sessions of 1,000 steps (generic and AVPlayer trackers): over 100,000 records.
        for seed in 1...100 {
            let gen = Process()
            gen.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gen.arguments = ["python3", "scripts/gen-timeline.py", "1000", "--seed", String(seed), "--format", "jsonl"]
            gen.currentDirectoryURL = CLI.packageRoot
            let file = corpus.appendingPathComponent(String(format: "s%03d.jsonl", seed))
            XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
            gen.standardOutput = try FileHandle(forWritingTo: file)
            try gen.run()
            gen.waitUntilExit()
        }
        let expected =
            try CLI.run(["run", corpus.path, "--jobs", "2", "--events-only"]).stdout.split(separator: "\n").count
            + CLI.run(["run", corpus.path, "--jobs", "2", "--metrics-only"]).stdout.split(separator: "\n").count
        XCTAssertGreaterThan(expected, 100_000)
        let db = "c" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        _ = try query(base, "CREATE DATABASE \(db)", db: db)
        let host = base.replacingOccurrences(of: "http://", with: "")
        let result = try CLI.run(["run", corpus.path, "--jobs", "2", "--to", "influxdb://\(host)/\(db)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(expected) points delivered, 0 undelivered"), result.stderr)
        XCTAssertEqual(try points(base, db: db), expected, "every record exactly once")
    }
}
