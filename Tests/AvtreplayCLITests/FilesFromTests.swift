import Foundation
import XCTest

/// `--files-from FILE|-`: a scheduler hands each worker its list of paths, one per line.
final class FilesFromTests: XCTestCase {
    private func corpus() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let folder = dir.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, fixture) in [
            ("a.json", "happy-path.json"), ("b.json", "preroll-ads.json"), ("c.json", "happy-path.json"),
        ] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(fixture)"),
                to: folder.appendingPathComponent(name))
        }
        // Listed as a scheduler writes them: one per line, a blank line, a CRLF ending.
        try "corpus/a.json\n\ncorpus/b.json\r\n".write(
            to: dir.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        return dir
    }

    func testRunAndKPIReadTheListedInputs() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let listed = try CLI.run(["run", "--files-from", "list.txt"], in: dir)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let given = try CLI.run(["run", "corpus/a.json", "corpus/b.json"], in: dir)
        XCTAssertEqual(listed.stdout, given.stdout)
        XCTAssertTrue(listed.stdout.contains(#""session":"corpus/b.json""#))
        // From standard input, and beside an argument.
        let piped = try CLI.run(
            ["run", "corpus/c.json", "--files-from", "-"], stdin: "corpus/a.json\ncorpus/b.json\n", in: dir)
        let three = try CLI.run(["run", "corpus/c.json", "corpus/a.json", "corpus/b.json"], in: dir)
        XCTAssertEqual(piped.stdout, three.stdout)
        let kpis = try CLI.run(["kpi", "--files-from", "list.txt", "--format", "json"], in: dir)
        XCTAssertEqual(kpis.status, 0, kpis.stderr)
        XCTAssertEqual(
            kpis.stdout, try CLI.run(["kpi", "corpus/a.json", "corpus/b.json", "--format", "json"], in: dir).stdout)
    }

    /// A list of one path still names its session: a worker's list can hold a single file.
    func testAListOfOneLabelsItsRecords() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "corpus/a.json\n".write(to: dir.appendingPathComponent("one.txt"), atomically: true, encoding: .utf8)
        let one = try CLI.run(["run", "--files-from", "one.txt"], in: dir)
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.split(separator: "\n").allSatisfy { $0.contains(#""session":"corpus/a.json""#) })
    }

    func testCheckReadsTheListedCases() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(try CLI.run(["check", "corpus", "--update"], in: dir).status, 0)
        let checked = try CLI.run(["check", "--files-from", "list.txt"], in: dir)
        XCTAssertEqual(checked.status, 0, checked.stderr + checked.stdout)
        XCTAssertTrue(checked.stdout.contains("2 passed"), checked.stdout)
    }

    func testABadListIsBadInputWithItsLine() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("corpus/a.json\ncorpus/\u{0}b.json\n".utf8).write(to: dir.appendingPathComponent("bad.txt"))
        let bad = try CLI.run(["run", "--files-from", "bad.txt"], in: dir)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("bad.txt:2"), bad.stderr)
        let missing = try CLI.run(["run", "--files-from", "nowhere.txt"], in: dir)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("nowhere.txt"), missing.stderr)
    }
}
