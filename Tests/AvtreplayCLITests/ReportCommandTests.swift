import Foundation
import XCTest

/// `avtreplay report` end to end: a bundled fixture, a folder, an event log on stdin, bad input,
/// byte-identical reruns.
final class ReportCommandTests: XCTestCase {
    private func report(_ arguments: [String], stdin: String? = nil) throws -> (CLIResult, String) {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("report.html").path
        let result = try CLI.run(["report"] + arguments + ["-o", path], stdin: stdin)
        let html = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (result, html)
    }

    func testReportOnABundledFixture() throws {
        let (result, html) = try report(["fixtures/avplayer-session.json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        // From the fixture's observations, as the state history holds them: a stall 41000–42800,
        // paused 70000–78000, a seek while paused until it plays at 80000, playing from the first
        // frame at 1200 to the end at 140000.
        for span in [
            "data-t=\"41000\" data-e=\"42800\" data-state=\"buffering\"",
            "data-t=\"70000\" data-e=\"78000\" data-state=\"paused\"",
            "data-t=\"78000\" data-e=\"80000\" data-state=\"seeking\"",
            "data-t=\"1200\" data-e=\"41000\" data-state=\"playing\"",
            "data-t=\"80000\" data-e=\"140000\" data-state=\"playing\"",
        ] {
            XCTAssertTrue(html.contains(span), span)
        }
        // KPIs: startup = Start's timeSinceStreamLoad 850; rebuffer 1800 / (127000 play + 1800) = 1.40 %.
        XCTAssertTrue(html.contains("<dt>Startup time</dt><dd>850 ms</dd>"))
        XCTAssertTrue(html.contains("<dt>Rebuffer ratio</dt><dd>1.40 %</dd>"))
        XCTAssertTrue(html.contains("t = 0 is <time datetime=\"2026-03-01T12:00:00.000Z\">"))
        XCTAssertFalse(html.contains("id=\"overview\""), "one file, one session: no overview")
    }

    /// AVMetrics inputs get the startup waterfall `kpi` computes: the fixture's master playlist is
    /// requested 12:00:00.000–.180 and the content key 12:00:00.430–.600 (t = 0 at 12:00:00.000).
    /// A paste that ends inside a rebuffer: its last line (dropped frames at 15 s) makes no
    /// event, and the rebuffer from 10 s is open until it. The axis runs to the end of the
    /// recording, so the rebuffer is drawn to 15 s, as the KPIs count it (5000 ms).
    func testTheTimelineEndsAtTheLastStepOfTheLog() throws {
        let dir = try CLI.temporaryDirectory()
        let log = dir.appendingPathComponent("open-rebuffer.log")
        try """
        EventLogger: state [eventTime=0.00, mediaPos=0.00, window=0, BUFFERING]
        EventLogger: playWhenReady [eventTime=0.00, mediaPos=0.00, window=0, true, USER_REQUEST]
        EventLogger: state [eventTime=1.00, mediaPos=0.00, window=0, READY]
        EventLogger: state [eventTime=10.00, mediaPos=9.00, window=0, BUFFERING]
        EventLogger: droppedFrames [eventTime=15.00, mediaPos=9.00, window=0, 3]

        """.write(to: log, atomically: true, encoding: .utf8)
        let (result, html) = try report([log.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(html.contains("data-t=\"10000\" data-e=\"15000\" data-state=\"buffering\""), "the open rebuffer")
        XCTAssertTrue(html.contains("<dt>Rebuffer time</dt><dd>5 s</dd>"), "its card")
    }

    func testAnAVMetricsLogGetsItsStartupWaterfall() throws {
        for input in ["fixtures/avmetrics-log.jsonl", "fixtures/avmetrics-session.json"] {
            let (result, html) = try report([input])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(html.contains("<h3 id=\"s1-wf-h\">Startup breakdown</h3>"), input)
            XCTAssertTrue(html.contains("Startup waterfall: 7 requests"), input)
            XCTAssertTrue(html.contains("aria-label=\"master.m3u8 (playlist): 0 ms to 180 ms, 180 ms\""), input)
            XCTAssertTrue(html.contains("aria-label=\"license (contentKey): 430 ms to 600 ms, 170 ms\""), input)
        }
        let (_, plain) = try report(["fixtures/happy-path.json"])
        XCTAssertFalse(plain.contains("Startup breakdown"), "no AVMetrics, no waterfall")
    }

    func testAFolderGetsAnOverviewLinkingEverySession() throws {
        let (result, html) = try report(["fixtures"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The folder is walked recursively: the players' logs in fixtures/player-logs/ are sessions too.
        let root = CLI.packageRoot.appendingPathComponent("fixtures")
        let logs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("player-logs").path)
        let fixtures =
            (try FileManager.default.contentsOfDirectory(atPath: root.path) + logs.map { "player-logs/" + $0 })
            .filter {
                $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") || $0.hasSuffix(".csv") || $0.hasPrefix("player-logs/")
            }
            // Pre-call network statistics are not playbacks: left out, and said so once each.
            .filter { !$0.hasPrefix("precall-") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        XCTAssertTrue(html.contains("<h2 id=\"overview-h\">Overview: \(fixtures.count) sessions</h2>"))
        XCTAssertFalse(html.contains("precall-"), "no pre-call session")
        for precall in ["precall-audio-only.json", "precall-good.json"] {
            XCTAssertEqual(
                result.stderr.components(separatedBy: "fixtures/\(precall): pre-call network statistics").count - 1, 1,
                result.stderr)
        }
        for (n, name) in fixtures.enumerated() {
            XCTAssertTrue(html.contains("<section class=\"session\" id=\"s\(n + 1)\""), name)
            XCTAssertTrue(html.contains("<td class=\"name\"><a href=\"#s\(n + 1)\">fixtures/\(name)</a></td>"), name)
        }
        XCTAssertTrue(html.contains("id=\"hist-startup\"") && html.contains("id=\"hist-rebuffer\""))
        // Run twice: the same bytes.
        let (_, again) = try report(["fixtures"])
        XCTAssertEqual(html, again)
    }

    func testAnEventLogOnStdinGivesTheSameTimeline() throws {
        let log = try CLI.run(["run", "fixtures/avplayer-session.json"]).stdout
        let (fromLog, logHTML) = try report(["-"], stdin: log)
        XCTAssertEqual(fromLog.status, 0, fromLog.stderr)
        let (_, timelineHTML) = try report(["fixtures/avplayer-session.json"])
        // The trackers' lanes are the same; the KPIs and states come from the log's events for one
        // and from the trackers for the other (`kpi`'s numbers), so only what comes from the
        // records is compared: the tracker and metrics lanes (the rest of the timeline after the
        // playback lanes) and the data island.
        func timelinePart(_ html: String) -> String {
            guard let from = html.range(of: "<g class=\"lane tracker\""),
                let to = html.range(of: "</svg>", range: from.upperBound..<html.endIndex),
                let data = html.range(of: "<script type=\"application/json\""),
                let dataEnd = html.range(of: "</script>", range: data.upperBound..<html.endIndex)
            else { return html }
            return String(html[from.lowerBound..<to.lowerBound] + html[data.lowerBound..<dataEnd.lowerBound])
        }
        XCTAssertEqual(
            timelinePart(logHTML.replacingOccurrences(of: "&lt;stdin&gt;", with: "fixtures/avplayer-session.json")),
            timelinePart(timelineHTML))
        let kpi = try CLI.run(["kpi", "fixtures/avplayer-session.json", "--format", "json"]).stdout
        XCTAssertTrue(kpi.contains(#""pauseTime":8500"#), kpi)
        XCTAssertTrue(timelineHTML.contains("<dt>Pause time</dt><dd>8.5 s</dd>"))
    }

    func testBadInputExitsTwoWithALocatedMessage() throws {
        let missing = try CLI.run(["report", "no-such-file.json", "-o", "-"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no-such-file.json"), missing.stderr)
        let broken = try CLI.run(
            ["report", "-", "-o", "-"], stdin: "{\"trackers\": [{\"name\": \"c\"}], \"steps\": [{\"t\": \"x\"}]}")
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderr.contains("<stdin>:1:"), broken.stderr)
        XCTAssertEqual(broken.stdout, "", "no partial report")
        let badLog = try CLI.run(["report", "--from-events", "-", "-o", "-"], stdin: "{\"type\":\"event\"}\n")
        XCTAssertEqual(badLog.status, 2)
        XCTAssertTrue(badLog.stderr.contains("<stdin>:1:1"), badLog.stderr)
        XCTAssertEqual(try CLI.run(["report", "fixtures/happy-path.json", "--worst", "-1"]).status, 2)
    }

    /// A 1 MB attribute value, changed at every step, is held in the page as an excerpt (in the
    /// event data as in the tooltips): the page stays about as large as with short values.
    func testAHugeAttributeValueGivesASmallReport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func timeline(_ size: Int) -> String {
            let steps = (0..<4).map { i in
                let value = String(repeating: "abcdefgh", count: size / 8) + "#\(i)"
                return #"{"t": \#(i * 1000), "tracker": "c", "action": "\#(i == 0 ? "Start" : "Ping")", "#
                    + #""set": {"big": "\#(value)"}}"#
            }
            return #"{"trackers": [{"name": "c"}], "steps": ["# + steps.joined(separator: ", ") + "]}"
        }
        try timeline(1 << 20).write(to: dir.appendingPathComponent("huge.json"), atomically: true, encoding: .utf8)
        try timeline(8).write(to: dir.appendingPathComponent("small.json"), atomically: true, encoding: .utf8)
        var sizes: [Int] = []
        for name in ["huge", "small"] {
            let result = try CLI.run(["report", "\(name).json", "-o", "\(name).html"], in: dir)
            XCTAssertEqual(result.status, 0, result.stderr)
            sizes.append(try Data(contentsOf: dir.appendingPathComponent("\(name).html")).count)
        }
        // Four values of 1,000 characters and their tooltips of 200, in a page otherwise the same.
        XCTAssertLessThan(sizes[0] - sizes[1], 12_000, "huge \(sizes[0]) bytes, small \(sizes[1])")
        let html = try String(contentsOf: dir.appendingPathComponent("huge.html"), encoding: .utf8)
        let excerpt = String(repeating: "abcdefgh", count: 125) + "…"
        XCTAssertTrue(html.contains("\"" + excerpt + "\""), "the event data holds an excerpt with its marker")
        // An event log may hold an array: past the limit, it is held as an excerpt of its JSON.
        let array = "[" + Array(repeating: "1234567", count: 1 << 17).joined(separator: ",") + "]"
        let log =
            #"{"type":"event","t":0,"time":"1970-01-01T00:00:00.000Z","action":"Start","tracker":"c","#
            + #""attributes":{"list":\#(array)}}"# + "\n"
        try log.write(to: dir.appendingPathComponent("log.jsonl"), atomically: true, encoding: .utf8)
        let fromLog = try CLI.run(["report", "--from-events", "log.jsonl", "-o", "log.html"], in: dir)
        XCTAssertEqual(fromLog.status, 0, fromLog.stderr)
        let logPage = try String(contentsOf: dir.appendingPathComponent("log.html"), encoding: .utf8)
        XCTAssertLessThan(logPage.utf8.count, sizes[1] + 12_000)
        XCTAssertTrue(logPage.contains("\"[1234567,1234567,"), "an excerpt of the array's JSON")
    }
}
