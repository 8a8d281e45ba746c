import Foundation
import XCTest

/// What keeps `check` and `diff` reports readable and their options honest: a cap on the
/// differences shown, warnings for names that select nothing, CI-friendly names.
final class CheckReportLimitsTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        func pings(shift: Int) -> String {
            (0..<200).map {
                #"{"type":"metric","t":\#($0 * 1000 + shift),"name":"NumPings","metricType":"counter","value":1}"#
            }
            .joined(separator: "\n") + "\n"
        }
        try pings(shift: 0).write(to: dir.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
        try pings(shift: 1).write(to: dir.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func run(_ arguments: [String]) throws -> CLIResult { try CLI.run(arguments, in: dir) }

    /// 200 records shifted by 1 ms: 50 shown by default, then the count of the others and the summary.
    func testMaxDifferencesCapsEachReport() throws {
        let capped = try run(["diff", "e.jsonl", "a.jsonl"])
        XCTAssertEqual(capped.status, 1)
        XCTAssertTrue(
            capped.stdout.hasSuffix(
                "… 150 more differences\n200 differences: 200 changed, 0 missing, 0 extra (200 expected, 200 actual)\n"),
            String(capped.stdout.suffix(300)))
        let three = try run(["diff", "e.jsonl", "a.jsonl", "--max-differences", "3"])
        XCTAssertTrue(three.stdout.contains("… 197 more differences\n"), three.stdout)
        let all = try run(["diff", "e.jsonl", "a.jsonl", "--max-differences", "0"])
        XCTAssertFalse(all.stdout.contains("more differences"), String(all.stdout.suffix(300)))
        XCTAssertEqual(try run(["diff", "e.jsonl", "a.jsonl", "--max-differences", "-1"]).status, 2)
    }

    /// `StarTime=50` names no metric: a warning, not a tolerance that silently loosens nothing.
    func testAMisspeltValueToleranceNameWarns() throws {
        let result = try run(["diff", "e.jsonl", "e.jsonl", "--value-tolerance", "StarTime=50,NumPings=1"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--value-tolerance StarTime names no metric"), result.stderr)
        XCTAssertFalse(result.stderr.contains("NumPings"), result.stderr)
    }

    /// A changed normalised id is shown with the id the file holds, which a reviewer can search.
    func testANormalisedIdIsShownWithTheOriginal() throws {
        func events(_ ids: [String]) -> String {
            ids.enumerated().map {
                #"{"type":"event","t":\#($0.offset),"action":"Start","attributes":{"playbackId":"\#($0.element)"}}"#
            }.joined(separator: "\n") + "\n"
        }
        try events(["aaa", "aaa"]).write(to: dir.appendingPathComponent("x.jsonl"), atomically: true, encoding: .utf8)
        try events(["bbb", "ccc"]).write(to: dir.appendingPathComponent("y.jsonl"), atomically: true, encoding: .utf8)
        let result = try run(["diff", "x.jsonl", "y.jsonl"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stdout.contains(#"attributes.playbackId: "P1" ("aaa" in the file) → "P2" ("ccc" in the file)"#),
            result.stdout)
    }

    /// `diff` explains a pretty-printed file as `check` does.
    func testDiffNamesAPrettyPrintedFile() throws {
        try "[\n  {\"type\": \"event\"}\n]\n".write(
            to: dir.appendingPathComponent("pretty.jsonl"), atomically: true, encoding: .utf8)
        let result = try run(["diff", "pretty.jsonl", "e.jsonl"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("a golden file holds one JSON record per line"), result.stderr)
    }

    /// JUnit names are paths relative to the folder given, without `./`.
    func testJUnitNamesHaveNoDotSlash() throws {
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("fixtures/happy-path.json"),
            to: dir.appendingPathComponent("happy-path.json"))
        XCTAssertEqual(try run(["check", ".", "--update"]).status, 0)
        let result = try run(["check", ".", "--format", "junit"])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains(#"name="happy-path.json""#), result.stdout)
        XCTAssertFalse(result.stdout.contains("./"), result.stdout)
    }
}
