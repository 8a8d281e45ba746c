import Foundation
import XCTest

/// Every record of a folder, a shard or a named input carries a `session` that does not depend
/// on where the command runs or how many inputs one process got.
final class SessionNameTests: XCTestCase {
    private func sessions(_ stdout: String) -> Set<String> {
        Set(
            stdout.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: #""session":""#) else { return nil }
                return String(line[range.upperBound...].prefix { $0 != "\"" })
            })
    }

    private func corpus() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let folder = dir.appendingPathComponent("corpus/day1")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a.json", "b.json"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
                to: folder.appendingPathComponent(name))
        }
        return dir
    }

    func testAFolderNamesItsSessionsAlikeFromAnyDirectory() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fromParent = try CLI.run(["run", "corpus"], in: dir)
        let fromInside = try CLI.run(["run", "."], in: dir.appendingPathComponent("corpus"))
        let absolute = try CLI.run(["run", dir.appendingPathComponent("corpus").path + "/"])
        XCTAssertEqual(fromParent.status, 0, fromParent.stderr)
        XCTAssertEqual(sessions(fromParent.stdout), ["day1/a.json", "day1/b.json"])
        XCTAssertEqual(fromInside.stdout, fromParent.stdout)
        XCTAssertEqual(absolute.stdout, fromParent.stdout)
    }

    /// `kpi` names a folder's sessions the same way, so shards and merges agree from anywhere.
    func testKPIRowsNameTheSessionsAlike() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fromParent = try CLI.run(["kpi", "corpus", "--format", "csv"], in: dir)
        XCTAssertEqual(fromParent.status, 0, fromParent.stderr)
        let names = Set(fromParent.stdout.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } })
        XCTAssertEqual(names, ["day1/a.json", "day1/b.json"])
        let fromInside = try CLI.run(["kpi", ".", "--format", "csv"], in: dir.appendingPathComponent("corpus"))
        XCTAssertEqual(fromInside.stdout, fromParent.stdout)
    }

    func testAShardOfOneFileAndANamedInputAreLabelled() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shard = try CLI.run(["run", "corpus/day1/a.json", "--shard", "1/1"], in: dir)
        XCTAssertEqual(sessions(shard.stdout), ["corpus/day1/a.json"])
        let named = try CLI.run(["run", "corpus/day1/a.json", "--session", "day1/a.json"], in: dir)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(sessions(named.stdout), ["day1/a.json"])
        // The same records as the folder's, session for session.
        let folder = try CLI.run(["run", "corpus"], in: dir)
        let folderA = folder.stdout.split(separator: "\n").filter { $0.contains(#""session":"day1/a.json""#) }
        XCTAssertEqual(named.stdout.split(separator: "\n"), folderA)
        let plain = try CLI.run(["run", "corpus/day1/a.json"], in: dir)
        XCTAssertEqual(sessions(plain.stdout), [], "one file, no name asked for: as before")
    }

    func testSessionNamesOneInputOnly() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try CLI.run(["run", "corpus", "--session", "x"], in: dir)
        XCTAssertEqual(folder.status, 2)
        XCTAssertTrue(folder.stderr.contains("--session names one session"), folder.stderr)
        let empty = try CLI.run(["run", "corpus/day1/a.json", "--session", ""], in: dir)
        XCTAssertEqual(empty.status, 2, empty.stderr)
    }
}
