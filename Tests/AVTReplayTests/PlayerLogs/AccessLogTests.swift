import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline

/// AVPlayer access logs: the coarse timeline (load, start after the first event's startup time,
/// each event's watched time, its stalls as zero-length waits, a Stop where the log ends) and
/// the session figures the log gives beyond it, by hand from Apple's field definitions
/// (AVPlayerItemAccessLogEvent: startupTime, numberOfStalls, durationWatched, indicatedBitrate,
/// observedBitrate, numberOfDroppedVideoFrames, playbackStartOffset).
final class AccessLogTests: XCTestCase {
    private typealias Support = PlayerLogTestSupport

    /// The real dumps, read from the project's shared folder beside the clone
    /// (`AVTREPLAY_SHARED_DIR`, else `../shared`), never copied.
    private static var realLogs: URL {
        let shared =
            ProcessInfo.processInfo.environment["AVTREPLAY_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? Support.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared")
        return shared.appendingPathComponent("reallogs/avplayer-accesslog")
    }

    private func realDump(_ name: String) throws -> String {
        let url = Self.realLogs.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            let message = "real access-log dumps not found at \(url.path) (set AVTREPLAY_SHARED_DIR)"
            if ProcessInfo.processInfo.environment["AVTREPLAY_REQUIRE_SHARED"] == "1" {
                XCTFail(message)
                return ""
            }
            throw XCTSkip(message)
        }
        return url.path
    }

    func testTheFixtureDeduplicatesItsDumpsAndBecomesACoarseTimeline() throws {
        let path = Support.fixture("avplayer-accesslog.log")
        let (settings, steps, warnings) = try Support.read(path)
        XCTAssertEqual(settings.trackers.map(\.kind), [.avplayer])
        // The first event's date, 2025/11/03 20:14:05, minus its startup time, 1.500 s.
        XCTAssertEqual(settings.startTime, LogcatEnvelope.daysFromCivil(2025, 11, 3) * 86_400_000 + 72_843_500)
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                "0 content status=\"readyToPlay\"",
                // c-startup-time 1.500 after the load; event 0 at c-start-time 0, 4 frames dropped,
                // 11250000 bytes at 6000000 bit/s: 15000 ms of transfer.
                "1500 content currentTime=0 observedBitrate=6000000 indicatedBitrate=2500000 droppedVideoFrames=4 "
                    + "bytesTransferred=11250000 transferDuration=15000 rate=1 timeControlStatus=\"playing\"",
                // 30.250 s watched, then its one stall.
                "31750 content timeControlStatus=\"waitingToPlayAtSpecifiedRate\"",
                "31750 content timeControlStatus=\"playing\"",
                // The error log's 20:14:36 is 31 s into event 0 (20:14:05), past its 30.250 s
                // watched: at its end.
                "31750 content errorLogEvent=\"-12938 CoreMediaErrorDomain HTTP 404: File Not Found\"",
                // Event 1 as the second dump has it: 20.000 s watched (12.000 in the first).
                // Running totals: + 2600000 bytes at 1500000 bit/s, 13866.7 → 13867 ms.
                "31750 content currentTime=30250 observedBitrate=1500000 indicatedBitrate=800000 "
                    + "bytesTransferred=13850000 transferDuration=28867",
                // It is on v360 after v720: sc-indicated-bitrate 2500000 → 800000, a switch down.
                "31750 content action=QualityChangeDown",
                // Two dateless placeholders (a seek), then event 4 at 300.000 s: a seek of no
                // known length, then the event plays; the running total of dropped frames 4 + 1.
                "51750 content timeControlStatus=\"waitingToPlayAtSpecifiedRate\" notification=\"timeJumped\"",
                // The placeholders moved no bytes; + 1950000 at 1450000 bit/s, 10758.6 → 10759 ms.
                "51750 content currentTime=300000 observedBitrate=1450000 indicatedBitrate=800000 "
                    + "droppedVideoFrames=5 bytesTransferred=15800000 transferDuration=39626 "
                    + "timeControlStatus=\"playing\"",
                "67250 content timeControlStatus=\"waitingToPlayAtSpecifiedRate\"",
                "67250 content timeControlStatus=\"playing\"",
                "67250 content timeControlStatus=\"waitingToPlayAtSpecifiedRate\"",
                "67250 content timeControlStatus=\"playing\"",
                // The log's knowledge ends: the playback stops and the player is let go.
                "67250 content action=Stop",
                "67250 content release=true",
            ])
        XCTAssertTrue(warnings[0].hasPrefix("\(path):19: 8 values for 9 #Fields (a cut line?), skipped"), warnings[0])
        XCTAssertEqual(warnings.count, 1, "\(warnings)")

        let k = try XCTUnwrap(try Support.kpis(path).first)
        // startupTime: readyToPlay (the StreamLoad, t=0) → the first frame, the first event's
        // c-startup-time (line 5: 1.500).
        XCTAssertEqual(k.int("startupTime"), 1500)
        // playTime: Σ c-duration-watched = 30250 (line 10) + 20000 (line 11) + 0 + 0 + 15500 (line 14).
        XCTAssertEqual(k.int("playTime"), 65_750)
        // rebufferCount: Σ c-stalls = 1 + 0 + 0 + 0 + 2; no durations in the log.
        XCTAssertEqual(k.int("rebufferCount"), 3)
        // bufferTime: the join (the startup, 1500) + stalls of no length.
        XCTAssertEqual(k.int("bufferTime"), 1500)
        // The dateless placeholders of lines 12–13 before line 14: one seek, of no known length.
        XCTAssertEqual(k.int("seekCount"), 1)
        XCTAssertEqual(k.int("seekTime"), 0)
        XCTAssertEqual(k.int("pauseCount"), 0)
        // Line 18's 404 (line 19 is cut): non-fatal, nothing in the log says playback failed.
        XCTAssertEqual(k.int("errorCount"), 1)
        XCTAssertEqual(k.int("nonFatalErrorCount"), 1)
        XCTAssertEqual(k[name: "playbackFailed"], .bool(false))
        // Events on v720 (line 10), then v360 (lines 11–14): one switch, down, as
        // sc-indicated-bitrate goes 2500000 → 800000; the placeholders stay on v360.
        XCTAssertEqual(k.int("qualityUpCount"), 0)
        XCTAssertEqual(k.int("qualityDownCount"), 1)
        // c-frames-dropped 4 (line 10) + 0 + 1 (line 14).
        XCTAssertEqual(k.int("droppedFrames"), 5)
        // PlaybackStats.getMeanBandwidth, bytes × 8000 / transfer ms, with each event's transfer
        // time = bytes × 8000 / c-observed-bitrate: line 10 11250000 @ 6000000 → 15000 ms,
        // line 11 2600000 @ 1500000 → 13866.7 → 13867, line 14 1950000 @ 1450000 → 10758.6 →
        // 10759; 15800000 × 8000 / 39626 = 3189824.9.
        XCTAssertEqual(k.int("meanBandwidth"), 3_189_824)
        // sc-indicated-bitrate of the first event (line 10).
        XCTAssertEqual(k.int("initialVideoBitrate"), 2_500_000)
    }

    func testTheFixtureSessionFigures() throws {
        let reader = try AccessLogReader(
            ByteInput(path: Support.fixture("avplayer-accesslog.log")), warn: { _ in })
        let session = try XCTUnwrap(reader.sessions.first)
        XCTAssertEqual(session.rows.count, 5)
        XCTAssertEqual(session.startupTime, 1500)
        XCTAssertEqual(session.stalls, 3)
        XCTAssertEqual(session.watched, 65_750)
        XCTAssertEqual(session.framesDropped, 4 + 1)
        // Event 4 follows dateless placeholders.
        XCTAssertEqual(session.seekRows, [4])
        // v720 (2500000) → v360 (800000).
        XCTAssertEqual(session.qualitySwitches.up, 0)
        XCTAssertEqual(session.qualitySwitches.down, 1)
        // (2500000 × 30250 + 800000 × 20000 + 800000 × 15500) / 65750 = 104025000000 / 65750
        // = 1582129.28.
        XCTAssertEqual(session.weightedBitrate(\.indicatedBitrate), 1_582_129)
        // (6000000 × 30250 + 1500000 × 20000 + 1450000 × 15500) / 65750 = 233975000000 / 65750
        // = 3558555.13.
        XCTAssertEqual(session.weightedBitrate(\.observedBitrate), 3_558_555)
        XCTAssertEqual(reader.errorEntries, 1)
    }

    func testTheRealDumpsOfOneSession() throws {
        // Dump 02: ten events of one session (iPadOS 26.5, the Bip Bop sample).
        let path02 = try realDump("02-ipados26-seeks-before-audio-switch.log")
        let reader = try AccessLogReader(ByteInput(path: path02), warn: { _ in })
        let s = try XCTUnwrap(reader.sessions.first)
        XCTAssertEqual(reader.sessions.count, 1)
        XCTAssertEqual(s.rows.count, 10)
        // The first event's c-startup-time 1.226.
        XCTAssertEqual(s.startupTime, 1226)
        // c-duration-watched: 0.163 + 0 + 0 + 0 + 0 + 0.011 + 0.987 + 0 + 0 + 1.301.
        XCTAssertEqual(s.watched, 2462)
        XCTAssertEqual(s.stalls, 0)
        XCTAssertEqual(s.framesDropped, 0)
        // Events 5 (15:25:08, at 471.472) and 9 (15:25:11, at 262.736) follow two dateless
        // placeholders each; event 6 goes on from where 5 left off (471.472 + 0.011).
        XCTAssertEqual(s.seekRows, [5, 9])
        // gear1 (263851) → gear3 (915905) → gear5 (1924009).
        XCTAssertEqual(s.qualitySwitches.up, 2)
        XCTAssertEqual(s.qualitySwitches.down, 0)
        // (263851 × 163 + 1924009 × (11 + 987 + 1301)) / 2462 = 4466304404 / 2462 = 1814096.0.
        XCTAssertEqual(s.weightedBitrate(\.indicatedBitrate), 1_814_096)
        // The date 2026/04/15 15:25:02.002 is 15:25:02 (the ".002" repeats the seconds), minus 1.226 s.
        XCTAssertEqual(reader.settings.startTime, LogcatEnvelope.daysFromCivil(2026, 4, 15) * 86_400_000 + 55_500_774)
        let kpis = try Support.kpis(path02)
        XCTAssertEqual(kpis.first?.int("startupTime"), 1226)
        XCTAssertEqual(kpis.first?.int("playTime"), 2462)
        XCTAssertEqual(kpis.first?.int("rebufferCount"), 0)
        // PlaybackStats.getMeanBandwidth: totalBandwidthBytes × 8000 / totalBandwidthTimeMs (long
        // division), each event's transfer time being bytes × 8000 / c-observed-bitrate, rounded:
        // 654737 @ 4057805 → 1291, 2111393 @ 8497260 → 1988, 5610808 @ 14057520 → 3193,
        // 2150541 @ 14736550 → 1167, 5639754 @ 17582697 → 2566, 31686642 @ 21551164 → 11762 (the
        // placeholders moved no bytes): 47853875 × 8000 / 21967 = 17427550.4.
        XCTAssertEqual(kpis.first?.int("meanBandwidth"), 17_427_550)
    }

    func testDumpsAreSnapshotsNotAStream() throws {
        let paths = try [
            "02-ipados26-seeks-before-audio-switch.log", "03-ipados26-after-first-audio-switch.log",
            "04-ipados26-after-second-audio-switch.log",
        ].map(realDump)
        // Printed one after the other, each without a final newline: the next header is glued to
        // the previous last event.
        let glued = try paths.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        let box = WarningBox()
        let reader = try AccessLogReader(ByteInput(bytes: Array(glued.utf8), name: "dumps"), warn: box.add)
        let s = try XCTUnwrap(reader.sessions.first)
        XCTAssertEqual(reader.sessions.count, 1)
        // 10 events, 10 again, then 11: never summed across dumps.
        XCTAssertEqual(s.rows.count, 11)
        XCTAssertEqual(s.watched, 2462)
        // Event 9 in dump 03 has a lower sc-count and bytes (Apple FB22519249: 2627609 after
        // 31686642), in dump 04 0 bytes at 0.000: bytes never go down, and the throughput kept
        // is the one measured over them (dump 02's 21551164).
        XCTAssertEqual(s.rows[9].bytes, 31_686_642)
        XCTAssertEqual(s.rows[9].observedBitrate, 21_551_164)
        // Event 10 (dump 04) is dateless: playback did not restart, no seek.
        XCTAssertNil(s.rows[10].date)
        XCTAssertEqual(s.seekRows, [5, 9])
        XCTAssertFalse(box.warnings.contains { $0.contains("#Fields") }, "\(box.warnings)")
        // Event 10 moved 9177831 bytes at 27361020 bit/s (2683.5 → 2683 ms) after the last event
        // that played: the running totals end on a step of their own before the Stop, dump 02's
        // 47853875 bytes in 21967 ms (see testTheRealDumpsOfOneSession) and these.
        var source = reader
        var steps: [Step] = []
        while let step = try source.nextStep() { steps.append(step) }
        let totals = try XCTUnwrap(steps.last { $0.observe.contains { $0.key == "bytesTransferred" } })
        XCTAssertEqual(totals.observe.map(\.key), ["bytesTransferred", "transferDuration"])
        XCTAssertEqual(totals.observe.map(\.value), [.int(57_031_706), .int(24_650)])
    }

    func testTwoSessionsGetTwoTrackersLaidEndToEnd() throws {
        let text = """
            #Fields: date time uri cs-guid c-start-time c-duration-watched c-stalls c-startup-time
            2026/01/02 10:00:05.005 a/v1.m3u8 A 0.000 10.000 0 2.000
            2026/01/02 11:00:01.001 b/v1.m3u8 B 0.000 4.000 1 0.500
            - - b/v1.m3u8 B 4.000 0.000 0 0.500
            """
        let (settings, steps, _) = try Support.read(bytes: text, format: .avplayerAccesslog)
        XCTAssertEqual(settings.trackers.map(\.name), ["content", "content-2"])
        XCTAssertEqual(
            Support.lines(steps, settings),
            [
                // Session A: loads at 0, plays after 2 s for 10 s, stops.
                "0 content status=\"readyToPlay\"",
                "2000 content currentTime=0 rate=1 timeControlStatus=\"playing\"",
                "12000 content action=Stop",
                "12000 content release=true",
                // Session B follows: loads at 12000, plays after 0.5 s for 4 s, one stall, stops.
                "12000 content-2 status=\"readyToPlay\"",
                "12500 content-2 currentTime=0 rate=1 timeControlStatus=\"playing\"",
                "16500 content-2 timeControlStatus=\"waitingToPlayAtSpecifiedRate\"",
                "16500 content-2 timeControlStatus=\"playing\"",
                "16500 content-2 action=Stop",
                "16500 content-2 release=true",
            ])
        // t = 0 is session A's load: 10:00:05 − 2 s.
        XCTAssertEqual(settings.startTime, LogcatEnvelope.daysFromCivil(2026, 1, 2) * 86_400_000 + 36_003_000)
    }

    func testDatesAndTokens() {
        // `sss` is the seconds again, zero-padded: 15:25:02.002 is 15:25:02.
        XCTAssertEqual(AccessLogRow.date("2026/04/15", "15:25:02.002"), AccessLogRow.date("2026/04/15", "15:25:02"))
        // Epoch milliseconds of the same instants read as UTC, from Python's datetime.
        XCTAssertEqual(AccessLogRow.date("2026/04/15", "15:25:02.002"), 1_776_266_702_000)
        XCTAssertEqual(AccessLogRow.date("2024/2/29", "0:00:00"), 1_709_164_800_000)
        XCTAssertEqual(AccessLogRow.date("2025/12/31", "23:59:59.059"), 1_767_225_599_000)
        XCTAssertNil(AccessLogRow.date("2026/13/15", "15:25:02.002"))
        for (day, time) in [
            ("2026/04", "15:25:02"), ("2026/04/15/1", "15:25:02"), ("12026/04/15", "15:25:02"),
            ("2026//04", "15:25:02"),
            ("2026/04/15", "15:25"), ("2026/04/15", "15:25:02:01"), ("2026/04/15", "24:00:00"), ("", ""),
            ("2026/04/1x", "15:25:02"), ("+2026/04/15", "15:25:02"), ("2026/04/15", ".002"),
        ] {
            XCTAssertNil(AccessLogRow.date(Substring(day), Substring(time)), "\(day) \(time)")
        }
        XCTAssertEqual(
            AccessLogRow.tokens("a \"HTTP 404: File Not Found\" -"), ["a", "\"HTTP 404: File Not Found\"", "-"])
    }

    func testHostileNumbersNeitherTrapNorExplode() throws {
        let fields =
            "#Fields: date time uri cs-guid c-start-time c-duration-watched c-stalls c-frames-dropped c-startup-time c-observed-bitrate"
        let row = "2026/04/15 15:25:02.002 u g 1 999999999999.999 9007199254740991 9223372036854775807 1 1e300"
        let text = ([fields] + Array(repeating: row, count: 3)).joined(separator: "\n")
        let (_, steps, warnings) = try Support.read(bytes: text, format: .avplayerAccesslog)
        // Past 2^53 − 1, or past a bitrate any link has: missing, and said.
        XCTAssertTrue(
            warnings.contains { $0.contains("c-frames-dropped \"9223372036854775807\" is no usable number") },
            "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("c-observed-bitrate \"1e300\" is no usable number") })
        // Two steps per stall, at most 100000 stalls: bounded memory whatever the counts say.
        XCTAssertLessThanOrEqual(steps.count, 2 * AccessLogTimeline.stallLimit + 10)
        XCTAssertTrue(warnings.contains { $0.contains("only the first 100000 are replayed") }, "\(warnings)")
        XCTAssertLessThanOrEqual(steps.last?.t ?? 0, FieldReader.maxMilliseconds)
    }

    /// Error log entries land within the event playing at their date, before the first event
    /// when earlier, at the end when dateless; a repeated dump repeats them without adding any.
    func testErrorLogEntriesTakeTheirPlaceOnTheCoarseTimeline() throws {
        let access = "#Fields: date time uri cs-guid c-start-time c-duration-watched c-startup-time"
        let errors = "#Fields: date time uri cs-guid status domain comment"
        let text = [
            access,
            // Plays 0–10 s from 12:00:00 (startup 1 s: t 1000–11000), then 20–30 s from 12:00:30
            // (t 11000–21000).
            "2026/01/02 12:00:00.000 u g 0 10 1",
            "2026/01/02 12:00:30.030 u g 20 10 1",
            errors,
            // 11:59:00, before any event: at the first event's start (1000).
            "2026/01/02 11:59:00.000 u g -1 \"D\" \"early\"",
            // 12:00:04: 4 s into the first event (5000).
            "2026/01/02 12:00:04.004 u g -2 \"D\" \"a\"",
            // 12:00:20: past the first event's 10 s watched: at its end (11000).
            "2026/01/02 12:00:20.020 u g -3 \"D\" \"b\"",
            // Dateless: where the log's knowledge ends (21000).
            "- - u g -4 \"D\" \"c\"",
            // The same error log dumped again: the same four entries.
            errors,
            "2026/01/02 11:59:00.000 u g -1 \"D\" \"early\"",
            "2026/01/02 12:00:04.004 u g -2 \"D\" \"a\"",
            "2026/01/02 12:00:20.020 u g -3 \"D\" \"b\"",
            "- - u g -4 \"D\" \"c\"",
        ].joined(separator: "\n")
        let (settings, steps, _) = try Support.read(bytes: text, format: .avplayerAccesslog)
        let errorLines = Support.lines(steps, settings).filter { $0.contains("errorLogEvent") }
        XCTAssertEqual(
            errorLines,
            [
                "1000 content errorLogEvent=\"-1 D early\"",
                "5000 content errorLogEvent=\"-2 D a\"",
                "11000 content errorLogEvent=\"-3 D b\"",
                "21000 content errorLogEvent=\"-4 D c\"",
            ])
        XCTAssertEqual(steps.map(\.t), steps.map(\.t).sorted(), "steps in time order")
    }

    func testManyEventsAndManyErrorsAllTakeTheirPlace() throws {
        let n = 20_000
        var lines = ["#Fields: date time uri cs-guid c-start-time c-duration-watched c-startup-time"]
        for i in 0..<n { lines.append("2026/01/02 12:00:00.000 u g \(i) 1 1") }
        lines.append("#Fields: date time uri cs-guid status domain comment")
        for _ in 0..<n { lines.append("2026/01/02 12:00:00.000 u g -1 \"D\" \"x\"") }
        // A quadratic placement would take minutes here; the time itself is scripts/bench's to
        // measure (BENCH_LOGS), not this test's to assert.
        let (_, steps, _) = try Support.read(bytes: lines.joined(separator: "\n"), format: .avplayerAccesslog)
        XCTAssertEqual(Support.count(steps, "errorLogEvent"), n)
    }

    func testNothingInTheFormatIsAnErrorNamingTheFile() {
        XCTAssertThrowsError(try Support.read(bytes: "hello\nworld\n", format: .avplayerAccesslog, name: "notes.txt")) {
            XCTAssertTrue("\($0)".hasPrefix("notes.txt: no AVPlayer access log"), "\($0)")
        }
    }
}
