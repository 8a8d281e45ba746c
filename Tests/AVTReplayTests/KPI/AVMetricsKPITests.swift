import AVTCore
import AVTJSON
import Foundation
import XCTest

@testable import AVTAnalysis
@testable import AVTKPI
@testable import AVTOutput
@testable import AVTReplay
@testable import AVTTimeline
@testable import AVTTrackers

/// The AVMetrics log reader, the startup breakdown, the request findings and the cross-check with
/// the playback summary, pinned to hand-worked values.
final class AVMetricsKPITests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures")

    private func log(_ text: String, name: String = "log.jsonl") throws -> AVMetricsLogReader {
        try AVMetricsLogReader(ByteInput(bytes: Array(text.utf8), name: name))
    }

    private func steps(_ source: inout some TimelineSource) throws -> [Step] {
        var steps: [Step] = []
        while let step = try source.nextStep() { steps.append(step) }
        return steps
    }

    private func logError(_ text: String) -> String {
        do {
            var reader = try log(text)
            _ = try steps(&reader)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    // MARK: The log reader

    func testLogDatesBecomeMillisecondsSinceTheFirstEvent() throws {
        var reader = try log(
            """
            {"event": "AVMetricPlayerItemRateChangeEvent", "date": "2026-03-01T12:00:03.250Z", "rate": 1, "previousRate": 0}\r

               \t
            {"event": "AVMetricPlayerItemStallEvent", "date": "2026-03-01T12:00:03.500Z", "mediaTime": 12.5}
            {"date": "2026-03-01T13:00:05+01:00", "event": "AVMetricPlayerItemLikelyToKeepUpEvent", "timeTaken": 1.5}
            """)
        // startTime = 12:00:03.250 = 1772366400000 + 3250 ms.
        XCTAssertEqual(reader.settings.startTime, 1_772_366_403_250)
        XCTAssertEqual(reader.settings.trackers, [TrackerSpec(name: "content", kind: .avmetrics)])
        let steps = try steps(&reader)
        // 03.500 − 03.250 = 250; 13:00:05+01:00 = 12:00:05.000Z − 03.250 = 1750.
        XCTAssertEqual(steps.map(\.t), [0, 250, 1750])
        XCTAssertEqual(steps.map(\.origin.location?.line), [1, 4, 5])
        XCTAssertEqual(steps.map(\.origin.index), [0, 1, 2])
        // Keys sorted; the event class kept.
        XCTAssertEqual(steps[2].observe.map(\.key), ["date", "event", "timeTaken"])
    }

    func testBadLinesNameFileLineAndWhat() {
        let first = #"{"event": "AVMetricPlayerItemStallEvent", "date": "2026-03-01T12:00:03.250Z"}"#
        XCTAssertEqual(
            logError(first + "\n" + #"{"event": "AVMetricPlayerItemStallEvent", "date": "2026-03-01T12:00:03.000Z"}"#),
            "log.jsonl:2:51: date: 2026-03-01T12:00:03.000Z is earlier than the previous event's 2026-03-01T12:00:03.250Z: events must be in date order"
        )
        XCTAssertEqual(
            logError(first + "\n" + #"{"event": "AVMetricPlayerItemStallEvent", "mediaTime": 1}"#),
            "log.jsonl:2:1: missing \"date\": every event of an AVMetrics log needs its ISO-8601 date, such as \"2026-03-01T12:00:03.250Z\""
        )
        XCTAssertEqual(
            logError(
                first + "\n"
                    + #"{"event": "AVMetricPlayerItemStallEvent", "date": "2026-03-01T12:00:04Z", "stalls": 1}"#
            ).prefix(66),
            "log.jsonl:2:85: unknown AVMetrics property \"stalls\": expected one ")
        XCTAssertEqual(
            logError(
                first + "\n"
                    + #"{"event": "AVMetricPlayerItemVariantSwitchEvent", "date": "2026-03-01T12:00:04Z", "didSucceed": true, "fromVariant": {}, "toVariant": {"presentationSize": {"width": 1}}}"#
            ),
            "log.jsonl:2:156: toVariant.presentationSize: expected a member \"height\", found an object without it")
        XCTAssertEqual(logError(first + "\nnot json\n").prefix(12), "log.jsonl:2:")
        XCTAssertEqual(
            logError("[1]"),
            "log.jsonl:1:1: expected an AVMetrics event object such as {\"event\": \"AVMetricPlayerItemStallEvent\", \"date\": …}, found an array"
        )
        XCTAssertTrue(logError("\n\n").hasPrefix("log.jsonl: empty AVMetrics log"))
    }

    func testFormatDetection() throws {
        let event = Array(#"{"event": "AVMetricPlayerItemStallEvent", "date": "2026-03-01T12:00:03Z"}"#.utf8)
        XCTAssertEqual(TimelineFormat.sniff(event), .avmetrics)
        XCTAssertEqual(TimelineFormat.sniff(Array(#"{"trackers": [{"name": "c"}]}"#.utf8)), .jsonl)
        XCTAssertEqual(TimelineFormat.sniff(Array(#"{"event": "playing"}"#.utf8)), .jsonl)
        // A .jsonl path holding a log is read as one.
        let source = try TimelineReader.open(Self.fixtures.appendingPathComponent("avmetrics-log.jsonl").path)
        XCTAssertTrue(source is AVMetricsLogReader)
    }

    func testTheLogAndTheTimelineFixtureAreTheSameSession() throws {
        var fromLog = try TimelineReader.open(Self.fixtures.appendingPathComponent("avmetrics-log.jsonl").path)
        var fromTimeline = try TimelineReader.open(Self.fixtures.appendingPathComponent("avmetrics-session.json").path)
        XCTAssertEqual(fromLog.settings.startTime, fromTimeline.settings.startTime)
        let a = try steps(&fromLog)
        let b = try steps(&fromTimeline)
        XCTAssertEqual(a.count, 21)
        XCTAssertEqual(a.map(\.t), b.map(\.t))
        // The same events with the same properties (nested values differ only in their source
        // locations; `run` on both gives identical output, see the CLI tests).
        XCTAssertEqual(a.map { $0.observe.map(\.key) }, b.map { $0.observe.map(\.key) })
        XCTAssertEqual(
            a.map { $0.observe.first { $0.key == "event" }?.value },
            b.map { $0.observe.first { $0.key == "event" }?.value })
    }

    // MARK: Startup breakdown

    private func request(_ category: AVMetricsRequest.Category, _ start: Int?, _ end: Int?, _ url: String)
        -> AVMetricsRequest
    {
        AVMetricsRequest(category: category, url: url, start: start, end: end)
    }

    func testBreakdownCountsOverlapsOnceInPriorityOrder() {
        let breakdown = StartupBreakdown(
            start: 1000, end: 3000,
            requests: [
                request(.mediaSegment, 1600, 2400, "s1"),
                request(.mediaSegment, 2000, 2600, "s2"),
                request(.mediaSegment, 2900, 3500, "s3"),  // runs past the window: clipped to 2900–3000
                request(.playlist, 900, 1300, "a"),  // starts before the window: clipped to 1000–1300
                request(.playlist, 1200, 1500, "b"),
                request(.contentKey, 1400, 1800, "k"),
                request(.mediaSegment, 1100, nil, "no end"),  // listed, covers nothing
                request(.other, 2600, 2900, "other"),  // listed, covers nothing
            ])
        // playlist: a ∪ b = 1000–1500 = 500.
        // key: 1400–1800 minus the playlist's 1400–1500 = 1500–1800 = 300.
        // segment: s1 ∪ s2 = 1600–2600 minus the key's 1600–1800 = 800, plus s3's 2900–3000 = 100: 900.
        // other: 2600–2900 = 300. 500 + 300 + 900 + 300 = 2000 = the window.
        XCTAssertEqual(breakdown.total, 2000)
        XCTAssertEqual(breakdown.time(.playlist), 500)
        XCTAssertEqual(breakdown.time(.contentKey), 300)
        XCTAssertEqual(breakdown.time(.mediaSegment), 900)
        XCTAssertEqual(breakdown.time(.other), 300)
        XCTAssertEqual(
            breakdown.spans,
            [
                .init(part: .playlist, start: 1000, end: 1500), .init(part: .contentKey, start: 1500, end: 1800),
                .init(part: .mediaSegment, start: 1800, end: 2600), .init(part: .other, start: 2600, end: 2900),
                .init(part: .mediaSegment, start: 2900, end: 3000),
            ])
        // Requests by start time; the one without a start last.
        XCTAssertEqual(breakdown.requests.map { $0.url ?? "" }, ["a", "no end", "b", "k", "s1", "s2", "other", "s3"])
    }

    func testBreakdownWithoutRequestsIsAllOther() {
        let breakdown = StartupBreakdown(start: 0, end: 700, requests: [])
        XCTAssertEqual(breakdown.spans, [.init(part: .other, start: 0, end: 700)])
    }

    private func fixtureLog() throws -> (AVMetricsSessionLog, SessionKPIs) {
        var source = AVMetricsRecordingSource(
            try TimelineReader.open(Self.fixtures.appendingPathComponent("avmetrics-log.jsonl").path))
        let backend = KPIBackend(session: "log")
        _ = try Replayer.replay(&source, options: RunOptions(), backend: backend)
        return (try XCTUnwrap(source.log), backend.kpis)
    }

    func testTheFixtureStartupBreakdown() throws {
        let (log, _) = try fixtureLog()
        let breakdown = try XCTUnwrap(StartupBreakdown(log: log))
        // Initial likely-to-keep-up at 1200 with timeTaken 1.2 s: window 0–1200.
        // Playlists 0–180, 200–420, 210–390 → 180 + 220 = 400. Key 430–600 = 170.
        // Segments 450–520, 520–1100, 530–800 → 450–1100 minus the key's 450–600 = 500.
        // Other: 180–200, 420–430, 1100–1200 = 20 + 10 + 100 = 130.
        XCTAssertEqual([breakdown.start, breakdown.end], [0, 1200])
        XCTAssertEqual(StartupBreakdown.Part.allCases.map(breakdown.time), [400, 170, 500, 130])
        XCTAssertEqual(breakdown.requests.count, 7)
        // 7 startup requests (each seen standalone and inside the initial event, counted once) + the 404.
        XCTAssertEqual(log.requests.count, 8)
    }

    // MARK: Findings and cross-check

    func testFailedRequestsAndTheSwitchesTheyCaused() throws {
        let (log, _) = try fixtureLog()
        let failed = AVMetricsRequestFindings.failed(log)
        XCTAssertEqual(failed.count, 1)
        XCTAssertEqual(failed[0].request.httpStatus, 404)
        XCTAssertEqual(failed[0].request.errorDescription, "HTTP 404: File Not Found")
        XCTAssertEqual([failed[0].request.start, failed[0].request.end], [39500, 39800])
        // The switch started at 40000 (its start event), 200 ms after the failure ended: caused.
        XCTAssertEqual(
            failed[0].switches,
            [.init(start: 40000, end: 41000, fromBitrate: 3_000_000, toBitrate: 1_200_000, didSucceed: true)])
        // Slowest: video seg1 (520–1100 = 580), then the 404 (300), audio seg1 (270), …
        XCTAssertEqual(AVMetricsRequestFindings.slowest(log.requests).map(\.duration), [580, 300, 270, 220, 180])
    }

    func testASwitchMoreThanTenSecondsAfterAFailureIsNotCausedByIt() {
        var log = AVMetricsSessionLog(startTime: 0)
        let failed = AVMetricsRecord(
            event: AVMetricsSchema.mediaResourceRequest,
            properties: [
                "requestStartTime": .string("1970-01-01T00:00:01Z"), "responseEndTime": .string("1970-01-01T00:00:02Z"),
                "networkTransactionMetrics": .object([
                    JSONMember(
                        key: "transactionMetrics",
                        node: JSONNode(
                            .array([
                                JSONNode(
                                    .object([
                                        JSONMember(
                                            key: "response",
                                            node: JSONNode(
                                                .object([
                                                    JSONMember(
                                                        key: "statusCode",
                                                        node: JSONNode(.int(503), at: .init(line: 1, column: 1)))
                                                ]), at: .init(line: 1, column: 1)))
                                    ]), at: .init(line: 1, column: 1))
                            ]), at: .init(line: 1, column: 1)))
                ]),
            ])
        log.add(failed, t: 2000)
        let switchEvent = AVMetricsRecord(event: AVMetricsSchema.variantSwitch, properties: ["didSucceed": .bool(true)])
        log.add(switchEvent, t: 12_001)  // 2000 + 10000 < 12001: too late
        let findings = AVMetricsRequestFindings.failed(log)
        XCTAssertEqual(findings.map(\.request.httpStatus), [503])
        XCTAssertEqual(findings[0].switches, [])
    }

    func testCrossCheckFlagsDisagreements() throws {
        var log = AVMetricsSessionLog(startTime: 0)
        log.add(AVMetricsRecord(event: AVMetricsSchema.stall, properties: [:]), t: 5000)
        log.add(AVMetricsRecord(event: AVMetricsSchema.variantSwitch, properties: ["didSucceed": .bool(true)]), t: 6000)
        log.add(
            AVMetricsRecord(
                event: AVMetricsSchema.playbackSummary,
                properties: [
                    "stallCount": .int(2), "variantSwitchCount": .int(1), "timeSpentInInitialStartup": .double(1.2),
                ]),
            t: 9000)
        let totals: [KPI] = [
            KPI("startupTime", .int(1150)), KPI("rebufferCount", .int(1)), KPI("qualityUpCount", .int(0)),
            KPI("qualityDownCount", .int(1)),
        ]
        let check = AVMetricsCrossCheck(log: log, totals: totals)
        XCTAssertTrue(check.hasDisagreement)
        XCTAssertEqual(
            check.rows.map(\.name),
            [
                "stallCount", "stallCount", "variantSwitchCount", "variantSwitchCount", "timeSpentInInitialStartup",
                "timeSpentInInitialStartup", "recoverableErrorCount", "mediaResourceRequestCount",
            ])
        // 2 stalls claimed, 1 rebuffer and 1 stall event seen: both flagged. 1 switch each: fine.
        // 1.2 s = 1200 ms vs 1150: |50| ≤ 100, fine. No initial likely-to-keep-up, no recoverable
        // error count and no request count in the summary: not judged.
        XCTAssertEqual(check.rows.map(\.agrees), [false, false, true, true, true, nil, nil, nil])
        XCTAssertEqual(check.rows.map(\.summaryValue), [2, 2, 1, 1, 1200, 1200, nil, nil])
        XCTAssertEqual(check.rows.map(\.ourValue), [1, 1, 1, 1, 1150, nil, 0, 0])
    }

    func testCrossCheckTimeToleranceIsInclusiveToTheMillisecond() {
        XCTAssertEqual(AVMetricsCrossCheck.timeTolerance, 100)
        /// A summary claiming 1.25 s of startup, an initial likely-to-keep-up taking `seconds`, and
        /// our startupTime; the seconds chosen round cleanly to whole ms.
        func check(ours startupTime: Int, timeTaken seconds: Double) -> AVMetricsCrossCheck {
            var log = AVMetricsSessionLog(startTime: 0)
            log.add(
                AVMetricsRecord(
                    event: AVMetricsSchema.initialLikelyToKeepUp, properties: ["timeTaken": .double(seconds)]), t: 1200)
            log.add(
                AVMetricsRecord(
                    event: AVMetricsSchema.playbackSummary, properties: ["timeSpentInInitialStartup": .double(1.25)]),
                t: 9000)
            return AVMetricsCrossCheck(log: log, totals: [KPI("startupTime", .int(startupTime))])
        }
        func startupRows(_ check: AVMetricsCrossCheck) -> [AVMetricsCrossCheck.Row] {
            check.rows.filter { $0.name == "timeSpentInInitialStartup" }
        }
        // |1250 − 1150| = 100 = the tolerance: agrees, below or above; one ms more does not.
        for (ours, agrees) in [(1150, true), (1149, false), (1350, true), (1351, false), (1250, true)] {
            let rows = startupRows(check(ours: ours, timeTaken: 1.25))
            XCTAssertEqual(rows.map(\.summaryValue), [1250, 1250])
            XCTAssertEqual(rows.map(\.ours), ["startupTime", "initial likely-to-keep-up timeTaken"])
            XCTAssertEqual(rows[0].ourValue, ours)
            XCTAssertEqual(rows[0].agrees, agrees, "startupTime \(ours) vs 1250")
        }
        // The same edge for the likely-to-keep-up time, and it alone decides hasDisagreement.
        for (seconds, ms, agrees) in [
            (1.15, 1150, true), (1.149, 1149, false), (1.35, 1350, true), (1.351, 1351, false),
        ] {
            let judged = check(ours: 1250, timeTaken: seconds)
            let row = startupRows(judged)[1]
            XCTAssertEqual(row.ourValue, ms)
            XCTAssertEqual(row.agrees, agrees, "timeTaken \(ms) vs 1250")
            XCTAssertEqual(judged.hasDisagreement, !agrees, "timeTaken \(ms) vs 1250")
        }
        // Counts have no slack: one stall off disagrees.
        let counts = AVMetricsCrossCheck.Row(
            name: "stallCount", ours: "rebufferCount", summaryValue: 2, ourValue: 3, tolerance: 0)
        XCTAssertEqual(counts.agrees, false)
    }

    func testTheFixtureCrossCheckFlagsOnlyTheStartupMeasuredFromStreamLoad() throws {
        let (log, kpis) = try fixtureLog()
        let check = AVMetricsCrossCheck(log: log, totals: kpis.totals(definitions: .openavt))
        // Our startupTime runs from the first media playlist (StreamLoad at 390) to Start at 1200:
        // 810, 390 ms short of Apple's 1.2 s, which starts with the multivariant playlist.
        let flagged = check.rows.filter { $0.agrees == false }
        XCTAssertEqual(flagged.map(\.ours), ["startupTime"])
        XCTAssertEqual(flagged.map(\.ourValue), [810])
        XCTAssertEqual(check.rows.filter { $0.agrees == true }.count, 7)
    }
}
