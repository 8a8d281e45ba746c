import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
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
        // Playback ids are made from the session's name, which differs here.
        func text(_ sessions: [SessionKPIs], _ name: String) -> String {
            KPIReport.json(sessions, definitions: .openavt, aggregate: false).replacingOccurrences(of: name, with: "X")
                .replacingOccurrences(of: sessions[0].playbackIds[0], with: "ID")
        }
        XCTAssertEqual(text(logged, log), text(replayed, fixture))
        XCTAssertNotEqual(logged[0].playbackIds, replayed[0].playbackIds)
    }

    func testStandardInputIsNamedSo() {
        XCTAssertEqual(KPISessions.name("-"), "<stdin>")
        XCTAssertEqual(KPISessions.name("a.json"), "a.json")
    }
}
