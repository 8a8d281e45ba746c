import Foundation
import XCTest

/// `avtreplay convert` end to end: lossless conversions, stdin/stdout, `--tracker`, located
/// errors with exit 2 and no half-written output.
final class ConvertCommandTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    private func write(_ text: String, _ name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Every fixture, through JSON → CSV → JSONL → JSON with the binary, replays byte for byte like
    /// the original, from every intermediate file.
    func testConvertedFixturesReplayIdentically() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(
            atPath: CLI.packageRoot.appendingPathComponent("fixtures").path
        )
        .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(fixtures.count, 2)
        for fixture in fixtures {
            let original = try CLI.run(["run", "fixtures/\(fixture)"])
            XCTAssertEqual(original.status, 0, original.stderr)
            var input = "fixtures/\(fixture)"
            for (n, ext) in ["csv", "jsonl", "json"].enumerated() {
                let output = path("\(n)-\(fixture).\(ext)")
                let converted = try CLI.run(["convert", input, output])
                XCTAssertEqual(converted.status, 0, "\(fixture) → \(ext): \(converted.stderr)")
                XCTAssertEqual(converted.stdout, "")
                XCTAssertEqual(converted.stderr, "")
                let replayed = try CLI.run(["run", output])
                XCTAssertEqual(replayed.status, 0, replayed.stderr)
                XCTAssertEqual(replayed.stdout, original.stdout, "\(fixture) as \(ext) replays differently")
                input = output
            }
        }
    }

    func testStandardInputAndOutput() throws {
        let json = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"), encoding: .utf8)
        let csv = try CLI.run(["convert", "-", "-", "--output-format", "csv"], stdin: json)
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(csv.stdout.hasPrefix("#avtreplay {\"startTime\":\"2026-03-01T12:00:00.000Z\""), csv.stdout)
        XCTAssertTrue(csv.stdout.contains("\nt,tracker,action,set.bitrate,"))
        // CSV on stdin is detected from the content.
        let back = try CLI.run(["convert", "-", "-", "--output-format", "jsonl"], stdin: csv.stdout)
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(back.stdout.split(separator: "\n").count, 18)

        let missing = try CLI.run(["convert", "fixtures/happy-path.json", "-"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("Writing to standard output needs --output-format"), missing.stderr)
        let unknown = try CLI.run(["convert", "fixtures/happy-path.json", path("out.txt")])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("Cannot tell the output format"), unknown.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.txt")))
    }

    func testTrackerFlagsDeclareTheTrackersOfAPlainCSV() throws {
        let csv = try write(
            """
            t,tracker,action,set.adId
            0,content,StreamLoad,
            100,ads,AdBreakBegin,ad-1
            200,ads,AdBegin,
            """, "plain.csv")
        let result = try CLI.run([
            "convert", csv, path("out.json"), "--tracker", "content", "--tracker", "ads=generic,ads,no-init",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try String(contentsOfFile: path("out.json"), encoding: .utf8)
        XCTAssertTrue(
            json.contains(
                #""trackers": [{"name":"content","kind":"generic","isAdsTracker":false,"emitTrackerInit":false}, {"name":"ads","kind":"generic","isAdsTracker":true,"emitTrackerInit":false}]"#
            ),
            json)
        let replay = try CLI.run(["run", path("out.json")])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertTrue(replay.stdout.contains(#""action":"AdBegin","tracker":"ads""#))

        // Without --tracker, the message says how to declare the tracker.
        let undeclared = try CLI.run(["convert", csv, path("undeclared.json")])
        XCTAssertEqual(undeclared.status, 2)
        XCTAssertTrue(
            undeclared.stderr.hasPrefix(
                "avtreplay: error: \(csv):2:3: field \"tracker\": unknown tracker \"content\": no trackers are declared; declare trackers with --tracker content=KIND"
            ),
            undeclared.stderr)

        // A file with a #avtreplay line keeps its own trackers.
        let ignored = try CLI.run(["convert", path("out.json"), path("again.csv"), "--tracker", "x"])
        XCTAssertEqual(ignored.status, 0, ignored.stderr)
        XCTAssertTrue(
            ignored.stderr.contains("warning: --tracker ignored: it applies to CSV timelines only"), ignored.stderr)
        let declared = try CLI.run(["convert", path("again.csv"), path("again.jsonl"), "--tracker", "x"])
        XCTAssertEqual(declared.status, 0, declared.stderr)
        XCTAssertTrue(declared.stderr.contains("declares its trackers in its #avtreplay line"), declared.stderr)
    }

    func testBadTrackerFlags() throws {
        let csv = try write("t,tracker,action\n0,content,Start\n", "plain.csv")
        let cases: [([String], String)] = [
            (["--tracker", "content=vlc"], "unknown tracker kind 'vlc'"),
            (["--tracker", "=avplayer"], "has no name"),
            (["--tracker", "content=avplayer,loud"], "unknown option 'loud'"),
            (["--tracker", "content", "--tracker", "content=ima"], "is declared twice"),
        ]
        for (flags, expected) in cases {
            let result = try CLI.run(["convert", csv, path("out.json")] + flags)
            XCTAssertEqual(result.status, 2, "\(flags)")
            XCTAssertTrue(result.stderr.contains(expected), "\(flags): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.json")))
        }
    }

    func testBadInputExitsTwoAndLeavesNoOutput() throws {
        let target = path("existing.jsonl")
        try "previous contents\n".write(toFile: target, atomically: true, encoding: .utf8)
        let cases: [(String, String, String)] = [
            (
                "bad.csv", "t,tracker,action,set.position\n0,content,Start,\n5,content,Start,\"{\"\"a\"\":1}\"\n",
                ":3:17: field \"set.position\": expected a string, number, boolean or null, found an object"
            ),
            (
                "order.csv", "t,tracker,action\n500,content,Start\n400,content,End\n",
                ":3:1: field \"t\": t 400 is earlier than the previous row's t 500"
            ),
            ("header.csv", "t,tracker,actoin\n", ":1:11: header: unknown column \"actoin\""),
            ("quote.csv", "t,tracker,action\n0,content,\"Start\n", ":2:11: unterminated quoted field"),
            (
                "late.jsonl",
                "{\"trackers\": [{\"name\": \"content\"}]}\n{\"t\": 0, \"tracker\": \"content\", \"action\": \"Start\"}\n{\"t\": \"x\"}\n",
                ":3:7: steps[1].t: expected an integer"
            ),
        ]
        for (name, text, expected) in cases {
            let input = try write(text, name)
            let trackers = name.hasSuffix(".csv") ? ["--tracker", "content"] : []
            let result = try CLI.run(["convert", input, target] + trackers)
            XCTAssertEqual(result.status, 2, name)
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("avtreplay: error: \(input)"), result.stderr)
            XCTAssertTrue(result.stderr.contains(expected), "\(name): \(result.stderr)")
            XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "previous contents\n", "untouched")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }, [],
            "no temporary file is left behind")
        let missing = try CLI.run(["convert", path("nope.csv"), target])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("nope.csv: cannot read"), missing.stderr)
    }

    func testHelpShowsExamples() throws {
        let help = try CLI.run(["convert", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("avtreplay convert fixtures/happy-path.json happy-path.csv"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--tracker <name=kind>"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--output-format <format>"), help.stdout)
        let top = try CLI.run(["--help"])
        XCTAssertTrue(top.stdout.contains("convert"), top.stdout)
    }
}
