import Foundation
import XCTest

/// `--shard K/N` by name: a file added to the corpus moves no other file between shards, the
/// shards of a folder reached from elsewhere are the same, and a shard opens only its own files.
final class ShardStabilityTests: XCTestCase {
    private func corpus(_ count: Int) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let folder = dir.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let timeline = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"), encoding: .utf8)
        for n in 0..<count {
            try timeline.write(to: folder.appendingPathComponent("s\(n).json"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// The sessions of each shard, by the `session` label of its records.
    private func shards(_ arguments: [String], count: Int, in dir: URL) throws -> [Set<String>] {
        try (1...count).map { k in
            let result = try CLI.run(["run"] + arguments + ["--shard", "\(k)/\(count)"], in: dir)
            XCTAssertEqual(result.status, 0, result.stderr)
            return Set(
                result.stdout.split(separator: "\n").compactMap { line -> String? in
                    guard let range = line.range(of: #""session":""#) else { return nil }
                    let label = line[range.upperBound...].prefix { $0 != "\"" }
                    return String(label.split(separator: "/").last ?? label)
                })
        }
    }

    func testAFileAddedMovesNoOtherFileAndEveryFileIsReplayedOnce() throws {
        let dir = try corpus(12)
        let before = try shards(["corpus"], count: 3, in: dir)
        XCTAssertEqual(before.map(\.count).reduce(0, +), 12)
        XCTAssertEqual(before.reduce(Set<String>()) { $0.union($1) }.count, 12)
        let timeline = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"), encoding: .utf8)
        try timeline.write(
            to: dir.appendingPathComponent("corpus/added.json"), atomically: true, encoding: .utf8)
        let after = try shards(["corpus"], count: 3, in: dir)
        for (old, new) in zip(before, after) { XCTAssertTrue(old.isSubset(of: new), "\(old) moved: \(new)") }
        XCTAssertEqual(after.map(\.count).reduce(0, +), 13)
        // The same corpus reached from its parent's parent: the same shards.
        let parent = dir.deletingLastPathComponent()
        let elsewhere = try shards([dir.lastPathComponent + "/corpus"], count: 3, in: parent)
        XCTAssertEqual(elsewhere, after)
    }

    /// `kpi --shard`: the shards' sessions are the whole corpus's, each once, as `run`'s shards.
    func testKPIShardsSplitTheCorpusAsRunDoes() throws {
        let dir = try corpus(10)
        let runShards = try shards(["corpus"], count: 3, in: dir)
        for (k, expected) in runShards.enumerated() {
            let result = try CLI.run(["kpi", "corpus", "--shard", "\(k + 1)/3", "--format", "json"], in: dir)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let sessions = try XCTUnwrap(json["sessions"] as? [[String: Any]]).compactMap { $0["session"] as? String }
            XCTAssertEqual(Set(sessions.map { String($0.split(separator: "/").last ?? "") }), expected)
        }
    }

    /// A shard opens only its own files: under strace, no `openat` of another shard's file.
    func testAShardOpensOnlyItsOwnFiles() throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile)
        else {
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_TOOLS"] == "1" {
                XCTFail("no strace: scripts/test installs it")
            }
            throw XCTSkip("strace is not installed (scripts/test installs it)")
        }
        let dir = try corpus(8)
        let all = try shards(["corpus"], count: 2, in: dir)
        let trace = dir.appendingPathComponent("trace.txt").path
        let result = try CLI.run(
            ["-f", "-e", "trace=openat", "-o", trace, try CLI.binary.path, "run", "corpus", "--shard", "1/2"], in: dir,
            executable: URL(fileURLWithPath: strace))
        XCTAssertEqual(result.status, 0, result.stderr)
        let opened = try String(contentsOfFile: trace, encoding: .utf8)
        for name in all[0] { XCTAssertTrue(opened.contains("corpus/\(name)\""), "its own \(name)") }
        for name in all[1] { XCTAssertFalse(opened.contains("corpus/\(name)\""), "another shard's \(name)") }
    }
}
