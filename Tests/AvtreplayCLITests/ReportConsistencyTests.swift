import Foundation
import XCTest

/// The report never contradicts itself: every span it draws and every mark it counts comes from
/// the state history the KPI cards come from (`avtreplay kpi`'s numbers), an error on a card has
/// a mark, a player log's warnings are printed once, and pre-call statistics are not playbacks.
final class ReportConsistencyTests: XCTestCase {
    private func report(_ arguments: [String]) throws -> (CLIResult, String) {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("report.html").path
        let result = try CLI.run(["report"] + arguments + ["-o", path])
        return (result, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    /// `kpi --format json`'s totals for one input.
    private func kpis(_ input: String, definitions: String) throws -> [String: Any] {
        let result = try CLI.run(["kpi", input, "--format", "json", "--definitions", definitions])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sessions = try XCTUnwrap(json["sessions"] as? [[String: Any]])
        return try XCTUnwrap(sessions.first?["totals"] as? [String: Any])
    }

    /// Every match of a pattern's first group.
    private func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    /// Milliseconds drawn in the given states (the state spans' data-t…data-e).
    private func drawn(_ states: [String], in html: String) -> Int {
        states.reduce(0) { sum, state in
            let pattern = #"data-t="(\d+)" data-e="(\d+)" data-state="\#(state)""#
            let regex = try! NSRegularExpression(pattern: pattern)
            return sum
                + regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).reduce(0) {
                    let t = Int(html[Range($1.range(at: 1), in: html)!])!
                    let e = Int(html[Range($1.range(at: 2), in: html)!])!
                    return $0 + e - t
                }
        }
    }

    /// Marks of a kind, counting the marks each grouped one stands for.
    private func marks(_ kind: String, in html: String) -> Int {
        matches(#"<g class="mark m-\#(kind)[^"]*" [^>]*data-n="(\d+)""#, in: html).reduce(0) { $0 + Int($1)! }
    }

    func testDrawnSpansAndMarksAreTheCardsNumbers() throws {
        let inputs = [
            "fixtures/avplayer-session.json", "fixtures/preroll-ads.json", "fixtures/ima-preroll.json",
            "fixtures/exoplayer-session.json", "fixtures/happy-path.json",
            "fixtures/player-logs/exoplayer-media3-threadtime.log",
            "fixtures/player-logs/exoplayer-2.11-studio-classic.log",
        ]
        for input in inputs {
            for definitions in ["openavt", "exoplayer"] {
                let (result, html) = try report([input, "--definitions", definitions])
                XCTAssertEqual(result.status, 0, result.stderr)
                let totals = try kpis(input, definitions: definitions)
                let what = "\(input) (\(definitions))"
                XCTAssertEqual(
                    drawn(["paused", "paused while buffering"], in: html), totals["pauseTime"] as? Int, what)
                XCTAssertEqual(drawn(["seeking"], in: html), totals["seekTime"] as? Int, what)
                XCTAssertEqual(marks("rebuffer", in: html), totals["rebufferCount"] as? Int, what)
                XCTAssertEqual(marks("seek", in: html), totals["seekCount"] as? Int, what)
                XCTAssertEqual(marks("error", in: html), totals["errorCount"] as? Int, what)
                XCTAssertEqual(marks("ad", in: html), totals["adCount"] as? Int, what)
                XCTAssertEqual(marks("start", in: html), totals["started"] as? Int, what)
            }
        }
    }

    /// The AVPlayer fixture seeks while paused (`timeJumped` at 01:18, the hub's SeekBegin …
    /// SeekFinish of 2 s): seeking takes precedence over paused (PlaybackStatsListener's
    /// `resolveNewPlaybackState` checks `isSeeking` first), and a paused AVPlayer, which reports
    /// no seek completion, seeks until it plays at 01:20. The page draws that seek beside "Seek
    /// time 2 s", and the pauses before and after it.
    func testTheAVPlayerSessionDrawsItsPausedSeek() throws {
        let (_, html) = try report(["fixtures/avplayer-session.json"])
        XCTAssertTrue(html.contains("<dt>Seek time</dt><dd>2 s</dd>"), "seek card")
        XCTAssertTrue(html.contains("data-t=\"78000\" data-e=\"80000\" data-state=\"seeking\""))
        XCTAssertEqual(marks("seek", in: html), 1)
        XCTAssertEqual(
            matches(#"data-state="paused" tabindex="0" aria-label="([^"]*)""#, in: html),
            ["paused from 00:00.700 to 00:01.200, 500 ms", "paused from 01:10.000 to 01:18.000, 8 s"])
        XCTAssertTrue(html.contains("<dt>Pause time</dt><dd>8.5 s</dd>"))
        // The hub's own events are still there, as ticks on the tracker's lane.
        XCTAssertTrue(html.contains("aria-label=\"SeekBegin at 01:18.000\""), "the hub's SeekBegin tick")
    }

    func testANonFatalErrorOnTheCardHasAMark() throws {
        let (_, html) = try report(["fixtures/player-logs/exoplayer-media3-threadtime.log"])
        XCTAssertNotNil(
            html.range(of: #"data-kpi="errorCount"><dt>Errors</dt><dd>1</dd>"#), "the Errors card counts 1")
        let labels = matches(#"<g class="mark m-error minor" [^>]*aria-label="([^"]*)""#, in: html)
        XCTAssertEqual(labels.count, 1)
        XCTAssertTrue(labels.first?.hasPrefix("non-fatal error (loadError) at ") ?? false, "\(labels)")
        XCTAssertTrue(html.contains("<li data-item=\"mark-error-minor\">"), "the legend lists it")
        // The StartTime metric and the startup card each say what they measure.
        XCTAssertTrue(html.contains("<dt>OpenAVT StartTime</dt><dd>10 ms</dd>"))
        XCTAssertTrue(html.contains("<dt>Startup time</dt><dd>890 ms</dd><dd class=\"how\">request or load"))
        XCTAssertTrue(html.contains(">OpenAVT metricalc</text>"))
    }

    func testEachPlayerLogWarningIsPrintedOnce() throws {
        let log = "fixtures/player-logs/exoplayer-studio-midsession-cut.log"
        let run = try CLI.run(["run", log])
        let expected = run.stderr.split(separator: "\n")
        XCTAssertFalse(expected.isEmpty, "the log has warnings")
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent(log), to: dir.appendingPathComponent("log.log"))
        for input in [log, dir.path] {
            let (result, _) = try report([input])
            XCTAssertEqual(result.status, 0, result.stderr)
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, expected.count, result.stderr)
            XCTAssertEqual(Set(lines).count, lines.count, "a warning printed twice: \(result.stderr)")
        }
    }

    func testPreCallStatisticsAreNotPlaybackSessions() throws {
        let dir = try CLI.fixtureDirectory(["precall-good", "happy-path"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, html) = try report([dir.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(html.contains("Overview: 1 session</h2>"), "only the playback")
        XCTAssertFalse(html.contains("precall-good"))
        XCTAssertTrue(result.stderr.contains("precall-good.json: pre-call network statistics"), result.stderr)
        // Given alone, nothing is left: bad input, with the reason.
        let alone = try CLI.run(["report", "fixtures/precall-good.json", "-o", "-"])
        XCTAssertEqual(alone.status, 2)
        XCTAssertTrue(alone.stderr.contains("pre-call network statistics"), alone.stderr)
    }
}
