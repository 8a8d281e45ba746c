import Foundation
import XCTest

/// The CI recipes of docs/check-diff.md run as written: each `avtreplay` line of their YAML, with
/// the release binary the recipe builds standing for the one under test, and GitLab's
/// `CI_NODE_INDEX`/`CI_NODE_TOTAL` for every job of its `parallel:` count.
final class CheckCIRecipesTests: XCTestCase {
    /// The recipes' `avtreplay` command lines, and GitLab's job count.
    private static func recipes() throws -> (commands: [String], parallel: Int) {
        let page = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/check-diff.md"), encoding: .utf8)
        var (commands, parallel, inYAML) = ([String](), 1, false)
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("```") {
                inYAML = !inYAML && text == "```yaml"
                continue
            }
            guard inYAML else { continue }
            if text.hasPrefix("parallel:"),
                let n = Int(text.dropFirst("parallel:".count).trimmingCharacters(in: .whitespaces))
            {
                parallel = n
            }
            for prefix in ["run: ", "- "] where text.hasPrefix(prefix + ".build/release/avtreplay ") {
                commands.append(String(text.dropFirst(prefix.count)))
            }
        }
        return (commands, parallel)
    }

    private func shell(_ command: String, in dir: URL, environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func testTheRecipesRunAsWrittenAndTheirShardsCoverEveryCaseOnce() throws {
        let (commands, parallel) = try Self.recipes()
        XCTAssertEqual(commands.count, 2, "one GitHub and one GitLab command expected: \(commands)")
        XCTAssertGreaterThan(parallel, 1)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let player = dir.appendingPathComponent("tests/player")
        try FileManager.default.createDirectory(at: player, withIntermediateDirectories: true)
        let names = ["happy-path", "preroll-ads", "html5-session"]
        for name in names {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(name).json"),
                to: player.appendingPathComponent("\(name).json"))
        }
        XCTAssertEqual(try CLI.run(["check", "tests/player/", "--update"], in: dir).status, 0)
        let release = dir.appendingPathComponent(".build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: release.appendingPathComponent("avtreplay"), withDestinationURL: try CLI.binary)
        let report = dir.appendingPathComponent("avtreplay.xml")
        for command in commands {
            let jobs = command.contains("CI_NODE_INDEX") ? Array(1...parallel) : [0]
            var seen: [String] = []
            for job in jobs {
                let environment = ["CI_NODE_INDEX": "\(job)", "CI_NODE_TOTAL": "\(parallel)"]
                XCTAssertEqual(try shell(command, in: dir, environment: environment), 0, command)
                let xml = try String(contentsOf: report, encoding: .utf8)
                seen += names.filter { xml.contains(#"name="tests/player/\#($0).json""#) }
            }
            XCTAssertEqual(seen.sorted(), names.sorted(), command)
            // The strict default: a golden file removed fails the same command.
            try FileManager.default.moveItem(
                at: player.appendingPathComponent("html5-session.expected.jsonl"),
                to: dir.appendingPathComponent("kept.jsonl"))
            let statuses = try jobs.map {
                try shell(command, in: dir, environment: ["CI_NODE_INDEX": "\($0)", "CI_NODE_TOTAL": "\(parallel)"])
            }
            XCTAssertTrue(statuses.contains(1), "\(command): \(statuses)")
            try FileManager.default.moveItem(
                at: dir.appendingPathComponent("kept.jsonl"),
                to: player.appendingPathComponent("html5-session.expected.jsonl"))
        }
    }
}
