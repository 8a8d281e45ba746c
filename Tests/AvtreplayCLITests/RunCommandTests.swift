import Foundation
import XCTest

/// `avtreplay run` end to end: the README's main command, exit codes, stdin, files, help.
final class RunCommandTests: XCTestCase {
    func testReplaysTheBundledFixtureDeterministically() throws {
        let first = try CLI.run(["run", "fixtures/happy-path.json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stderr, "")
        let lines = first.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 33)
        XCTAssertTrue(
            lines[0].hasPrefix(#"{"type":"event","t":0,"time":"2026-03-01T12:00:00.000Z","action":"TrackerInit""#))
        XCTAssertTrue(first.stdout.contains(#""name":"RebufferTime","metricType":"gauge","value":2500}"#))
        let second = try CLI.run(["run", "fixtures/happy-path.json"])
        XCTAssertEqual(first.stdout, second.stdout, "same input and flags give byte-identical output")
    }

    /// An option that shapes one kind of output changes nothing without that output: it is
    /// named in a warning, the replay is unchanged, and with its output there is no warning.
    func testOutputOptionsWithoutTheirOutputAreNamedInAWarning() throws {
        let plain = try CLI.run(["run", "fixtures/happy-path.json"])
        let ignored = try CLI.run([
            "run", "fixtures/happy-path.json", "--influx-tags", "action", "--influx-compat", "--influx-gzip", "never",
            "--graphite-prefix", "P", "--graphite-retention", "60", "--newrelic-endpoint", "http://127.0.0.1:9",
        ])
        XCTAssertEqual(ignored.status, 0, ignored.stderr)
        XCTAssertEqual(ignored.stdout, plain.stdout)
        for warning in [
            "--influx-compat and --influx-tags ignored: nothing is written as InfluxDB line protocol",
            "--influx-gzip ignored: nothing is written to an InfluxDB server",
            "--graphite-prefix ignored: nothing is written for Graphite",
            "--graphite-retention ignored: nothing is written to a Graphite server",
            "--newrelic-endpoint ignored: nothing is written to New Relic",
        ] {
            XCTAssertTrue(ignored.stderr.contains("warning: " + warning), "\(warning)\n\(ignored.stderr)")
        }
        let influx = try CLI.run([
            "run", "fixtures/happy-path.json", "--format", "influx", "--influx-tags", "action", "--influx-precision",
            "s",
        ])
        XCTAssertEqual(influx.status, 0, influx.stderr)
        XCTAssertEqual(influx.stderr, "", "the line-protocol options shape --format influx")
        XCTAssertTrue(influx.stdout.hasPrefix("OAVT_EVENTS,action=TrackerInit "), influx.stdout)
        let graphite = try CLI.run([
            "run", "fixtures/happy-path.json", "--format", "graphite", "--graphite-prefix", "P", "--graphite-retention",
            "60",
        ])
        XCTAssertEqual(graphite.status, 0, graphite.stderr)
        XCTAssertTrue(graphite.stdout.hasPrefix("P."), graphite.stdout)
        XCTAssertFalse(graphite.stderr.contains("--graphite-prefix"), graphite.stderr)
        XCTAssertTrue(
            graphite.stderr.contains("warning: --graphite-retention ignored: nothing is written to a Graphite server"),
            graphite.stderr)
    }

    func testReadsStandardInputForDash() throws {
        let timeline = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/preroll-ads.json"), encoding: .utf8)
        let piped = try CLI.run(["run", "-"], stdin: timeline)
        let direct = try CLI.run(["run", "fixtures/preroll-ads.json"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, direct.stdout)
    }

    func testWritesAnOutputFileAndNothingOnStdout() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.jsonl").path
        let result = try CLI.run(["run", "fixtures/happy-path.json", "-o", target, "--metrics-only"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        let written = try String(contentsOfFile: target, encoding: .utf8)
        XCTAssertEqual(written.split(separator: "\n").count, 14)
        XCTAssertFalse(written.contains(#""type":"event""#))
    }

    func testBadInputExitsTwoWithOneLocatedMessage() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, String)] = [
            ("{\"trackers\": [{\"name\": \"c\"}], \"steps\": [{\"t\": 1,}]}", ":1:49: expected a string key"),
            (
                "{\"trackers\": [{\"name\": \"c\"}],\n \"steps\": [{\"t\": \"5\", \"tracker\": \"c\", \"action\": \"Start\"}]}",
                ":2:18: steps[0].t: expected an integer"
            ),
            (
                "{\"trackers\": [{\"name\": \"c\"}], \"steps\": [{\"t\": 5, \"tracker\": \"x\", \"action\": \"Start\"}]}",
                "steps[0].tracker: unknown tracker \"x\""
            ),
            (
                "{\"trackers\": [{\"name\": \"c\"}], \"steps\": [{\"t\": 5, \"tracker\": \"c\", \"action\": \"Start\"}, {\"t\": 4, \"tracker\": \"c\", \"action\": \"End\"}]}",
                "steps[1].t: t 4 is earlier"
            ),
            ("{\"hub\": \"big\", \"trackers\": [{\"name\": \"c\"}], \"steps\": []}", "hub: unknown hub \"big\""),
            (
                "{\"trackers\": [{\"name\": \"c\"}], \"steps\": [{\"tracker\": \"c\", \"action\": \"Start\"}]}",
                "steps[0]: missing \"t\""
            ),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let file = dir.appendingPathComponent("bad\(index).json")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let output = dir.appendingPathComponent("out\(index).jsonl").path
            let result = try CLI.run(["run", file.path, "-o", output])
            XCTAssertEqual(result.status, 2, "case \(index)")
            XCTAssertEqual(result.stdout, "", "case \(index)")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "one message: \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("avtreplay: error: \(file.path)"), result.stderr)
            XCTAssertTrue(result.stderr.contains(expected), "case \(index): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("\u{1B}["), "no colour when stderr is not a terminal")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no output file on bad input")
        }
    }

    func testMissingFileAndBadFlagsExitTwo() throws {
        let missing = try CLI.run(["run", "no/such/file.json"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(
            missing.stderr.contains("no/such/file.json: cannot read: No such file or directory"), missing.stderr)
        for arguments in [
            ["run", "fixtures/happy-path.json", "--hub", "fancy"],
            ["run", "fixtures/happy-path.json", "--events-only", "--metrics-only"],
            ["run", "fixtures/happy-path.json", "--start-time", "yesterday"],
            ["run", "fixtures/happy-path.json", "--until", "-5"],
            ["run"],
        ] {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertFalse(result.stderr.isEmpty)
        }
    }

    func testStartTimeFlagRebasesTimestamps() throws {
        let iso = try CLI.run([
            "run", "fixtures/happy-path.json", "--start-time", "2030-01-01T00:00:00Z", "--events-only",
        ])
        XCTAssertTrue(iso.stdout.hasPrefix(#"{"type":"event","t":0,"time":"2030-01-01T00:00:00.000Z""#), iso.stdout)
        let epoch = try CLI.run(["run", "fixtures/happy-path.json", "--start-time", "1000", "--events-only"])
        XCTAssertTrue(epoch.stdout.hasPrefix(#"{"type":"event","t":0,"time":"1970-01-01T00:00:01.000Z""#))
        let now = try CLI.run(["run", "fixtures/happy-path.json", "--start-time", "now", "--events-only"])
        XCTAssertEqual(now.status, 0)
        XCTAssertFalse(now.stdout.contains("2026-03-01T12:00:00.000Z"))
    }

    func testSeedChangesIdsAndRandomIdsAreNotRepeatable() throws {
        let seeded = try CLI.run(["run", "fixtures/happy-path.json", "--seed", "42"])
        XCTAssertEqual(seeded.stdout, try CLI.run(["run", "fixtures/happy-path.json", "--seed", "42"]).stdout)
        XCTAssertNotEqual(seeded.stdout, try CLI.run(["run", "fixtures/happy-path.json"]).stdout)
        let random = try CLI.run(["run", "fixtures/happy-path.json", "--random-ids"])
        XCTAssertNotEqual(random.stdout, try CLI.run(["run", "fixtures/happy-path.json", "--random-ids"]).stdout)
    }

    func testEveryCommandHasHelpWithExamples() throws {
        for arguments in [["--help"], ["run", "--help"]] {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 0)
            XCTAssertTrue(result.stdout.contains("Examples:"), "\(arguments)")
            XCTAssertTrue(result.stdout.contains("USAGE:"))
        }
    }

    func testStopsQuietlyWhenTheReaderGoesAway() throws {
        // `avtreplay run … | head -1`: a closed pipe is not an error worth a message.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            "\"$0\" run fixtures/happy-path.json --ping-interval 1 --min-ping-interval 1 --until 2000000 "
                + "| head -1 >/dev/null",
            try CLI.binary.path,
        ]
        process.currentDirectoryURL = CLI.packageRoot
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(stderr, "")
    }
}
