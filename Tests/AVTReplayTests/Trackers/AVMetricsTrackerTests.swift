import AVTCore
import AVTJSON
import XCTest

@testable import AVTTimeline
@testable import AVTTrackers

/// The avmetrics tracker: one AVMetrics event per step, mapped to OpenAVT actions (README "Apple
/// AVMetrics logs"), and the checks on its values.
final class AVMetricsTrackerTests: XCTestCase {
    private typealias T = TrackerTimeline

    private func replay(_ steps: [String]) throws -> TrackerRecordingBackend {
        try T.replay(
            T.single(kind: "avmetrics", settings: #""startTime": "2026-03-01T12:00:00Z", "pingInterval": 0"#, steps))
    }

    /// An event step: `event` plus the given properties.
    private func event(_ t: Int, _ name: String, _ properties: String = "") -> String {
        T.observe(t, #""event": "\#(name)""# + (properties.isEmpty ? "" : ", " + properties))
    }

    private func error(_ members: String, file: StaticString = #filePath, line: UInt = #line) -> TimelineError? {
        T.decodeError(T.single(kind: "avmetrics", [T.observe(0, members)]), file: file, line: line)
    }

    private let v720 =
        #"{"peakBitRate": 3500000, "averageBitRate": 3000000, "videoAttributes": {"presentationSize": {"width": 1280, "height": 720}}}"#
    private let v480 =
        #"{"peakBitRate": 1400000, "averageBitRate": 1200000, "presentationSize": {"width": 854, "height": 480}}"#

    // MARK: Mapping

    func testPlaylistRequestsLoadTheManifestThenTheStream() throws {
        let out = try replay([
            event(
                180, "AVMetricHLSPlaylistRequestEvent",
                #""isMultivariantPlaylist": true, "url": "https://x/master.m3u8""#),
            event(390, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false, "mediaType": "audio""#),
            // blocked
            event(420, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false, "mediaType": "video""#),
            event(500, "AVMetricHLSMediaSegmentRequestEvent", #""url": "https://x/seg1.mp4""#),  // nothing
            event(600, "AVMetricContentKeyRequestEvent", #""contentKeySpecifier": "skd://k""#),  // nothing
            event(1200, "AVMetricPlayerItemInitialLikelyToKeepUpEvent", #""timeTaken": 1.2, "variant": \#(v720)"#),
        ])
        XCTAssertEqual(out.trace, ["0 TrackerInit", "180 ManifestLoad", "390 StreamLoad", "1200 Start"])
        let start = try XCTUnwrap(out.event(.start))
        // StartTime from the first (accepted) StreamLoad: 1200 − 390 = 810.
        XCTAssertEqual(start[Attribute("timeSinceStreamLoad")], .int(810))
        // The variant's average bitrate (bps) and presentation size (from videoAttributes).
        XCTAssertEqual(start[.bitrate], .int(3_000_000))
        XCTAssertEqual(start[.resolutionWidth], .int(1280))
        XCTAssertEqual(start[.resolutionHeight], .int(720))
        XCTAssertEqual(start[.trackerTarget], .string("AVMetrics"))
    }

    func testStallThenLikelyToKeepUpIsABufferAndALikelyToKeepUpAloneIsBlocked() throws {
        let out = try replay([
            event(0, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false"#),
            event(1000, "AVMetricPlayerItemInitialLikelyToKeepUpEvent", #""timeTaken": 1.0, "mediaTime": 0"#),
            event(5000, "AVMetricPlayerItemLikelyToKeepUpEvent", #""timeTaken": 0.1"#),  // BufferFinish: blocked
            event(20000, "AVMetricPlayerItemStallEvent", #""rate": 1, "previousRate": 1, "mediaTime": 19.0"#),
            event(21500, "AVMetricPlayerItemLikelyToKeepUpEvent", #""timeTaken": 1.5"#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 StreamLoad", "1000 Start", "20000 BufferBegin", "21500 BufferFinish"])
        XCTAssertEqual(out.event(.bufferFinish)?[Attribute("timeSinceBufferBegin")], .int(1500))
        // The playhead: 0 s at Start (1000), 1× until the stall at 20000 → 19000 ms, then still.
        XCTAssertEqual(out.event(.bufferBegin)?[.position], .int(19000))
        XCTAssertEqual(out.event(.bufferFinish)?[.position], .int(19000))
    }

    func testRateChangesPauseAndResumeOnlyAcrossZero() throws {
        let out = try replay([
            event(0, "AVMetricPlayerItemRateChangeEvent", #""rate": 1, "previousRate": 0"#),  // before Start: blocked
            event(10, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false"#),
            event(1000, "AVMetricPlayerItemInitialLikelyToKeepUpEvent", #""timeTaken": 1"#),
            event(2000, "AVMetricPlayerItemRateChangeEvent", #""rate": 2, "previousRate": 1"#),  // nothing
            event(3000, "AVMetricPlayerItemRateChangeEvent", #""rate": 0, "previousRate": 2"#),
            event(3500, "AVMetricPlayerItemRateChangeEvent", #""rate": 0, "previousRate": 0"#),  // nothing
            event(4000, "AVMetricPlayerItemRateChangeEvent", #""rate": 1, "previousRate": 0"#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "10 StreamLoad", "1000 Start", "3000 PauseBegin", "4000 PauseFinish"])
        XCTAssertEqual(out.event(.pauseFinish)?[Attribute("timeSincePauseBegin")], .int(1000))
    }

    func testSeekAndSeekDidComplete() throws {
        let out = try replay([
            event(0, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false"#),
            event(1000, "AVMetricPlayerItemInitialLikelyToKeepUpEvent", #""timeTaken": 1"#),
            event(30000, "AVMetricPlayerItemSeekEvent", #""mediaTime": 29.0, "rate": 1, "previousRate": 1"#),
            event(30400, "AVMetricPlayerItemSeekDidCompleteEvent", #""mediaTime": 120.0, "didSeekInBuffer": false"#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 StreamLoad", "1000 Start", "30000 SeekBegin", "30400 SeekFinish"])
        XCTAssertEqual(out.event(.seekFinish)?[Attribute("timeSinceSeekBegin")], .int(400))
        XCTAssertEqual(out.event(.seekFinish)?[.position], .int(120_000))
    }

    func testVariantSwitchesCompareAverageBitratesAndFailedOnesChangeNothing() throws {
        let out = try replay([
            event(0, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false"#),
            event(1000, "AVMetricPlayerItemInitialLikelyToKeepUpEvent", #""timeTaken": 1, "variant": \#(v720)"#),
            event(
                2000, "AVMetricPlayerItemVariantSwitchStartEvent", #""fromVariant": \#(v720), "toVariant": \#(v480)"#),
            event(
                3000, "AVMetricPlayerItemVariantSwitchEvent",
                #""fromVariant": \#(v720), "toVariant": \#(v480), "didSucceed": true"#),
            event(
                4000, "AVMetricPlayerItemVariantSwitchEvent",
                #""fromVariant": \#(v480), "toVariant": \#(v720), "didSucceed": false"#),
            event(
                5000, "AVMetricPlayerItemVariantSwitchEvent",
                #""fromVariant": \#(v480), "toVariant": \#(v720), "didSucceed": true"#),
            // Only peak bitrates on one side: compared by peak (2 Mbps < 3.5 Mbps).
            event(
                6000, "AVMetricPlayerItemVariantSwitchEvent",
                #""fromVariant": \#(v720), "toVariant": {"peakBitRate": 2000000}, "didSucceed": true"#),
        ])
        XCTAssertEqual(
            out.trace,
            [
                "0 TrackerInit", "0 StreamLoad", "1000 Start", "3000 QualityChangeDown", "5000 QualityChangeUp",
                "6000 QualityChangeDown",
            ])
        let down = try XCTUnwrap(out.events(.qualityChangeDown).first)
        XCTAssertEqual(down[.bitrate], .int(1_200_000))
        XCTAssertEqual(down[.resolutionHeight], .int(480))
        let up = try XCTUnwrap(out.event(.qualityChangeUp))
        XCTAssertEqual(up[.bitrate], .int(3_000_000))
        // The last variant has a peak only: that is the bitrate reported; no size known.
        let last = try XCTUnwrap(out.events(.qualityChangeDown).last)
        XCTAssertEqual(last[.bitrate], .int(2_000_000))
        XCTAssertNil(last[.resolutionHeight])
    }

    func testOnlyUnrecoveredErrorsEmitErrorAndTheSummaryEnds() throws {
        let out = try replay([
            event(0, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false"#),
            event(1000, "AVMetricPlayerItemInitialLikelyToKeepUpEvent", #""timeTaken": 1"#),
            event(
                2000, "AVMetricErrorEvent",
                #""didRecover": true, "error": {"domain": "CoreMediaErrorDomain", "code": -12938}"#),
            event(
                3000, "AVMetricErrorEvent",
                #""didRecover": false, "error": {"domain": "CoreMediaErrorDomain", "code": -12642, "localizedDescription": "Playlist parse error"}"#
            ),
            event(
                4000, "AVMetricErrorEvent",
                #""didRecover": false, "error": {"domain": "NSURLErrorDomain", "code": -1009}"#),
            event(
                9000, "AVMetricPlayerItemPlaybackSummaryEvent", #""stallCount": 0, "timeSpentInInitialStartup": 1.0"#),
        ])
        XCTAssertEqual(
            out.trace, ["0 TrackerInit", "0 StreamLoad", "1000 Start", "3000 Error", "4000 Error", "9000 End"])
        let errors = out.events(.error)
        XCTAssertEqual(errors[0][.errorDescription], .string("Playlist parse error"))
        XCTAssertEqual(errors[0][Attribute("errorCode")], .int(-12642))
        // Without a description: "domain code".
        XCTAssertEqual(errors[1][.errorDescription], .string("NSURLErrorDomain -1009"))
    }

    func testTheOrderOfTheKeysDoesNotMatter() throws {
        let a = try replay([
            event(0, "AVMetricHLSPlaylistRequestEvent", #""isMultivariantPlaylist": false"#),
            event(1000, "AVMetricPlayerItemInitialLikelyToKeepUpEvent", #""timeTaken": 1, "variant": \#(v720)"#),
        ])
        let b = try replay([
            T.observe(0, #""isMultivariantPlaylist": false, "event": "AVMetricHLSPlaylistRequestEvent""#),
            T.observe(
                1000, #""variant": \#(v720), "timeTaken": 1, "event": "AVMetricPlayerItemInitialLikelyToKeepUpEvent""#),
        ])
        XCTAssertEqual(a.trace, b.trace)
        XCTAssertEqual(a.event(.start)?[.bitrate], b.event(.start)?[.bitrate])
    }

    // MARK: Validation

    func testAnUnknownEventClassListsTheClasses() throws {
        let error = try XCTUnwrap(self.error(#""event": "AVMetricPlayerItemStalledEvent""#))
        XCTAssertEqual(error.path, "steps[0].observe.event")
        XCTAssertTrue(error.message.hasPrefix("expected \"AVMetricHLSPlaylistRequestEvent\" | "), error.message)
        XCTAssertTrue(error.message.hasSuffix("found \"AVMetricPlayerItemStalledEvent\""), error.message)
    }

    func testAPropertyOfAnotherClassIsAnErrorListingTheClassProperties() throws {
        let error = try XCTUnwrap(self.error(#""event": "AVMetricPlayerItemStallEvent", "timeTaken": 1.5"#))
        XCTAssertEqual(error.path, "steps[0].observe.timeTaken")
        XCTAssertEqual(
            error.message,
            "\"timeTaken\" is not a property of AVMetricPlayerItemStallEvent: expected one of: date, mediaTime, sessionID, rate, previousRate, variant"
        )
        // Columns: 43 of step prefix + 54 of members before `1.5` + 1 = 98.
        XCTAssertEqual(error.location, SourceLocation(line: 2, column: 98))
    }

    func testMissingEventAndRequiredPropertiesAreErrors() throws {
        let noEvent = try XCTUnwrap(self.error(#""rate": 1"#))
        XCTAssertEqual(noEvent.path, "steps[0].observe")
        XCTAssertTrue(noEvent.message.hasPrefix("an avmetrics observation needs \"event\""), noEvent.message)
        let noRecover = try XCTUnwrap(self.error(#""event": "AVMetricErrorEvent""#))
        XCTAssertEqual(noRecover.path, "steps[0].observe.event")
        XCTAssertEqual(noRecover.message, "AVMetricErrorEvent needs \"didRecover\"")
    }

    func testNestedValuesAreCheckedAtTheirPath() throws {
        let cases: [(members: String, path: String, message: String)] = [
            (
                #""event": "AVMetricPlayerItemVariantSwitchEvent", "didSucceed": true, "fromVariant": {"peakBitRate": "5M"}, "toVariant": {}"#,
                "steps[0].observe.fromVariant.peakBitRate", "expected a number ≥ 0, found \"5M\""
            ),
            (
                #""event": "AVMetricPlayerItemLikelyToKeepUpEvent", "timeTaken": -0.5"#,
                "steps[0].observe.timeTaken", "expected a number ≥ 0, found -0.5"
            ),
            (
                #""event": "AVMetricPlayerItemStallEvent", "date": "yesterday""#,
                "steps[0].observe.date",
                "expected an ISO-8601 date such as \"2026-03-01T12:00:03.250Z\", found \"yesterday\""
            ),
            (
                #""event": "AVMetricPlayerItemInitialLikelyToKeepUpEvent", "timeTaken": 1, "playlistRequestEvents": [{"url": "a", "isMultivariantPlaylist": true}, {"isMultivariantPlaylist": false, "url": 7}]"#,
                "steps[0].observe.playlistRequestEvents[1].url", "expected a string, found 7"
            ),
            (
                #""event": "AVMetricHLSMediaSegmentRequestEvent", "mediaResourceRequestEvent": {"requestStartTime": "2026-03-01T12:00:00Z", "readFromCache": true}"#,
                "steps[0].observe.mediaResourceRequestEvent",
                "expected one of: event, date, mediaTime, sessionID, url, serverAddress, requestStartTime, requestEndTime, responseStartTime, responseEndTime, byteRange, wasReadFromCache, errorEvent, networkTransactionMetrics, found unknown member \"readFromCache\""
            ),
            (
                #""event": "AVMetricHLSMediaSegmentRequestEvent", "byteRange": {"location": 0}"#,
                "steps[0].observe.byteRange", "expected a member \"length\", found an object without it"
            ),
            (
                #""event": "AVMetricHLSPlaylistRequestEvent", "isMultivariantPlaylist": true, "mediaResourceRequestEvent": {"event": "AVMetricErrorEvent"}"#,
                "steps[0].observe.mediaResourceRequestEvent.event",
                "expected \"AVMetricMediaResourceRequestEvent\", found \"AVMetricErrorEvent\""
            ),
            (
                #""event": "AVMetricMediaResourceRequestEvent", "networkTransactionMetrics": {"transactionMetrics": [{"response": {"statusCode": 4}}]}"#,
                "steps[0].observe.networkTransactionMetrics.transactionMetrics[0].response.statusCode",
                "expected an integer ≥ 100, found 4"
            ),
        ]
        for (members, path, message) in cases {
            let error = try XCTUnwrap(self.error(members), members)
            XCTAssertEqual(error.path, path, members)
            XCTAssertEqual(error.message, message, members)
            XCTAssertEqual(error.location?.line, 2, members)
        }
    }

    func testNestedErrorsPointAtTheNestedValue() throws {
        let error = try XCTUnwrap(
            self.error(#""event": "AVMetricPlayerItemVariantSwitchStartEvent", "toVariant": {"averageBitRate": true}"#))
        // `{"t": 0, "tracker": "content", "observe": {` is 43 columns; `true` is 86 characters
        // into the members: column 43 + 86 + 1 = 130 of line 2.
        XCTAssertEqual(error.location, SourceLocation(line: 2, column: 130))
        XCTAssertEqual(
            error.description,
            "t.json:2:130: steps[0].observe.toVariant.averageBitRate: expected a number ≥ 0, found true")
    }

    func testCSVCellsAreCheckedTheSameWay() throws {
        let csv = """
            #avtreplay {"trackers": [{"name": "content", "kind": "avmetrics"}]}
            t,tracker,observe.event,observe.timeTaken
            0,content,AVMetricPlayerItemStallEvent,1.5
            """
        do {
            var reader = try CSVTimelineReader(ByteInput(bytes: Array(csv.utf8), name: "s.csv"), trackers: [])
            _ = try reader.nextStep()
            XCTFail("read a stall with a timeTaken")
        } catch {
            XCTAssertEqual(
                error.description,
                "s.csv:3:40: field \"observe.timeTaken\": \"timeTaken\" is not a property of AVMetricPlayerItemStallEvent: expected one of: date, mediaTime, sessionID, rate, previousRate, variant"
            )
        }
    }
    /// The JSONL fast path (JSONLStepScanner) sorts and checks an event step as the general path
    /// does, and leaves a wrong one to the general path's error.
    func testJSONLFastPathAgreesWithTheGeneralPath() throws {
        let trackers = [TrackerSpec(name: "content", kind: .avmetrics)]
        func both(_ line: String) -> (fast: Step?, general: Result<Step, TimelineError>) {
            var scanner = JSONLStepScanner(trackers: trackers)
            var bytes = Array(line.utf8)
            let fast = bytes.withUnsafeMutableBufferPointer {
                scanner.step(UnsafeBufferPointer($0), line: 2, index: 0, previousT: nil)
            }
            var reader = StepReader(trackers: trackers, reader: FieldReader(file: "t.jsonl"))
            let node = try! JSONParser.parse(bytes, firstLine: 2)
            return (fast, Result { () throws(TimelineError) in try reader.step(node, index: 0) })
        }
        let good = both(
            #"{"t": 5, "tracker": "content", "observe": {"rate": 0, "previousRate": 1, "event": "AVMetricPlayerItemRateChangeEvent"}}"#
        )
        let fast = try XCTUnwrap(good.fast)
        XCTAssertEqual(fast.observe.map(\.key), ["event", "previousRate", "rate"])
        XCTAssertEqual(fast, try good.general.get())
        let bad = both(
            #"{"t": 5, "tracker": "content", "observe": {"event": "AVMetricPlayerItemStallEvent", "timeTaken": 1}}"#)
        XCTAssertNil(bad.fast)
        XCTAssertThrowsError(try bad.general.get())
    }
}
