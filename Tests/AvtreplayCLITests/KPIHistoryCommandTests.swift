import Foundation
import XCTest

/// `kpi`'s state history as data: JSON's `history` and `switchHistory` per playback, `--states`.
/// The expected history is read off fixtures/happy-path.json by docs/kpi.md's table of what moves
/// it (MediaRequest: joining; Start: playing; BufferBegin…BufferFinish: buffering; PauseBegin:
/// paused; SeekBegin: seeking, which wins over paused and lasts while the buffer opened during it
/// stays open, SeekFinish at 52700 or not, until BufferFinish at 53100; End: ended), until the end
/// of the recording.
final class KPIHistoryCommandTests: XCTestCase {
    private static let happyPath: [(String, Int, Int)] = [
        ("not started", 0, 0), ("joining", 0, 1400), ("playing", 1400, 19000), ("buffering", 20400, 2500),
        ("playing", 22900, 22100), ("paused", 45000, 7000), ("seeking", 52000, 1100),
        ("paused", 53100, 1900), ("playing", 55000, 30000),
        ("ended", 85000, 65000),
    ]

    private func playbacks(_ arguments: [String], stdin: String? = nil) throws -> [[String: Any]] {
        let result = try CLI.run(["kpi"] + arguments + ["--format", "json"], stdin: stdin)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sessions = try XCTUnwrap(json["sessions"] as? [[String: Any]])
        return sessions.flatMap { ($0["playbacks"] as? [[String: Any]]) ?? [] }
    }

    private func history(_ playback: [String: Any]) throws -> [(String, Int, Int)] {
        try XCTUnwrap(playback["history"] as? [[String: Any]]).map {
            (
                try XCTUnwrap($0["state"] as? String), try XCTUnwrap($0["t"] as? Int),
                try XCTUnwrap($0["durationMs"] as? Int)
            )
        }
    }

    func testJSONHasEachPlaybacksHistoryAndFormatSwitches() throws {
        let playback = try XCTUnwrap(try playbacks(["fixtures/happy-path.json"]).first)
        let states = try history(playback)
        XCTAssertEqual(states.map(\.0), Self.happyPath.map(\.0))
        XCTAssertEqual(states.map(\.1), Self.happyPath.map(\.1))
        XCTAssertEqual(states.map(\.2), Self.happyPath.map(\.2))
        // The renditions the steps set: 720p at 2.5 Mbit/s (1350), 480p at 1.2 Mbit/s (23000), back
        // to 720p (70000).
        let switches = try XCTUnwrap(playback["switchHistory"] as? [[String: Any]])
        XCTAssertEqual(switches.map { $0["t"] as? Int }, [1350, 23000, 70000])
        XCTAssertEqual(switches.map { $0["height"] as? Int }, [720, 480, 720])
        XCTAssertEqual(switches.map { $0["bitrate"] as? Int }, [2_500_000, 1_200_000, 2_500_000])
    }

    func testEveryPlaybackOfAFolderAndOfAnEventLogHasItsHistory() throws {
        let folder = try playbacks(["fixtures", "--aggregate"])
        XCTAssertGreaterThan(folder.count, 5)
        for playback in folder { XCTAssertFalse(try history(playback).isEmpty) }
        let log = try CLI.run(["run", "fixtures/happy-path.json"]).stdout
        let fromLog = try XCTUnwrap(try playbacks(["--from-events", "-"], stdin: log).first)
        XCTAssertEqual(try history(fromLog).map(\.0), Self.happyPath.map(\.0))
    }

    func testStatesPrintsTheHistoryUnderTheKPITable() throws {
        let result = try CLI.run(["kpi", "fixtures/happy-path.json", "--states"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("state history") })
        XCTAssertTrue(lines[..<header].contains { $0.hasPrefix("playTime (ms)") }, "the KPI table comes first")
        let rows = lines[(header + 2)...].prefix(Self.happyPath.count)
        for (row, (state, t, duration)) in zip(rows, Self.happyPath) {
            XCTAssertEqual(
                row.split(separator: " ", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) },
                ["\(t)", "\(duration)", state])
        }
        let plain = try CLI.run(["kpi", "fixtures/happy-path.json"])
        XCTAssertFalse(plain.stdout.contains("state history"), "only when asked for")
        XCTAssertTrue(result.stdout.hasPrefix(plain.stdout), "the KPI table is unchanged")
    }

    func testStatesWithCSVIsRefused() throws {
        let result = try CLI.run(["kpi", "fixtures/happy-path.json", "--states", "--format", "csv"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--states"), result.stderr)
    }
}
