import Foundation
import XCTest

/// A file name is input too: one holding ESC and BEL (a checkout can name a file so) reaches no
/// terminal, log or report raw, whatever the command and format.
final class EscapedFileNameTests: XCTestCase {
    static let name = "x\u{1B}]0;pwned\u{07}\u{1B}[2J.json"

    private func assertInert(_ bytes: Data, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(bytes.contains(0x1B), "raw ESC in \(what)", file: file, line: line)
        XCTAssertFalse(bytes.contains(0x07), "raw BEL in \(what)", file: file, line: line)
    }

    func testEveryCommandAndFormatEscapesTheName() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (source, target) in [("happy-path", Self.name), ("preroll-ads", "b.json")] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("fixtures/\(source).json"),
                to: dir.appendingPathComponent(target))
        }
        let events = Self.name + ".events.jsonl"
        XCTAssertEqual(try CLI.run(["run", Self.name, "b.json", "-o", events], in: dir).status, 0)
        var commands: [[String]] = [
            ["kpi", Self.name, "b.json"], ["kpi", "--from-events", events],
            ["check", Self.name, "--update"], ["check", Self.name], ["check", Self.name, "b.json"],
            ["diff", events, events], ["precall", Self.name], ["convert", Self.name, "c.csv"],
            ["report", Self.name, "b.json", "-o", "-"], ["report", "--from-events", events, "-o", "-"],
        ]
        for format in ["jsonl", "table", "csv", "influx", "graphite", "openmetrics", "mediastream"] {
            commands.append(["run", Self.name, "b.json", "--format", format])
        }
        for format in ["json", "csv"] { commands.append(["kpi", Self.name, "b.json", "--format", format]) }
        for format in ["json", "junit"] { commands.append(["check", Self.name, "b.json", "--format", format]) }
        for arguments in commands {
            let result = try CLI.run(arguments, in: dir)
            XCTAssertNotEqual(result.status, 0x7F, "\(arguments)")
            assertInert(Data((result.stdout + result.stderr).utf8), "\(arguments)")
        }
        let report = try CLI.run(["report", Self.name, "b.json", "-o", "r.html"], in: dir)
        XCTAssertEqual(report.status, 0, report.stderr)
        assertInert(try Data(contentsOf: dir.appendingPathComponent("r.html")), "the report page")
        let table = try CLI.run(["kpi", Self.name, "b.json"], in: dir)
        XCTAssertTrue(table.stdout.contains(#"x\u001B]0;pwned\u0007\u001B[2J.json"#), table.stdout)
    }
}
