import Foundation
import XCTest

/// `kpi --jobs N` replays N sessions at once and prints what `--jobs 1` prints, byte for byte:
/// sessions in input order, the same aggregate, the same warnings and errors in the same order.
final class KPIJobsTests: XCTestCase {
    /// Standard output and error of `kpi` with `arguments`, in `directory`.
    private func kpi(_ arguments: [String], in directory: URL = CLI.packageRoot) throws -> CLIResult {
        try CLI.run(["kpi"] + arguments, in: directory)
    }

    func testEveryFormatIsTheSameWithAnyNumberOfJobs() throws {
        // The timelines and the players' own logs (which warn about what they skip).
        let inputs = ["fixtures", "fixtures/player-logs"]
        for format in [["--format", "table", "--states"], ["--format", "csv"], ["--format", "json"]] {
            for definitions in ["openavt", "mux"] {
                let arguments = inputs + format + ["--aggregate", "--definitions", definitions]
                let one = try kpi(arguments)
                XCTAssertEqual(one.status, 0, one.stderr)
                XCTAssertTrue(one.stderr.contains("warning:"), "the player logs warn: \(one.stderr)")
                for jobs in ["2", "3", "8"] {
                    let many = try kpi(arguments + ["--jobs", jobs])
                    XCTAssertEqual(many.status, 0, many.stderr)
                    XCTAssertEqual(many.stdout, one.stdout, "\(arguments) --jobs \(jobs)")
                    XCTAssertEqual(many.stderr, one.stderr, "\(arguments) --jobs \(jobs)")
                }
            }
        }
    }

    /// A bad input among good ones: with `--keep-going` it is said and left out at its place;
    /// without, `kpi` stops there with exit 2, the sessions before it printed.
    func testABadInputIsLeftOutOrStopsAtItsPlace() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let corpus = dir.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        let fixtures = CLI.packageRoot.appendingPathComponent("fixtures")
        for (n, name) in ["happy-path.json", "preroll-ads.json", "exoplayer-session.json", "html5-session.json"]
            .enumerated()
        {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(name), to: corpus.appendingPathComponent("s\(n)-\(name)"))
        }
        try #"{"trackers": [{"name": "c"}], "steps": [{"t": 0, "tracker": "c", "action": "Start"},"#
            .write(to: corpus.appendingPathComponent("s2-cut.json"), atomically: true, encoding: .utf8)
        for extra in [["--keep-going", "--aggregate"], ["--aggregate"], ["--format", "csv", "--keep-going"]] {
            let one = try kpi(["corpus"] + extra, in: dir)
            XCTAssertEqual(one.status, 2, one.stderr)
            XCTAssertTrue(one.stderr.contains("corpus/s2-cut.json"), one.stderr)
            for jobs in ["2", "4"] {
                let many = try kpi(["corpus", "--jobs", jobs] + extra, in: dir)
                XCTAssertEqual(many.status, 2, many.stderr)
                XCTAssertEqual(many.stdout, one.stdout, "\(extra) --jobs \(jobs)")
                XCTAssertEqual(many.stderr, one.stderr, "\(extra) --jobs \(jobs)")
            }
        }
    }

    func testJobsBelowOneAreRefused() throws {
        let result = try kpi(["fixtures/happy-path.json", "--jobs", "0"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--jobs must be at least 1"), result.stderr)
    }
}
