import Foundation
import XCTest

/// `--to` values through the command line: the words and exit codes users get for bad ones,
/// the same from `run` and `send`.
final class DestinationCommandTests: XCTestCase {
    private let timeline = "fixtures/happy-path.json"
    private let noCredentials = ["INFLUX_TOKEN": "", "NEW_RELIC_LICENSE_KEY": ""]

    func testBadDestinationsAreBadInputWithTheirReason() throws {
        let cases: [(String, String)] = [
            ("bogus", "unknown destination: expected stdout, file:PATH, influxdb://HOST:PORT/DB"),
            ("influxdb://h:1", "missing database: influxdb://HOST:PORT/DB"),
            ("influxdb2://h:1?org=o&bucket=b", "set INFLUX_TOKEN"),
            ("graphite+tcp://h", "expected graphite://HOST[:PORT] or graphite+udp://HOST[:PORT]"),
            ("newrelic://abc", "missing account id"),
            ("mediastream+ftp://h", "expected mediastream+http://HOST/PATH or mediastream+https://HOST/PATH"),
        ]
        for (destination, reason) in cases {
            let result = try CLI.run(["run", timeline, "--to", destination], environment: noCredentials)
            XCTAssertEqual(result.status, 2, destination)
            XCTAssertEqual(result.stdout, "", destination)
            XCTAssertTrue(result.stderr.contains("error: cannot write \(destination): "), result.stderr)
            XCTAssertTrue(result.stderr.contains(reason), result.stderr)
        }
    }

    func testOneStreamOnly() throws {
        for arguments in [["--to", "stdout", "--to", "file:/tmp/x"], ["--to", "stdout", "-o", "/tmp/x"]] {
            let result = try CLI.run(["run", timeline] + arguments)
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(
                result.stderr.contains("Give one of stdout, file:PATH or -o: records go to one file or stream."),
                result.stderr)
        }
    }

