import Foundation
import XCTest

/// `--keep-going`: a corpus with a truncated recording in it is replayed but for that one, which
/// is named with its line, and the exit code says at the end that something was left out.
final class KeepGoingTests: XCTestCase {
    private func corpus() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let folder = dir.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let timeline = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"), encoding: .utf8)
        try timeline.write(to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        // Cut mid-file, as a failed upload leaves it.
        try String(timeline.prefix(600)).write(
            to: folder.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        try timeline.write(to: folder.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        return dir
    }

    func testABadRecordingIsLeftOutAndTheOthersAreReplayed() throws {
        let dir = try corpus()
        for jobs in ["1", "2"] {
            let out = dir.appendingPathComponent("out-\(jobs).jsonl").path
            let result = try CLI.run(["run", "corpus", "--keep-going", "--jobs", jobs, "-o", out], in: dir)
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains("corpus/b.json:"), result.stderr)
            XCTAssertTrue(result.stderr.contains("(left out: --keep-going)"), result.stderr)
            XCTAssertTrue(result.stderr.contains("1 of 3 inputs were bad input and left out"), result.stderr)
            let records = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            let sessions = Set(
                records.compactMap { line -> String? in
                    guard let range = line.range(of: #""session":""#) else { return nil }
                    return String(line[range.upperBound...].prefix { $0 != "\"" })
                })
            // Named by their paths relative to the folder given.
            XCTAssertEqual(sessions, ["a.json", "c.json"], "jobs \(jobs)")
            // Exactly what the two good ones give alone (given by those same names).
            let alone = try CLI.run(["run", "a.json", "c.json"], in: dir.appendingPathComponent("corpus"))
            XCTAssertEqual(records.map(String.init), alone.stdout.split(separator: "\n").map(String.init))
        }
    }

    /// `kpi --keep-going`: the same KPIs as `kpi` of the good inputs alone, the bad one said.
    func testKPIsOfTheOthers() throws {
        let dir = try corpus()
        let result = try CLI.run(["kpi", "corpus", "--keep-going", "--format", "json"], in: dir)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("corpus/b.json:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 input was bad input and left out"), result.stderr)
        // Given by the names the folder gives them (their paths relative to it).
        let inside = dir.appendingPathComponent("corpus")
        let alone = try CLI.run(["kpi", "a.json", "c.json", "--format", "json"], in: inside)
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertEqual(result.stdout, alone.stdout)
        // Without it, the first bad input stops `kpi`: the sessions before it were printed as
        // they finished (a stream), the rest and the aggregate are not; a file is not written.
        let stopped = try CLI.run(["kpi", "corpus", "--aggregate"], in: dir)
        XCTAssertEqual(stopped.status, 2)
        let first = try CLI.run(["kpi", "a.json"], in: inside)
        XCTAssertEqual(stopped.stdout, first.stdout)
        let file = try CLI.run(["kpi", "corpus", "-o", "k.txt"], in: dir)
        XCTAssertEqual(file.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("k.txt").path))
    }

    func testWithoutItTheFirstBadInputStopsTheRunAndNothingIsWritten() throws {
        let dir = try corpus()
        let out = dir.appendingPathComponent("out.jsonl").path
        let result = try CLI.run(["run", "corpus", "-o", out], in: dir)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("corpus/b.json:"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}
