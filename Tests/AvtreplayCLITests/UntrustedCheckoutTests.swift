import Foundation
import XCTest

/// What a checkout under review can hold (golden symlinks out of its folder, a dead-letter file
/// naming hosts, an output path that is an input) must not reach past the command line: nothing
/// is written or read outside the folder checked, no credential goes to a host the command line
/// did not name, no input is replaced by a report.
final class UntrustedCheckoutTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try CLI.temporaryDirectory()
        let folder = directory.appendingPathComponent("upd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
            to: folder.appendingPathComponent("s.json"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLI.run(arguments, environment: environment, in: directory)
    }

    // MARK: Goldens stay inside the folder checked

    func testAGoldenSymlinkOutOfTheFolderIsNeitherReadNorWritten() throws {
        let victim = "SECRET-WORD and more\n"
        try victim.write(toFile: path("outside-victim.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: path("upd/s.expected.jsonl"), withDestinationPath: "../outside-victim.txt")
        for arguments in [
            ["check", "upd", "--update"], ["check", "upd"], ["check", "upd/s.json"],
            ["check", "upd/s.json", "--update"], ["check", "upd", "--format", "junit"],
        ] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains("upd/s.expected.jsonl: the expected output is a symlink out of upd"),
                "\(arguments): \(result.stderr)")
            XCTAssertFalse((result.stdout + result.stderr).contains("SECRET-WORD"), "\(arguments)")
            XCTAssertEqual(try String(contentsOfFile: path("outside-victim.txt"), encoding: .utf8), victim)
        }
        // Named on the command line, a golden elsewhere is the user's choice.
        let named = try run(["check", "upd/s.json", "--expect", "outside-victim.txt"])
        XCTAssertEqual(named.status, 2, named.stdout)
    }

    func testADanglingGoldenSymlinkCreatesNothing() throws {
        try FileManager.default.createSymbolicLink(
            atPath: path("upd/s.expected.jsonl"), withDestinationPath: "../created-outside.jsonl")
        let result = try run(["check", "upd", "--update"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("upd/s.expected.jsonl: the expected output is a dangling symlink"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("created-outside.jsonl")))
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: path("upd/s.expected.jsonl")),
            "../created-outside.jsonl")
    }

    func testAGoldenLinkedInsideTheFolderIsStillUpdatedInPlace() throws {
        try FileManager.default.createDirectory(
            atPath: path("upd/golden"), withIntermediateDirectories: true)
        try "{}\n".write(toFile: path("upd/golden/s.expected.jsonl"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: path("upd/s.expected.jsonl"), withDestinationPath: "golden/s.expected.jsonl")
        let result = try run(["check", "upd", "--update"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("0 created, 1 updated, 0 unchanged"), result.stdout)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: path("upd/s.expected.jsonl")),
            "golden/s.expected.jsonl")
        XCTAssertEqual(try run(["check", "upd"]).status, 0)
    }

    // MARK: Outputs are never inputs

    func testDiffRefusesToWriteItsReportOverAnInput() throws {
        XCTAssertEqual(try run(["run", "upd/s.json", "-o", "a.jsonl"]).status, 0)
        XCTAssertEqual(try run(["run", "upd/s.json", "--until", "60000", "-o", "b.jsonl"]).status, 0)
        let before = try String(contentsOfFile: path("a.jsonl"), encoding: .utf8)
        for output in ["a.jsonl", "./b.jsonl"] {
            let result = try run(["diff", "a.jsonl", "b.jsonl", "-o", output])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains("it is also an input"), result.stderr)
        }
        XCTAssertEqual(try String(contentsOfFile: path("a.jsonl"), encoding: .utf8), before)
        XCTAssertEqual(try run(["diff", "a.jsonl", "b.jsonl", "-o", "d.txt"]).status, 1)
    }

    // MARK: Credentials follow the command line

    private func deadLetter(to destination: String) throws -> String {
        let entry = "{\"to\":\"\(destination)\",\"format\":\"influx/ms\",\"reason\":\"r\",\"line\":\"m v=1i 1\"}\n"
        try entry.write(toFile: path("dead.jsonl"), atomically: true, encoding: .utf8)
        return path("dead.jsonl")
    }

    func testSendGoesOnlyWhereTheCommandLineSays() throws {
        let listener = try MockHTTPServer(fallback: 204)
        let elsewhere = "influxdb2://127.0.0.1:\(listener.port)?org=o&bucket=b"
        let dead = try deadLetter(to: elsewhere)
        let secrets = ["INFLUX_TOKEN": "CI-SECRET-TOKEN", "INFLUX_USERNAME": "ci", "INFLUX_PASSWORD": "pw"]
        let refused = try run(["send", dead, "--dead-letter", path("again.jsonl")], environment: secrets)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertEqual(listener.requests.count, 0, "nothing reaches a host the file alone names")
        XCTAssertTrue(refused.stderr.contains("give --to \(elsewhere), or --trust-destinations"), refused.stderr)
        let kept = try String(contentsOfFile: path("again.jsonl"), encoding: .utf8)
        XCTAssertTrue(kept.contains("not sent: the destination comes from the dead-letter file"), kept)
        XCTAssertTrue(kept.contains("\"line\":\"m v=1i 1\""), kept)

        let named = try run(["send", dead, "--to", elsewhere], environment: secrets)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(listener.requests.last?.headers["authorization"], "Token CI-SECRET-TOKEN")

        let trusted = try run(["send", dead, "--trust-destinations"], environment: secrets)
        XCTAssertEqual(trusted.status, 0, trusted.stderr)
        XCTAssertEqual(listener.requests.count, 2)
    }

    // MARK: Dead letters go only to a dead-letter file

    func testDeadLetterRefusesAFileThatIsNoDeadLetterFileOrAnOutput() throws {
        let profile = "export PATH=/usr/bin\n"
        try profile.write(toFile: path("profile.sh"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("link.jsonl"), withDestinationPath: "profile.sh")
        let down = ["--to", "influxdb://127.0.0.1:9/db", "--delivery-attempts", "1"]
        for target in ["profile.sh", "link.jsonl"] {
            let result = try run(["run", "upd/s.json"] + down + ["--dead-letter", target])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains("exists and is not a dead-letter file"), result.stderr)
            let send = try run(["send", try deadLetter(to: "influxdb://127.0.0.1:9/db"), "--dead-letter", target])
            XCTAssertEqual(send.status, 2, send.stderr)
        }
        XCTAssertEqual(try String(contentsOfFile: path("profile.sh"), encoding: .utf8), profile)
        let same = try run(["run", "upd/s.json", "--to", "file:out.jsonl"] + down + ["--dead-letter", "./out.jsonl"])
        XCTAssertEqual(same.status, 2, same.stderr)
        XCTAssertTrue(same.stderr.contains("it is also an output (out.jsonl)"), same.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.jsonl")))
        // A dead-letter file is added to, as before.
        for _ in 0..<2 {
            XCTAssertEqual(try run(["run", "upd/s.json"] + down + ["--dead-letter", "kept.jsonl"]).status, 3)
        }
        XCTAssertEqual(try String(contentsOfFile: path("kept.jsonl"), encoding: .utf8).split(separator: "\n").count, 66)
    }
}