    func testStdoutAndFileDestinationsWriteTheStream() throws {
        let plain = try CLI.run(["run", timeline])
        XCTAssertEqual(try CLI.run(["run", timeline, "--to", "stdout"]).stdout, plain.stdout)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.jsonl").path
        let file = try CLI.run(["run", timeline, "--to", "file:" + path])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(file.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), plain.stdout)
    }

    func testSendRejectsADestinationOfAnotherKindForTheLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("send-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dead = directory.appendingPathComponent("dead.jsonl").path
        let entry = #"{"to":"influxdb://127.0.0.1:1/db","format":"influx/ms","reason":"r","line":"m v=1 1"}"# + "\n"
        try entry.write(toFile: dead, atomically: true, encoding: .utf8)
        let result = try CLI.run(["send", dead, "--to", "graphite://127.0.0.1:1"], in: directory)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains("error: cannot write graphite://127.0.0.1:1: expected influxdb://HOST:PORT/DB"),
            result.stderr)
        let unknown = #"{"to":"influxdb://127.0.0.1:1/db","format":"csv","reason":"r","line":"x"}"# + "\n"
        try unknown.write(toFile: dead, atomically: true, encoding: .utf8)
        let format = try CLI.run(["send", dead], in: directory)
        XCTAssertEqual(format.status, 2)
        XCTAssertTrue(format.stderr.contains("error: \(dead): unknown format \"csv\""), format.stderr)
    }

    // MARK: Dead letters are only added to

    func testTwoFailingRunsKeepBothRunsRecords() throws {
        // The default file in the working directory, as in a shell loop over sessions.
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = CLI.packageRoot.appendingPathComponent(timeline).path
        let down = ["--to", "influxdb://127.0.0.1:9/db", "--delivery-attempts", "1"]
        let first = try CLI.run(["run", fixture] + down, in: directory)
        XCTAssertEqual(first.status, 3, first.stderr)
        XCTAssertTrue(
            first.stderr.contains("33 records not delivered; kept in avtreplay-undelivered.jsonl"), first.stderr)
        XCTAssertTrue(first.stderr.contains("(after 1 attempt)"), first.stderr)
        // Up to t=180 the metrics are NumRequests and NumLoads: two records.
        let second = try CLI.run(["run", fixture, "--until", "180", "--metrics-only"] + down, in: directory)
        XCTAssertEqual(second.status, 3, second.stderr)
        XCTAssertTrue(
            second.stderr.contains(
                "2 records not delivered; added to avtreplay-undelivered.jsonl, which already held 33 records"),
            second.stderr)
        let kept = try String(
            contentsOf: directory.appendingPathComponent("avtreplay-undelivered.jsonl"), encoding: .utf8)
        XCTAssertEqual(kept.split(separator: "\n").count, 35)
    }

    func testParallelRunsAndJobsNeverInterleaveLines() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = directory.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        for name in ["happy-path", "preroll-ads", "avplayer-session", "ima-preroll", "html5-session"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name).json"),
                to: corpus.appendingPathComponent("\(name).json"))
        }
        let records = try CLI.run(["run", corpus.path]).stdout.split(separator: "\n").count
        let dead = directory.appendingPathComponent("dead.jsonl").path
        // Two runs at once, each with two jobs, into one file; batches of 3 make many small appends.
        let arguments = [
            "run", corpus.path, "--jobs", "2", "--to", "influxdb://127.0.0.1:9/db", "--delivery-attempts", "1",
            "--delivery-batch", "3", "--dead-letter", dead,
        ]
        let group = DispatchGroup()
        final class Box: @unchecked Sendable { var statuses: [Int32] = [] }
        let box = Box()
        let lock = NSLock()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let status = (try? CLI.run(arguments))?.status ?? -1
                lock.withLock { box.statuses.append(status) }
            }
        }
        group.wait()
        XCTAssertEqual(box.statuses, [3, 3])
        let lines = try String(contentsOfFile: dead, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.last, "", "the file ends with a whole line")
        let entries = lines.dropLast()
        XCTAssertEqual(entries.count, 2 * records)
        for entry in entries {
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(entry.utf8)), String(entry.prefix(200)))
        }
    }

    // MARK: --end-time

    /// The `time` of each record of a run.
    private func times(_ arguments: [String], stdin: String? = nil) throws -> [String] {
        let result = try CLI.run(["run"] + arguments, stdin: stdin)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try result.stdout.split(separator: "\n").map {
            let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            return try XCTUnwrap(object?["time"] as? String)
        }
    }

    func testEndTimePlacesTheLastInstantThere() throws {
        // happy-path.json ends at its until, 150 s: its first record (t=0) is 150 s before the end.
        let withUntil = try times([timeline, "--end-time", "2026-06-01T08:02:30Z"])
        XCTAssertEqual(withUntil.first, "2026-06-01T08:00:00.000Z")
        // --until overrides the document's.
        XCTAssertEqual(
            try times([timeline, "--end-time", "2026-06-01T08:00:10Z", "--until", "10000"]).first,
            "2026-06-01T08:00:00.000Z")
        // Without until, the last step: avplayer-session.json's is at t=140000, its last record there.
        let lastStep = try times(["fixtures/avplayer-session.json", "--end-time", "1780300800000"])
        XCTAssertEqual(lastStep.last, "2026-06-01T08:00:00.000Z")
        XCTAssertEqual(lastStep.first, "2026-06-01T07:57:40.000Z")
        // Each session of a folder is placed on its own: both end at the same instant.
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["happy-path", "avplayer-session"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name).json"),
                to: directory.appendingPathComponent("\(name).json"))
        }
        let folder = try CLI.run(["run", directory.path, "--end-time", "1780300800000", "--format", "graphite"])
        XCTAssertEqual(folder.status, 0, folder.stderr)
        var lastPerPrefix: [Substring: Int] = [:]
        for line in folder.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            lastPerPrefix[fields[0]] = max(lastPerPrefix[fields[0]] ?? 0, Int(fields[2])!)
        }
        XCTAssertEqual(lastPerPrefix.values.max(), 1_780_300_800)
        // Each session's paths carry its name, so carbon keeps both sessions' last seconds.
        XCTAssertEqual(
            Set(lastPerPrefix.keys.map { $0.split(separator: ".")[1] }), ["avplayer-session_json", "happy-path_json"])
        // Without it, sessions in path order, as if each were replayed alone.
        let shared = try CLI.run([
            "run", directory.path, "--end-time", "1780300800000", "--format", "graphite", "--no-session-label",
        ])
        let perSession = try ["avplayer-session", "happy-path"].map { name in
            try CLI.run(["run", "fixtures/\(name).json", "--end-time", "1780300800000", "--format", "graphite"]).stdout
        }
        XCTAssertEqual(shared.stdout, perSession.joined(), "as if each were replayed alone")
    }

    func testEndTimeOnStandardInputNeedsAnUntil() throws {
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/avplayer-session.json"), encoding: .utf8)
        let result = try CLI.run(["run", "-", "--end-time", "now"], stdin: text)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains(
                "--end-time needs the timeline's last instant, and standard input is read only once"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("--until MS"), result.stderr)
        // With an until it is known without reading further.
        XCTAssertEqual(
            try times(["-", "--end-time", "1780300800000", "--until", "140000"], stdin: text).last,
            "2026-06-01T08:00:00.000Z")
        let both = try CLI.run(["run", timeline, "--end-time", "now", "--start-time", "now"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("--start-time and --end-time exclude each other"), both.stderr)
        let bad = try CLI.run(["run", timeline, "--end-time", "soon"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--end-time expects ISO-8601"), bad.stderr)
    }

    func testSendTakesRunsDeliveryFlags() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dead = directory.appendingPathComponent("dead.jsonl").path
        let entry = #"{"to":"influxdb://127.0.0.1:9/db","format":"influx/ms","reason":"r","line":"m v=1i 1"}"# + "\n"
        try (entry + entry).write(toFile: dead, atomically: true, encoding: .utf8)
        // Re-sent into itself: what still fails replaces the file, nothing is doubled.
        let result = try CLI.run(
            [
                "send", dead, "--trust-destinations", "--dead-letter", dead, "--delivery-batch", "1",
                "--delivery-retry-delay", "1",
                "--delivery-attempts", "1", "--delivery-timeout", "2", "--influx-retention", "3650d",
                "--graphite-retention", "60",
            ], in: directory)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("2 records still not delivered; kept in \(dead)"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n").count, 2)
        let bad = try CLI.run(["send", dead, "--influx-retention", "a week"], in: directory)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--influx-retention expects a duration"), bad.stderr)
    }
}
