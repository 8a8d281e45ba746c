import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTReplay

/// `kpi`'s sessions: a replayed timeline and the event log it produces give the same KPIs.
final class KPISessionsTests: XCTestCase {
    private let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/happy-path.json").path

    func testATimelineAndItsEventLogAgree() throws {
        let replayed = try KPISessions.load([fixture], fromEvents: false)
        XCTAssertEqual(replayed.map(\.session), [fixture])
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("kpi-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let bytes = try GoldenFiles.produce(fixture, options: RunOptions(), csvTrackers: [])
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let logged = try KPISessions.load([log], fromEvents: true)
        XCTAssertEqual(logged.map(\.session), [log])
        XCTAssertEqual(
            KPIReport.json(logged, definitions: .openavt, aggregate: false).replacingOccurrences(of: log, with: "X"),
            KPIReport.json(replayed, definitions: .openavt, aggregate: false).replacingOccurrences(
                of: fixture, with: "X"))
    }

    func testStandardInputIsNamedSo() {
        XCTAssertEqual(KPISessions.name("-"), "<stdin>")
        XCTAssertEqual(KPISessions.name("a.json"), "a.json")
    }
}
