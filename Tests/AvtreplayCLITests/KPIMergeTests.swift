import Foundation
import XCTest

/// `kpi --shard K/N --format partial` on each shard, then `kpi --merge` of the parts, prints
/// what one `kpi` over the whole corpus prints, byte for byte, however the corpus is split.
/// Partial files are untrusted input: a bad or foreign one is refused with its name and line.
final class KPIMergeTests: XCTestCase {
    private var dir: URL!

    /// The fixtures (timelines of every player kind, an AVMetrics log, players' own logs) and two
    /// generated sessions of many playbacks: 24 sessions of varied kinds; and a good part.
    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        let corpus = dir.appendingPathComponent("corpus")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("fixtures"), to: corpus)
        for package in ["consumer-package", "library-package"] {
            try? FileManager.default.removeItem(at: corpus.appendingPathComponent(package))
        }
        for seed in [3, 4] {
            let gen = Process()
            gen.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gen.arguments = ["python3", "scripts/gen-timeline.py", "3000", "--seed", String(seed), "--format", "jsonl"]
            gen.currentDirectoryURL = CLI.packageRoot
            let file = corpus.appendingPathComponent("generated-\(seed).jsonl")
            XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
            gen.standardOutput = try FileHandle(forWritingTo: file)
            try gen.run()
            gen.waitUntilExit()
            XCTAssertEqual(gen.terminationStatus, 0)
        }
        // A good part beside each bad one: the bad one is refused all the same.
        let part = try kpi(["corpus/happy-path.json", "--format", "partial", "-o", "corpus-part.jsonl"])
        XCTAssertEqual(part.status, 0, part.stderr)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func kpi(_ arguments: [String]) throws -> CLIResult {
        try CLI.run(["kpi"] + arguments, in: dir)
    }

    func testShardsMergedPrintWhatTheWholeCorpusPrints() throws {
        let count = try kpi(["corpus", "--format", "csv"]).stdout.split(separator: "\n").filter {
            $0.contains(",(total),")
        }
        XCTAssertEqual(count.count, 24, "sessions in the corpus")
        for definitions in ["openavt", "mux"] {
            var whole: [[String]: String] = [:]
            let formats = [
                ["json", "--aggregate"], ["table", "--aggregate"], ["csv", "--aggregate"], ["table", "--states"],
            ]
            for format in formats {
                let result = try kpi(["corpus", "--definitions", definitions, "--format"] + format)
                XCTAssertEqual(result.status, 0, result.stderr)
                whole[format] = result.stdout
            }
            for n in [1, 2, 4, 7] {
                var parts: [String] = []
                for k in 1...n {
                    let part = "part-\(definitions)-\(k)-of-\(n).jsonl"
                    let written = try kpi([
                        "corpus", "--shard", "\(k)/\(n)", "--format", "partial", "--definitions", definitions, "-o",
                        part,
                    ])
                    XCTAssertEqual(written.status, 0, written.stderr)
                    parts.append(part)
                }
                // The parts in any order: sessions are printed by name.
                for format in formats {
                    let merged = try kpi(
                        ["--merge"] + parts.reversed() + ["--definitions", definitions, "--format"] + format)
                    XCTAssertEqual(merged.status, 0, merged.stderr)
                    XCTAssertEqual(merged.stdout, whole[format], "\(definitions), \(n) shards, \(format)")
                }
                // Parts merged into a part, then merged: the same.
                let combined = try kpi(["--merge"] + parts + ["--definitions", definitions, "--format", "partial"])
                XCTAssertEqual(combined.status, 0, combined.stderr)
                let file = "combined-\(definitions)-\(n).jsonl"
                try combined.stdout.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
                let again = try kpi(["--merge", file, "--definitions", definitions, "--format", "json", "--aggregate"])
                XCTAssertEqual(again.stdout, whole[["json", "--aggregate"]], "\(definitions), \(n) shards combined")
            }
        }
    }

    /// Each bad file is refused with exit 2, its name and line, and nothing on standard output.
    func testABadOrForeignPartialFileIsRefusedWithItsLine() throws {
        let good = try kpi(["corpus/happy-path.json", "--format", "partial"])
        XCTAssertEqual(good.status, 0, good.stderr)
        let lines = good.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.count, 3)  // header, one session, the final line feed
        let records = try kpi(["corpus/happy-path.json"]).stdout
        let cases: [(String, String, String)] = [
            ("empty.jsonl", "", "empty.jsonl:1:1: expected a kpi partial file's header line"),
            (
                "records.jsonl", try CLI.run(["run", "corpus/happy-path.json"], in: dir).stdout,
                "records.jsonl:1:1: expected"
            ),
            ("table.txt", records, "table.txt:1:1: expected"),
            ("cut.jsonl", lines[0] + "\n" + String(lines[1].prefix(200)) + "\n", "cut.jsonl:2:"),
            (
                "negative.jsonl",
                lines[0] + "\n" + lines[1].replacingOccurrences(of: "\"figures\":[1,", with: "\"figures\":[-1,") + "\n",
                "negative.jsonl:2:"
            ),
            (
                "extra.jsonl",
                lines[0] + "\n" + lines[1].replacingOccurrences(of: "{\"session\":", with: "{\"x\":1,\"session\":")
                    + "\n",
                "extra.jsonl:2:6: unexpected member \"x\""
            ),
            (
                "mux.jsonl", lines[0].replacingOccurrences(of: "\"openavt\"", with: "\"mux\"") + "\n",
                "mux.jsonl:1:1: written with --definitions mux; merge it with --definitions mux"
            ),
            (
                "version.jsonl", lines[0].replacingOccurrences(of: "\"kpiPartial\":1", with: "\"kpiPartial\":2") + "\n",
                "version.jsonl:1:1: expected"
            ),
        ]
        for (name, text, message) in cases {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let result = try kpi(["--merge", "corpus-part.jsonl", name])
            XCTAssertEqual(result.status, 2, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(name): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", name)
        }
    }
}
