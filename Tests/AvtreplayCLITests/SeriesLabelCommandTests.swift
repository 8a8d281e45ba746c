import Foundation
import XCTest

/// `--label NAME=VALUE` and `--no-session-label` in every format that has series
/// (docs/destinations.md, "Telling sessions and runs apart").
final class SeriesLabelCommandTests: XCTestCase {
    private func lines(_ arguments: [String], in directory: URL = CLI.packageRoot) throws -> [Substring] {
        let run = try CLI.run(arguments, in: directory)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\n")
    }

    func testLabelsGoIntoEveryInfluxPointGraphitePathAndSample() throws {
        let labels = ["--label", "run=b 1", "--label", "env=ci"]
        let influx = try lines(["run", "fixtures/happy-path.json", "--format", "influx"] + labels)
        XCTAssertEqual(influx.count, 33)
        XCTAssertTrue(influx.allSatisfy { $0.contains(#",env=ci,"#) && $0.contains(#",run=b\ 1"#) }, "\(influx[0])")
        let graphite = try lines(["run", "fixtures/happy-path.json", "--format", "graphite"] + labels)
        XCTAssertFalse(graphite.isEmpty)
        XCTAssertTrue(graphite.allSatisfy { $0.hasPrefix("OAVT.b_1.ci.") }, "\(graphite[0])")
        let samples = try PrometheusSample.parseOpenMetrics(
            try CLI.run(["run", "fixtures/happy-path.json", "--format", "openmetrics"] + labels).stdout)
        XCTAssertFalse(samples.isEmpty)
        XCTAssertTrue(samples.allSatisfy { $0.labels["run"] == "b 1" && $0.labels["env"] == "ci" })
    }

    /// The session label is the path relative to the folder given, wherever the run starts;
    /// `--no-session-label` leaves it out.
    func testTheSessionLabelIsTheSameFromAnyDirectoryAndCanBeLeftOut() throws {
        let dir = try CLI.fixtureDirectory(["happy-path", "preroll-ads"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: dir.appendingPathComponent("preroll-ads.json"), to: dir.appendingPathComponent("sub/preroll-ads.json"))
        let absolute = try CLI.run(["run", dir.path, "--format", "openmetrics"]).stdout
        let relative = try CLI.run(
            ["run", dir.lastPathComponent + "/", "--format", "openmetrics"], in: dir.deletingLastPathComponent()
        ).stdout
        XCTAssertEqual(absolute, relative)
        let sessions = Set(try PrometheusSample.parseOpenMetrics(absolute).compactMap { $0.labels["session"] })
        XCTAssertEqual(sessions, ["happy-path.json", "sub/preroll-ads.json"])
        let without = try PrometheusSample.parseOpenMetrics(
            try CLI.run(["run", dir.path, "--format", "openmetrics", "--no-session-label"]).stdout)
        XCTAssertFalse(without.isEmpty)
        XCTAssertTrue(without.allSatisfy { $0.labels["session"] == nil })
        let influx = try lines(["run", dir.path, "--format", "influx", "--metrics-only"])
        XCTAssertTrue(
            influx.allSatisfy {
                $0.contains(",session=happy-path.json") || $0.contains(",session=sub/preroll-ads.json")
            })
    }

    /// Prometheus and VictoriaMetrics keep one value per series and timestamp, and may answer
    /// 204 to a second: a run without `--label` says, in one line, that another replay at the
    /// same times would collide with it. Other servers' summaries do not (their collisions are
    /// counted or documented apart). The servers are down here: the summary is printed anyway.
    func testARunWithoutALabelSaysAnotherReplayCouldCollideWithItsSeries() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let warning = "no --label tells this run's series apart"
        func stderr(_ extra: [String]) throws -> String {
            let run = try CLI.run(
                ["run", "fixtures/happy-path.json", "--delivery-attempts", "1", "--end-time", "now"] + extra + [
                    "--dead-letter", dir.appendingPathComponent(UUID().uuidString + ".jsonl").path,
                ])
            XCTAssertEqual(run.status, 3, run.stderr)
            return run.stderr
        }
        let unlabelled = try stderr(["--to", "prometheus://127.0.0.1:9"])
        let lines = unlabelled.split(separator: "\n").filter { $0.contains(warning) }
        XCTAssertEqual(lines.count, 1, unlabelled)
        XCTAssertTrue(lines.first?.hasPrefix("avtreplay: prometheus://127.0.0.1:9: ") == true, unlabelled)
        XCTAssertTrue(lines.first?.contains("--label run=NAME") == true, unlabelled)
        XCTAssertFalse(try stderr(["--to", "prometheus://127.0.0.1:9", "--label", "run=a"]).contains(warning))
        XCTAssertFalse(try stderr(["--to", "influxdb://127.0.0.1:9/db"]).contains(warning))
    }

    func testABadLabelIsBadInputNamingTheFlag() throws {
        for (label, expected) in [
            ("run", "--label run: expected NAME=VALUE"),
            ("tracker=x", "--label tracker=x: tracker is one of avtreplay's own labels"),
        ] {
            let run = try CLI.run(["run", "fixtures/happy-path.json", "--format", "openmetrics", "--label", label])
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains(expected), run.stderr)
            XCTAssertEqual(run.stdout, "", "nothing replayed")
        }
        let clash = try CLI.run([
            "run", "fixtures/happy-path.json", "--format", "influx", "--influx-tags", "source", "--label", "source=x",
        ])
        XCTAssertEqual(clash.status, 2, clash.stderr)
        XCTAssertTrue(clash.stderr.contains("source is also an InfluxDB tag"), clash.stderr)
    }
}
