import Foundation
import XCTest

/// `--format openmetrics` is the backfill path: `promtool tsdb create-blocks-from openmetrics`
/// takes it as it is, and `promtool tsdb dump` of the blocks gives back every sample.
final class PrometheusBackfillTests: XCTestCase {
    func testPromtoolBackfillsEverySampleOfSeveralSessions() throws {
        let promtool = try PrometheusTools.path("promtool")
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for name in ["happy-path", "preroll-ads", "avplayer-session", "ima-preroll", "exoplayer-session"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name).json"),
                to: inputs.appendingPathComponent("\(name).json"))
        }
        let text = dir.appendingPathComponent("replay.om").path
        let run = try CLI.run(["run", inputs.path, "--format", "openmetrics", "-o", text, "--jobs", "2"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let printed = try PrometheusSample.parseOpenMetrics(try String(contentsOfFile: text, encoding: .utf8))
        XCTAssertGreaterThan(printed.count, 500)
        XCTAssertEqual(Set(printed.compactMap { $0.labels["session"] }).count, 5, "one session label per input")
        XCTAssertEqual(Set(printed).count, printed.count)

        let blocks = dir.appendingPathComponent("blocks").path
        _ = try PrometheusTools.run(promtool, ["tsdb", "create-blocks-from", "openmetrics", text, blocks])
        // `dump` opens the directory as a database, which needs a (here empty) write-ahead log.
        try FileManager.default.createDirectory(atPath: blocks + "/wal", withIntermediateDirectories: true)
        let dumped = try PrometheusSample.parseDump(try PrometheusTools.run(promtool, ["tsdb", "dump", blocks]))
        XCTAssertEqual(dumped.count, printed.count, "every sample is stored: none overwritten, none dropped")
        XCTAssertEqual(Set(dumped), Set(printed))
    }

    func testTheTextGroupsEachFamilyOnceAndEndsWithEOF() throws {
        let run = try CLI.run([
            "run", "fixtures/preroll-ads.json", "fixtures/happy-path.json", "--format", "openmetrics",
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasSuffix("\n# EOF\n"))
        var families: [String] = []
        for line in run.stdout.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            families.append(String(line.split(separator: " ")[2]))
        }
        XCTAssertEqual(Set(families).count, families.count, "each family described once")
        // After a family's TYPE line come only its own samples, up to the next family.
        var current = ""
        for line in run.stdout.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                current = String(line.split(separator: " ")[2])
            } else if !line.hasPrefix("#") {
                let name = line.prefix { $0 != "{" && $0 != " " }
                let suffixes = ["", "_total", "_bucket", "_count", "_sum"]
                XCTAssertTrue(suffixes.contains { name == current + $0 }, "\(line) outside \(current)")
            }
        }
        let again = try CLI.run([
            "run", "fixtures/preroll-ads.json", "fixtures/happy-path.json", "--format", "openmetrics",
        ])
        XCTAssertEqual(again.stdout, run.stdout, "deterministic")
    }
}
