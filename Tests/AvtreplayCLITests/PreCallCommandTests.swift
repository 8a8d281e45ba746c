import Foundation
import XCTest

/// `avtreplay precall` end to end: the text and JSON outputs on the bundled fixtures, --require's
/// exit codes, bad input, and `run` / `kpi` on the same timelines.
final class PreCallCommandTests: XCTestCase {
    func testTextOutputOfTheGoodFixture() throws {
        let result = try CLI.run(["precall", "fixtures/precall-good.json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        // Every window: video 8 × 225000 B ÷ 3 s = 600000 bps; audio 8 × 15000 ÷ 3 = 40000 bps.
        // Video losses: 1 of 181 (0.55 %), 0 of 180, 1 of 181. The verdict reads the window at 9000.
        XCTAssertEqual(
            result.stdout,
            """
            verdict: audio-video (profile default, decided at t=10000 ms)
            video: pass  600000 bps >= 50000, loss 0.55 % <= 3 %
            audio: pass  40000 bps >= 25000, loss 0.00 % <= 5 %
            windows (each closes >= 3000 ms after the previous one):
                 t  video bps  video loss  audio bps  audio loss
              3000     600000      0.55 %      40000      0.00 %
              6000     600000      0.00 %      40000      0.00 %
              9000     600000      0.55 %      40000      0.00 %

            """)
    }

    func testJSONShape() throws {
        let result = try CLI.run(["precall", "fixtures/precall-audio-only.json", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Per window: video 8 × 45000 ÷ 3 = 120000 bps, 9 lost of 150 = 0.06; audio 8 × 12000 ÷ 3 =
        // 32000 bps, 3 lost of 150 = 0.02. Video fails its 3 %, audio passes: audio-only.
        let window =
            #"{"t":%d,"videoBandwidth":120000,"videoPacketLoss":0.06,"audioBandwidth":32000,"audioPacketLoss":0.02}"#
        let windows = [3000, 6000, 9000].map { String(format: window, $0) }.joined(separator: ",")
        XCTAssertEqual(result.stdout, #"{"verdict":"audio-only","windows":["# + windows + "]}\n")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(json.keys), ["verdict", "windows"])
        let first = try XCTUnwrap((json["windows"] as? [[String: Any]])?.first)
        XCTAssertEqual(
            Set(first.keys), ["t", "videoBandwidth", "videoPacketLoss", "audioBandwidth", "audioPacketLoss"])
    }

    func testUnknownLossIsNullInJSONUnderTheSampleProfile() throws {
        let result = try CLI.run([
            "precall", "fixtures/precall-audio-only.json", "--profile", "opentok-sample", "--format", "json",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stdout.hasPrefix(
                #"{"verdict":"audio-only","windows":[{"t":3000,"videoBandwidth":120000,"videoPacketLoss":null,"#
                    + #""audioBandwidth":32000,"audioPacketLoss":null},"#), result.stdout)
    }

    func testRequireExitCodes() throws {
        let cases: [([String], Int32)] = [
            (["fixtures/precall-good.json", "--require", "audio-video"], 0),
            (["fixtures/precall-good.json", "--require", "audio"], 0),
            (["fixtures/precall-audio-only.json", "--require", "audio"], 0),
            (["fixtures/precall-audio-only.json", "--require", "audio-video"], 1),
            // 32 kbps of audio fails a 40 kbps threshold: neither.
            (["fixtures/precall-audio-only.json", "--audio-kbps", "40", "--require", "audio"], 1),
            // The video loss of 6 % passes a 6 % threshold: audio-video.
            (["fixtures/precall-audio-only.json", "--video-loss", "6", "--require", "audio-video"], 0),
        ]
        for (arguments, status) in cases {
            let result = try CLI.run(["precall"] + arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            if status == 1 { XCTAssertTrue(result.stderr.contains("is worse than the required"), result.stderr) }
        }
    }

    func testBadInputExitsTwoWithFileAndLine() throws {
        let negative = try CLI.run(
            ["precall", "-", "--input-format", "jsonl"],
            stdin: """
                {"trackers": [{"name": "sub", "kind": "netstats"}]}
                {"t": 0, "tracker": "sub", "observe": {"videoBytesReceived": 0}}
                {"t": 3000, "tracker": "sub", "observe": {"videoBytesReceived": -5}}

                """)
        XCTAssertEqual(negative.status, 2)
        XCTAssertTrue(negative.stderr.contains("<stdin>:3:"), negative.stderr)
        XCTAssertTrue(negative.stderr.contains("videoBytesReceived"), negative.stderr)
        let noTracker = try CLI.run(["precall", "fixtures/happy-path.json"])
        XCTAssertEqual(noTracker.status, 2)
        XCTAssertTrue(
            noTracker.stderr.contains("fixtures/happy-path.json: trackers: no tracker of kind netstats"),
            noTracker.stderr)
        for flags in [["--window", "0"], ["--video-loss", "101"], ["--require", "video"], ["--profile", "vonage"]] {
            XCTAssertEqual(try CLI.run(["precall", "fixtures/precall-good.json"] + flags).status, 2, "\(flags)")
        }
        XCTAssertEqual(try CLI.run(["precall", "fixtures/no-such-file.json"]).status, 2)
    }

    func testSeveralSubscribersNeedAName() throws {
        let timeline = """
            {"trackers": [{"name": "a", "kind": "netstats"}, {"name": "b", "kind": "netstats"}], "steps": [
            {"t": 0, "tracker": "b", "observe": {"audioBytesReceived": 0, "audioPacketsReceived": 0}},
            {"t": 3000, "tracker": "b", "observe": {"audioBytesReceived": 9375, "audioPacketsReceived": 100}}
            ]}
            """
        let ambiguous = try CLI.run(["precall", "-"], stdin: timeline)
        XCTAssertEqual(ambiguous.status, 2)
        XCTAssertTrue(
            ambiguous.stderr.contains(#"2 trackers of kind netstats ("a", "b"): choose one with --subscriber"#),
            ambiguous.stderr)
        // b's only window: 8 × 9375 ÷ 3 = 25000 bps of audio with 0 of 100 lost → audio-only.
        let chosen = try CLI.run(
            ["precall", "-", "--subscriber", "b", "--format", "json", "--duration", "3000"], stdin: timeline)
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        XCTAssertTrue(chosen.stdout.hasPrefix(#"{"verdict":"audio-only""#), chosen.stdout)
        XCTAssertEqual(try CLI.run(["precall", "-", "--subscriber", "c"], stdin: timeline).status, 2)
    }

    func testStepsAfterUntilAreNotRead() throws {
        let timeline = """
            {"until": 3000, "trackers": [{"name": "sub", "kind": "netstats"}], "steps": [
            {"t": 0, "tracker": "sub", "observe": {"audioBytesReceived": 0, "audioPacketsReceived": 0}},
            {"t": 3000, "tracker": "sub", "observe": {"audioBytesReceived": 9375, "audioPacketsReceived": 100}},
            {"t": 6000, "tracker": "sub", "observe": {"audioBytesReceived": 9375, "audioPacketsReceived": 100}}
            ]}
            """
        // Only the window 0…3000 (8 × 9375 ÷ 3 = 25000 bps of audio) exists; the one closing at
        // 6000 (0 bps) is after `until`.
        let result = try CLI.run(["precall", "-", "--format", "json"], stdin: timeline)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            #"{"verdict":"audio-only","windows":[{"t":3000,"videoBandwidth":0,"videoPacketLoss":null,"audioBandwidth":25000,"audioPacketLoss":0.0}]}"#
                + "\n")
    }

    func testWarnsWhenTheRecordingEndsBeforeTheTest() throws {
        let result = try CLI.run(["precall", "fixtures/precall-good.json", "--duration", "15000"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(
            result.stderr.contains("the last sample is at t=10000 ms, before the verdict at t=15000 ms"), result.stderr)
    }

    func testCSVTimelineWithTrackerFlag() throws {
        let csv = """
            t,tracker,observe.videoBytesReceived,observe.videoPacketsReceived,observe.audioBytesReceived,observe.audioPacketsReceived
            0,sub,0,0,0,0
            3000,sub,18750,100,9375,100

            """
        // 8 × 18750 ÷ 3 = 50000 bps video and 25000 bps audio, no loss: exactly at both thresholds.
        let result = try CLI.run(
            ["precall", "-", "--tracker", "sub=netstats", "--format", "json", "--duration", "3000"], stdin: csv)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            #"{"verdict":"audio-video","windows":[{"t":3000,"videoBandwidth":50000,"videoPacketLoss":0.0,"audioBandwidth":25000,"audioPacketLoss":0.0}]}"#
                + "\n")
    }

    func testConvertingToCSVKeepsEachSampleInOneRow() throws {
        // The fixture lists video keys before audio keys, against the CSV's sorted columns; a
        // player step would become several rows, a netstats sample must stay one.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("precall.csv").path
        XCTAssertEqual(try CLI.run(["convert", "fixtures/precall-good.json", csv]).status, 0)
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst(2)
        XCTAssertEqual(rows.count, 11, "one row per sample at t = 0, 1000, …, 10000")
        XCTAssertEqual(rows.first, "0,subscriber,,0,0,0,0,0,0")
        let fromCSV = try CLI.run(["precall", csv, "--format", "json"])
        XCTAssertEqual(
            fromCSV.stdout, try CLI.run(["precall", "fixtures/precall-good.json", "--format", "json"]).stdout)
    }

    func testRunShipsTheFourMetrics() throws {
        let result = try CLI.run(["run", "fixtures/precall-good.json", "--metrics-only", "--format", "influx"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 12, "4 metrics × 3 windows")
        // t=3000 is 2026-03-01T12:00:03Z = 1772366403000 ms.
        XCTAssertEqual(
            lines.prefix(4).map(String.init),
            [
                "OAVT_METRICS VideoBandwidth=600000i 1772366403000",
                "OAVT_METRICS,seq=1 VideoPacketLoss=\(1.0 / 181.0) 1772366403000",
                "OAVT_METRICS,seq=2 AudioBandwidth=40000i 1772366403000",
                "OAVT_METRICS,seq=3 AudioPacketLoss=0.0 1772366403000",
            ])
    }

    func testKPIOnANetStatsTimelineReportsNoPlayback() throws {
        let result = try CLI.run(["kpi", "fixtures/precall-good.json", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let session = try XCTUnwrap((json["sessions"] as? [[String: Any]])?.first)
        XCTAssertEqual((session["playbacks"] as? [Any])?.count, 0, "a pre-call test plays nothing")
        let totals = try XCTUnwrap(session["totals"] as? [String: Any])
        XCTAssertEqual(totals["started"] as? Int, 0)
        XCTAssertEqual(totals["errorCount"] as? Int, 0)
    }

    func testOutputIsDeterministic() throws {
        let first = try CLI.run(["precall", "fixtures/precall-good.json", "--profile", "opentok-sample"])
        let second = try CLI.run(["precall", "fixtures/precall-good.json", "--profile", "opentok-sample"])
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(first.stdout, second.stdout)
        XCTAssertTrue(
            first.stdout.hasPrefix("verdict: audio-video (profile opentok-sample, decided at t=10000 ms)\n"),
            first.stdout)
        XCTAssertTrue(first.stdout.contains("video: pass  600000 bps >= 150000, loss 0.55 % <= 3 %\n"), first.stdout)
    }
}
