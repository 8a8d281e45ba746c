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

    /// The rows of one query's first series.
    private func rows(_ q: String, db: String) throws -> (columns: [String], values: [[Any]]) {
        let json = try JSONSerialization.jsonObject(with: Data(try query(q, db: db).utf8)) as? [String: Any]
        let series = ((json?["results"] as? [[String: Any]])?.first?["series"] as? [[String: Any]])?.first
        return (series?["columns"] as? [String] ?? [], series?["values"] as? [[Any]] ?? [])
    }

    /// `events` events carrying a 6,000-character title: 5,000 of them are a body over InfluxDB's
    /// 25 MB limit (`max-body-size`), 100 of them over the 64 KiB announced with Expect.
    private func bigTimeline(in dir: URL, events: Int = 6000) throws -> String {
        let title = String(repeating: "t", count: 6000)
        var steps = [#"{"t": 0, "tracker": "content", "set": {"title": "\#(title)"}}"#]
        steps += (1...events).map { #"{"t": \#($0), "tracker": "content", "action": "Ping"}"# }
        let text =
            #"{"startTime": "2026-03-01T12:00:00Z", "pingInterval": 0, "trackers": [{"name": "content"}], "steps": ["#
            + steps.joined(separator: ",\n") + "]}"
        let path = dir.appendingPathComponent("big.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testRefusalsAreReadAndNotRetried() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = try bigTimeline(in: dir, events: 600)
        let unknown = "nodb" + UUID().uuidString.prefix(8).lowercased()
        // A small body and one InfluxDB refuses before reading it (3.6 MB, announced with Expect).
        for (timeline, count) in [("fixtures/happy-path.json", 33), (big, 600)] {
            let started = Date()
            let result = try CLI.run([
                "run", timeline, "--to", "influxdb://\(try host())/\(unknown)", "--delivery-retry-delay", "60000",
                "--dead-letter", dir.appendingPathComponent("dead.jsonl").path,
            ])
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssertTrue(
                result.stderr.contains(#"Reasons: HTTP 404: database not found: "\#(unknown)""#), result.stderr)
            XCTAssertTrue(result.stderr.contains("\(count) records not delivered"), result.stderr)
            XCTAssertFalse(result.stderr.contains("attempts"), result.stderr)
            // A retry would have waited at least 30 s (60 s with ±50% jitter).
            XCTAssertLessThan(Date().timeIntervalSince(started), 30, "no retry")
        }
    }

    func testABodyOverTheServersLimitIsSplitUntilEveryPointLands() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = try bigTimeline(in: dir)
        let db = try freshDatabase()
        let result = try CLI.run([
            "run", big, "--to", "influxdb://\(try host())/\(db)", "--dead-letter",
            dir.appendingPathComponent("none.jsonl").path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("6000 points delivered, 0 undelivered"), result.stderr)
        XCTAssertEqual(try rows("SELECT count(title) FROM OAVT_EVENTS", db: db).values.first?[1] as? Int, 6000)
        // The same lines from a dead-letter file, through send with its default batch.
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let down = try CLI.run([
            "run", big, "--to", "influxdb://127.0.0.1:9/x", "--delivery-attempts", "1", "--dead-letter", dead,
        ])
        XCTAssertEqual(down.status, 3, down.stderr)
        let again = try freshDatabase()
        let send = try CLI.run([
            "send", dead, "--to", "influxdb://\(try host())/\(again)", "--dead-letter",
            dir.appendingPathComponent("again.jsonl").path,
        ])
        XCTAssertEqual(send.status, 0, send.stderr)
        XCTAssertTrue(send.stderr.contains("6000 delivered, 0 undelivered"), send.stderr)
        XCTAssertEqual(try rows("SELECT count(title) FROM OAVT_EVENTS", db: again).values.first?[1] as? Int, 6000)
    }

    func testEveryNameAndValueRoundTripsAsTheRulesSay() throws {
        let db = try freshDatabase()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Each name is an attribute (a field key); the same texts are also values of the tag `tv`
        // and of the string field `title`, and `a\b` is the tracker (a tag).
        let texts = [
            #"a\b"#, #"ab\"#, #"a\,b"#, "a,b", "a=b", "a b", "a\tb", "a\"b", #"a\"b"#, #"a\ b"#, #"a\=b"#, "nl\nx",
            "cr\rx", #"z\\"#,
        ]
        func json(_ text: String) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: [text], options: []), as: UTF8.self)
                .dropFirst().dropLast().description
        }
        var steps = [
            #"{"t": 0, "tracker": "a\\b", "set": {"#
                + (try texts.enumerated().map { try json($1) + ": \($0)" })
                .joined(separator: ", ") + #", "time": 7}, "action": "MediaRequest"}"#
        ]
        for (n, text) in texts.enumerated() {
            steps.append(
                #"{"t": \#(n + 1), "tracker": "a\\b", "set": {"tv": \#(try json(text)), "title": \#(try json(text))}, "action": "Ping"}"#
            )
        }
        let timeline = dir.appendingPathComponent("names.json")
        try
            (#"{"startTime": 1000000, "pingInterval": 0, "trackers": [{"name": "a\\b"}], "steps": ["#
            + steps.joined(separator: ",\n") + "]}").write(to: timeline, atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "run", timeline.path, "--to", "influxdb://\(try host())/\(db)", "--influx-tags", "action,tracker,tv",
            "--dead-letter", dir.appendingPathComponent("dead.jsonl").path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Attributes stay on the tracker: all 15 events carry the names, each warned about once.
        XCTAssertTrue(
            result.stderr.contains("15 InfluxDB points have a name line protocol cannot carry"), result.stderr)
        XCTAssertTrue(result.stderr.contains("15 InfluxDB points have a field named time"), result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "warning:").count, 3, result.stderr)
        // Field keys: exact, except what the documented rules replace.
        let keys = Set(try rows("SHOW FIELD KEYS FROM OAVT_EVENTS", db: db).values.compactMap { $0.first as? String })
        for text in texts {
            let stored: String
            switch text {
            case #"ab\"#, #"z\\"#: stored = text + "_"
            case #"a\,b"#, #"a\"b"#, #"a\ b"#, #"a\=b"#: stored = #"a\_"# + text.dropFirst(2)
            case "nl\nx": stored = #"nl\nx"#
            case "cr\rx": stored = #"cr\rx"#
            default: stored = text
            }
            XCTAssertTrue(
                keys.contains(stored),
                "field key \(text.debugDescription) stored as \(stored.debugDescription): \(keys)")
        }
        XCTAssertTrue(keys.contains("time_"))
        // Tag values: exact, except a trailing backslash and line ends.
        let tags = Set(
            try rows(#"SHOW TAG VALUES WITH KEY = "tv""#, db: db).values.compactMap {
                $0.count > 1 ? $0[1] as? String : nil
            })
        for text in texts {
            let stored =
                text.hasSuffix("\\")
                ? text + "_"
                : text.replacingOccurrences(of: "\n", with: #"\n"#)
                    .replacingOccurrences(of: "\r", with: #"\r"#)
            XCTAssertTrue(tags.contains(stored), "tag value \(text.debugDescription): \(tags)")
        }
        let trackers = try rows(#"SHOW TAG VALUES WITH KEY = "tracker""#, db: db).values.compactMap { $0[1] as? String }
        XCTAssertEqual(trackers, [#"a\b"#])
        // String values: every text exactly, newlines included.
        let titles = Set(try rows("SELECT title FROM OAVT_EVENTS", db: db).values.compactMap { $0[1] as? String })
        XCTAssertEqual(titles, Set(texts))
    }

    func testCompatSendsNanosecondsAndCountsOverwrittenPoints() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // No startTime: t=0 is 1970-01-01T00:00:00Z, so the second step belongs at 100 ms.
        let timeline = dir.appendingPathComponent("1970.json")
        try #"""
        {"pingInterval": 0, "trackers": [{"name": "content"}], "steps": [
          {"t": 0, "tracker": "content", "action": "MediaRequest"},
          {"t": 100, "tracker": "content", "action": "StreamLoad"}
        ]}
        """#.write(to: timeline, atomically: true, encoding: .utf8)
        let db = try freshDatabase()
        let dead = dir.appendingPathComponent("dead.jsonl").path
        let epoch = try CLI.run([
            "run", timeline.path, "--influx-compat", "--to", "influxdb://\(try host())/\(db)", "--dead-letter", dead,
        ])
        XCTAssertEqual(epoch.status, 0, epoch.stderr)
        let times = try rows(#"SELECT "action" FROM OAVT_EVENTS"#, db: db).values.compactMap { $0.first as? String }
        XCTAssertEqual(times, ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00.1Z"])
        // A dated timeline is accepted; points of one instant overwrite each other (no tags), and
        // the run says how many instead of counting them delivered.
        let dated = try freshDatabase()
        let result = try CLI.run([
            "run", "fixtures/happy-path.json", "--influx-compat", "--to", "influxdb://\(try host())/\(dated)",
            "--dead-letter", dead,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let stored = try count(dated)
        XCTAssertTrue(
            result.stderr.contains(
                "\(stored) points delivered, \(33 - stored) overwritten by a later point of the same instant"),
            "\(stored) stored: \(result.stderr)")
        XCTAssertLessThan(stored, 33)
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

    func testTwentyFourSessionsOfOverTwentyFourThousandRecordsArriveExactlyOnce() throws {
        guard let base = ProcessInfo.processInfo.environment["AVTREPLAY_INFLUX_URL"] else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                XCTFail("scripts/test starts InfluxDB")
            }
            throw XCTSkip("no InfluxDB: set AVTREPLAY_INFLUX_URL (scripts/test starts one)")
        }
        let corpus = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: corpus) }
        // 24 sessions of 1,000 steps (generic and AVPlayer trackers): over 24,000 records, in
        // many batches from two jobs at once.
        for seed in 1...24 {
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
        XCTAssertGreaterThan(expected, 24_000)
        let db = "c" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        _ = try query(base, "CREATE DATABASE \(db)", db: db)
        let host = base.replacingOccurrences(of: "http://", with: "")
        let result = try CLI.run(["run", corpus.path, "--jobs", "2", "--to", "influxdb://\(host)/\(db)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(expected) points delivered, 0 undelivered"), result.stderr)
        XCTAssertEqual(try points(base, db: db), expected, "every record exactly once")
    }
}
