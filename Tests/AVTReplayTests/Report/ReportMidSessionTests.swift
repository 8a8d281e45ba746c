import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput

/// The overview of sessions whose recording begins mid-playback (a `midSession` mark): a playback
/// without a recorded start is counted apart from those that never started, and a session is not
/// ranked by a startup nobody recorded.
final class ReportMidSessionTests: XCTestCase {
    /// ExoPlayer timelines, written to a fresh directory and loaded as `report DIR` loads them.
    private func sessions(_ timelines: [(name: String, steps: [String])]) throws -> [ReportSession] {
        let dir = try ReportFixture.directory()
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for (name, steps) in timelines {
            let path = dir.appendingPathComponent(name).path
            let text =
                #"{"trackers": [{"name": "p", "kind": "exoplayer"}], "steps": ["#
                + steps.joined(separator: ",") + "]}"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        return try ReportInput.load(paths, fromEvents: false, csvTrackers: []).map(ReportSession.init)
    }

    private func observe(_ t: Int, _ members: String) -> String { KPITestSupport.observe(t, members) }

    /// The cells of the session's row in the table with id `table`, after its name.
    private func row(_ html: String, table: String, session: String) throws -> String {
        let start = try XCTUnwrap(html.range(of: "id=\"\(table)\""))
        let end = try XCTUnwrap(html.range(of: "</table>", range: start.upperBound..<html.endIndex))
        let name = try XCTUnwrap(html.range(of: ">\(session)</a></td>", range: start.upperBound..<end.lowerBound))
        let rowEnd = try XCTUnwrap(html.range(of: "</tr>", range: name.upperBound..<end.lowerBound))
        return String(html[name.upperBound..<rowEnd.lowerBound])
    }

    func testPlaybacksWithoutARecordedStartAreCountedApartAndNotRankedByStartup() throws {
        let sessions = try sessions([
            // Marked at 0, already playing: no startup. Plays 0–10000, no rebuffer (0.00 %).
            (
                "a.json",
                [
                    observe(0, #""midSession": true, "playbackState": "BUFFERING""#),
                    observe(0, #""playbackState": "READY", "playWhenReady": true"#),
                    observe(10000, #""playbackState": "ENDED""#),
                ]
            ),
            // Recorded from its load: BUFFERING with play requested at 0, READY at 800 (a join of
            // 800 ms, StreamLoad → first frame 800), plays to 10000 (0.00 %).
            (
                "b.json",
                [
                    observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
                    observe(800, #""playbackState": "READY""#), observe(10000, #""playbackState": "ENDED""#),
                ]
            ),
            // Never started: loads from 0, the app stops it at 3000 before a first frame (an exit
            // before start; no play time, no ratio).
            (
                "d.json",
                [
                    observe(0, #""playWhenReady": true, "playbackState": "BUFFERING""#),
                    observe(3000, #""stop": true"#),
                ]
            ),
            // Marked, then the next item after an automatic transition at 5000 joins 5000–6200:
            // the session's startup is that one known value, 1200 (0.00 %).
            (
                "m.json",
                [
                    observe(0, #""midSession": true, "playbackState": "BUFFERING""#),
                    observe(0, #""playbackState": "READY", "playWhenReady": true"#),
                    observe(5000, #""mediaItemTransition": "AUTO", "playbackState": "BUFFERING""#),
                    observe(6200, #""playbackState": "READY""#), observe(10000, #""playbackState": "ENDED""#),
                ]
            ),
        ])
        let rows = OverviewSection.rows(sessions, definitions: .openavt)
        XCTAssertEqual(rows.map(\.startup), [nil, 800, nil, 1200])
        XCTAssertEqual(rows.map(\.startNotRecorded), [true, false, false, false])
        XCTAssertEqual(rows.map(\.exits), [0, 0, 1, 0])
        XCTAssertEqual(rows.map(\.rebufferRatio), [0, 0, nil, 0])
        // d exits before start (first); a, b and m tie at 0.00 %, so startup: m 1200, b 800,
        // then a, whose startup is not recorded — not the longest, as a never-started one is.
        XCTAssertEqual(
            OverviewSection.worst(rows).map(\.name).map { URL(fileURLWithPath: $0).lastPathComponent },
            [
                "d.json", "m.json", "b.json", "a.json",
            ])

        var writer = ReportWriter()
        writer.overview = true
        let html = writer.render(sessions)
        // Five playbacks: startups b 800 and m's second 1200; d never started; a's and m's
        // first were under way before the recording.
        XCTAssertTrue(
            html.contains("Startup time: 2 playbacks, 1 never started, 2 start not recorded"),
            "the startup histogram's caption")
        XCTAssertFalse(html.contains("3 never started"))
        let links = try XCTUnwrap(html.range(of: "id=\"worst-sessions\"")).upperBound
        let worst = HTMLTag.scan(String(html[links...])).compactMap { $0.name == "a" ? $0["href"] : nil }
        XCTAssertEqual(Array(worst.prefix(4)), ["#s3", "#s4", "#s2", "#s1"])
        XCTAssertTrue(
            try row(html, table: "worst-sessions", session: sessions[0].name).hasPrefix("<td>not recorded</td>"))
        XCTAssertTrue(try row(html, table: "all-sessions", session: sessions[2].name).hasPrefix("<td>–</td>"))
        XCTAssertTrue(try row(html, table: "all-sessions", session: sessions[3].name).hasPrefix("<td>1.2 s</td>"))
        // Each session's own Startup card: a's was not recorded; d's never came; m's is the one
        // it recorded (1200, its median of one).
        let cards = html.components(separatedBy: "data-kpi=\"startupTime\"><dt>Startup time</dt><dd>").dropFirst()
            .map { $0.prefix { $0 != "<" } }
        XCTAssertEqual(cards, ["not recorded", "800 ms", "–", "1.2 s"])
    }
}
