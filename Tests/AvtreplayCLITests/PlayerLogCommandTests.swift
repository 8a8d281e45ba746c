import Foundation
import XCTest

/// Players' own logs through every command that reads timelines: detected from the content,
/// warned about on stderr, converted into a timeline that replays the same, kept as a golden case.
final class PlayerLogCommandTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    private static let logs = [
        "exoplayer-media3-threadtime.log", "exoplayer-2.11-studio-classic.log", "exoplayer-2.9-brief.log",
        "exoplayer-2.7-bare.log", "exoplayer-studio-midsession-cut.log", "exoplayer-interleaved-sessions.log",
        "chrome-save-log.json", "chrome-players-map-cut.json", "chrome-table-old.txt", "chrome-table-tabs.txt",
        "avplayer-accesslog.log",
    ]

    /// Each log replays, deterministically, exactly like the timeline `convert` derives from it.
    func testEveryLogReplaysLikeItsConvertedTimeline() throws {
        for log in Self.logs {
            let input = "fixtures/player-logs/\(log)"
            let replayed = try CLI.run(["run", input])
            XCTAssertEqual(replayed.status, 0, "\(log): \(replayed.stderr)")
            XCTAssertFalse(replayed.stdout.isEmpty, log)
            XCTAssertEqual(try CLI.run(["run", input]).stdout, replayed.stdout, "\(log): deterministic")
            for ext in ["jsonl", "csv", "json"] {
                let timeline = path("\(log).\(ext)")
                let converted = try CLI.run(["convert", input, timeline])
                XCTAssertEqual(converted.status, 0, "\(log) → \(ext): \(converted.stderr)")
                let again = try CLI.run(["run", timeline])
                XCTAssertEqual(again.status, 0, "\(log) → \(ext): \(again.stderr)")
                XCTAssertEqual(again.stdout, replayed.stdout, "\(log) → \(ext)")
                XCTAssertEqual(again.stderr, "", "a derived timeline is clean")
            }
        }
    }

    func testWarningsGoToStandardErrorAndTheReplayGoesOn() throws {
        let result = try CLI.run(["kpi", "fixtures/player-logs/exoplayer-studio-midsession-cut.log"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("startupTime"))
        XCTAssertTrue(
            result.stderr.contains(
                "avtreplay: warning: fixtures/player-logs/exoplayer-studio-midsession-cut.log:11: cut before its closing ], skipped: "
            ), result.stderr)
    }

    /// `--end-time` reads a log once more to find its last step; what the reader warns of is
    /// said once, by the replay's own read.
    func testEndTimeWarnsOnce() throws {
        let log = "fixtures/player-logs/exoplayer-studio-midsession-cut.log"
        let result = try CLI.run(["run", log, "--end-time", "2026-06-01T08:00:00Z"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "cut before its closing ]").count - 1, 1, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "the log starts mid-session").count - 1, 1, result.stderr)
    }

    /// A log that starts mid-session has no startup (`–`), and keeps none through `convert`: the
    /// converted timeline carries the `midSession` mark, so its KPIs are the log's (a golden case
    /// keeps them). Only the session name and the playback id, made from it, differ.
    func testAMidSessionLogHasNoStartupBeforeOrAfterConversion() throws {
        let log = "fixtures/player-logs/exoplayer-studio-midsession-cut.log"
        let table = try CLI.run(["kpi", log])
        XCTAssertEqual(table.status, 0, table.stderr)
        let startup = try XCTUnwrap(table.stdout.split(separator: "\n").first { $0.hasPrefix("startupTime") })
        XCTAssertEqual(startup.split(separator: " ").suffix(2), ["–", "–"], String(startup))
        XCTAssertTrue(table.stderr.contains("its startup is not in the log"), table.stderr)
        for ext in ["jsonl", "json"] {
            let timeline = path("midsession.\(ext)")
            XCTAssertEqual(try CLI.run(["convert", log, timeline]).status, 0)
            XCTAssertTrue(try String(contentsOfFile: timeline, encoding: .utf8).contains(#""midSession":true"#))
            for definitions in ["openavt", "exoplayer", "cta", "mux"] {
                let fromLog = try CLI.run(["kpi", log, "--format", "json", "--definitions", definitions])
                let converted = try CLI.run(["kpi", timeline, "--format", "json", "--definitions", definitions])
                XCTAssertEqual(converted.status, 0, converted.stderr)
                XCTAssertEqual(try Self.kpis(converted.stdout), try Self.kpis(fromLog.stdout), "\(ext) \(definitions)")
                // Named in the units, never given a value.
                XCTAssertNil(converted.stdout.firstMatch(of: /"startupTime":[0-9]/), converted.stdout)
            }
        }
    }

    /// The sessions' totals and playbacks of `kpi --format json`, without the session name and
    /// the playback ids (which follow from the name).
    private static func kpis(_ json: String) throws -> NSDictionary {
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let session = try XCTUnwrap((root["sessions"] as? [[String: Any]])?.first)
        let playbacks = try XCTUnwrap(session["playbacks"] as? [[String: Any]]).map { playback in
            playback.filter { $0.key != "playbackId" }
        }
        return ["totals": session["totals"] ?? [:], "playbacks": playbacks] as NSDictionary
    }

    /// A `midSession` that is not `true` is bad input, located like any observation.
    func testABadMidSessionValueIsBadInput() throws {
        let timeline = path("bad.json")
        try #"""
        {"trackers": [{"name": "p", "kind": "exoplayer"}],
         "steps": [{"t": 0, "tracker": "p", "observe": {"midSession": "yes"}}]}
        """#.write(toFile: timeline, atomically: true, encoding: .utf8)
        for command in ["run", "kpi"] {
            let result = try CLI.run([command, timeline])
            XCTAssertEqual(result.status, 2, command)
            XCTAssertEqual(
                result.stderr,
                "avtreplay: error: \(timeline):2:63: steps[0].observe.midSession: expected true, found \"yes\"\n",
                command)
        }
    }

    func testStandardInputIsDetectedFromTheContent() throws {
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/player-logs/chrome-table-tabs.txt"),
            encoding: .utf8)
        let result = try CLI.run(["kpi", "-", "--format", "json"], stdin: text)
        XCTAssertEqual(result.status, 0, result.stderr)
        // Start at 870, the kLoad at 3.
        XCTAssertTrue(result.stdout.contains("\"startupTime\":867"), result.stdout)
    }

    func testAForcedFormatThatMatchesNothingIsBadInputNamingTheFile() throws {
        for format in ["exoplayer-log", "chrome-media-log", "avplayer-accesslog"] {
            let result = try CLI.run(["run", "--input-format", format, "fixtures/happy-path.json"])
            XCTAssertEqual(result.status, 2, format)
            XCTAssertTrue(result.stderr.hasPrefix("avtreplay: error: fixtures/happy-path.json: no "), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one message: \(result.stderr)")
        }
    }

    func testAGoldenCaseOfALog() throws {
        let log = path("session.log")
        try FileManager.default.copyItem(
            atPath: CLI.packageRoot.appendingPathComponent("fixtures/player-logs/exoplayer-2.9-brief.log").path,
            toPath: log)
        let update = try CLI.run(["check", log, "--update"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("session.log.expected.jsonl")))
        let check = try CLI.run(["check", log])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let replay = try CLI.run(["run", log])
        let diff = try CLI.run(["diff", path("session.log.expected.jsonl"), "-"], stdin: replay.stdout)
        XCTAssertEqual(diff.status, 0, diff.stdout)
        let report = try CLI.run(["report", log, "-o", path("report.html")])
        XCTAssertEqual(report.status, 0, report.stderr)
        let html = try String(contentsOfFile: path("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("session.log"))
    }

    func testAFolderReplaysItsPlayerLogsAndLeavesOtherTextAlone() throws {
        for name in ["exoplayer-2.9-brief.log", "chrome-table-tabs.txt"] {
            try FileManager.default.copyItem(
                atPath: CLI.packageRoot.appendingPathComponent("fixtures/player-logs/\(name)").path, toPath: path(name))
        }
        try "notes about the session\n".write(toFile: path("README.txt"), atomically: true, encoding: .utf8)
        try "build log: ok\n".write(toFile: path("build.log"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["kpi", dir.path, "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("exoplayer-2.9-brief.log"), result.stdout)
        XCTAssertTrue(result.stdout.contains("chrome-table-tabs.txt"), result.stdout)
        XCTAssertFalse(result.stdout.contains("README.txt"), result.stdout)
        XCTAssertFalse(result.stdout.contains("build.log"), result.stdout)
    }

    func testConvertNamesThePlayerFormats() throws {
        let result = try CLI.run([
            "convert", "--input-format", "avplayer-accesslog", "fixtures/player-logs/avplayer-accesslog.log", "-",
            "--output-format", "jsonl",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"kind\":\"avplayer\""), result.stdout)
        let refused = try CLI.run(["convert", "fixtures/happy-path.json", "-", "--output-format", "exoplayer-log"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
    }
}

/// `--input-format` on `report` and `check`, as on `run`, `kpi` and `convert`: every input is read
/// as the format given (the content is not sniffed), and an input not in it is bad input.
final class PlayerLogInputFormatTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// An EventLogger log saved as `.csv`: detection goes by the content, the flag forces it.
    private func logAsCSV() throws -> String {
        let log = path("session.csv")
        try FileManager.default.copyItem(
            atPath: CLI.packageRoot.appendingPathComponent("fixtures/player-logs/exoplayer-2.9-brief.log").path,
            toPath: log)
        return log
    }

    func testCheckReadsTheFormatGiven() throws {
        let log = try logAsCSV()
        let update = try CLI.run(["check", log, "--input-format", "exoplayer-log", "--update"])
        XCTAssertEqual(update.status, 0, update.stderr)
        let golden = path("session.expected.jsonl")
        XCTAssertTrue(FileManager.default.fileExists(atPath: golden))
        let check = try CLI.run(["check", log, "--input-format", "exoplayer-log"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        // The golden file is what `run` prints for the same log and format.
        let run = try CLI.run(["run", log, "--input-format", "exoplayer-log"])
        XCTAssertEqual(try String(contentsOfFile: golden, encoding: .utf8), run.stdout)
        // A format the file is not in: bad input, naming the file.
        let wrong = try CLI.run(["check", log, "--input-format", "chrome-media-log"])
        XCTAssertEqual(wrong.status, 2, wrong.stdout + wrong.stderr)
        XCTAssertTrue((wrong.stdout + wrong.stderr).contains("\(log): no Chrome media-internals entries"), wrong.stderr)
    }

    func testReportReadsTheFormatGiven() throws {
        let log = try logAsCSV()
        let html = path("report.html")
        let report = try CLI.run(["report", log, "--input-format", "exoplayer-log", "-o", html])
        XCTAssertEqual(report.status, 0, report.stderr)
        let text = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(text.contains("session.csv"), "the session is named by its path")
        let wrong = try CLI.run(["report", log, "--input-format", "avplayer-accesslog", "-o", path("x.html")])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.hasPrefix("avtreplay: error: \(log): no AVPlayer access log"), wrong.stderr)
        let both = try CLI.run(["report", log, "--from-events", "--input-format", "exoplayer-log", "-o", html])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("give one of them"), both.stderr)
    }
}
