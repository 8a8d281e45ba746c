import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// `check`'s golden-file workflow and its report, without the command line.
final class GoldenCheckTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func timeline(_ name: String, end: Int = 61000) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let text = """
            {"trackers": [{"name": "content"}], "steps": [
              {"t": 0, "tracker": "content", "action": "StreamLoad"},
              {"t": 1000, "tracker": "content", "action": "Start"},
              {"t": \(end), "tracker": "content", "action": "End"}]}
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testUpdateCreatesThenLeavesThenUpdates() throws {
        let path = try timeline("a.json")
        let expected = GoldenFiles.expectedPath(for: path)
        var said: [String] = []
        XCTAssertEqual(GoldenCheck().update(try GoldenSuite([path])) { _, line, _ in said.append(line) }.count, 0)
        XCTAssertTrue(said.last?.hasPrefix("created \(expected): ") == true, "\(said)")
        XCTAssertEqual(GoldenCheck().update(try GoldenSuite([path])) { _, line, _ in said.append(line) }.count, 0)
        XCTAssertEqual(said.last, "unchanged \(expected)")
        _ = try timeline("a.json", end: 62000)
        _ = GoldenCheck().update(try GoldenSuite([path])) { _, line, _ in said.append(line) }
        XCTAssertTrue(said.last?.hasPrefix("updated \(expected): ") == true, "\(said)")
    }

    /// A finished equal case keeps its counts, not its records: memory does not grow with the
    /// records of the cases already checked.
    func testAnEqualCaseKeepsNoRecords() throws {
        let path = try timeline("keep.json")
        _ = GoldenCheck().update(try GoldenSuite([path])) { _, _, _ in }
        let cases = GoldenCheck().compare(try GoldenSuite([path]))
        guard case .compared(let comparison) = cases.first?.outcome else { return XCTFail("\(cases)") }
        XCTAssertTrue(comparison.isEqual)
        XCTAssertEqual(comparison.entries.count, 0)
        XCTAssertGreaterThan(comparison.expectedCount, 0)
        XCTAssertTrue(comparison.summary.hasPrefix("equal: \(comparison.expectedCount) records"), comparison.summary)
    }

    func testCompareAgainstTheGoldenFile() throws {
        let path = try timeline("a.json")
        _ = GoldenCheck().update(try GoldenSuite([path])) { _, _, _ in }
        let same = GoldenCheck().compare(try GoldenSuite([path]))
        XCTAssertEqual(same.map(\.passed), [true])
        XCTAssertEqual(CheckReport.status(same), .ok)
        _ = try timeline("a.json", end: 62000)
        let changed = GoldenCheck().compare(try GoldenSuite([path]))
        XCTAssertEqual(changed.map(\.passed), [false])
        XCTAssertEqual(CheckReport.status(changed), .differs)
        var tolerant = GoldenCheck()
        tolerant.comparison.tolerance = 1000
        XCTAssertEqual(tolerant.compare(try GoldenSuite([path])).map(\.passed), [true])
    }

    func testAnUnreadableTimelineIsAnErrorCaseAndBadInput() throws {
        let path = try timeline("a.json")
        let cases = GoldenCheck().compare(
            try GoldenSuite([path], expect: directory.appendingPathComponent("missing.jsonl").path))
        guard case .error(let message) = cases.first?.outcome else { return XCTFail("not an error") }
        XCTAssertTrue(message.contains("missing.jsonl"), message)
        XCTAssertEqual(CheckReport.status(cases + GoldenCheck().compare(GoldenSuite())), .badInput)
    }

    func testReportsInEachFormat() throws {
        let path = try timeline("a.json")
        _ = GoldenCheck().update(try GoldenSuite([path])) { _, _, _ in }
        let cases =
            GoldenCheck().compare(try GoldenSuite([path])) + [
                CheckCase(name: "b.json", seconds: 0, outcome: .error("cannot read b.json"))
            ]
        let text = CheckReport.render(cases, format: .text, single: false, color: false, timestamp: "")
        XCTAssertTrue(text.hasPrefix("PASS \(path): equal: "), text)
        XCTAssertTrue(text.hasSuffix("ERROR b.json: cannot read b.json\n1 passed, 0 failed, 1 errors\n"), text)
        let json = CheckReport.render(cases, format: .json, single: false, color: false, timestamp: "")
        XCTAssertTrue(
            json.hasPrefix("{\"passed\":1,\"failed\":0,\"errors\":1,\"skipped\":0,\"orphaned\":0,\"cases\":["), json)
        XCTAssertTrue(json.hasSuffix("{\"name\":\"b.json\",\"error\":\"cannot read b.json\"}]}\n"), json)
        let xml = CheckReport.render(
            cases, format: .junit, single: false, color: false, timestamp: "2026-01-01T00:00:00.000Z")
        XCTAssertTrue(xml.contains("2026-01-01T00:00:00.000Z"), xml)
        // diff's single comparison: no PASS line, no totals.
        let single = CheckReport.render(
            Array(cases.prefix(1)), format: .text, single: true, color: false, timestamp: "")
        XCTAssertFalse(single.contains("PASS") || single.contains("passed"), single)
    }
}
