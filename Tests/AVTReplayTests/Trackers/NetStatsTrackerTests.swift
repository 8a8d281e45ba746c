import AVTCore
import XCTest

@testable import AVTTrackers

/// The netstats tracker in a replay: one NetStatsWindow event per window, and the four window
/// metrics from NetStatsMetricalc before it.
final class NetStatsTrackerTests: XCTestCase {
    private typealias T = TrackerTimeline

    private func sample(_ t: Int, video: (Int, Int, Int), audio: (Int, Int, Int)) -> String {
        T.observe(
            t,
            #""videoBytesReceived": \#(video.0), "videoPacketsReceived": \#(video.1), "videoPacketsLost": \#(video.2), "#
                + #""audioBytesReceived": \#(audio.0), "audioPacketsReceived": \#(audio.1), "audioPacketsLost": \#(audio.2)"#
        )
    }

    func testEachWindowBecomesFourMetricsAndAnEvent() throws {
        let backend = try T.replay(
            T.single(
                kind: "netstats",
                [
                    sample(0, video: (0, 0, 0), audio: (0, 0, 0)),
                    sample(1000, video: (20_000, 40, 0), audio: (3000, 30, 0)),
                    sample(3000, video: (56_250, 97, 3), audio: (9375, 100, 0)),
                    sample(5000, video: (60_000, 97, 3), audio: (9375, 100, 0)),
                    sample(6000, video: (60_000, 97, 3), audio: (9375, 100, 0)),
                ]))
        XCTAssertEqual(backend.trace, ["0 TrackerInit", "3000 NetStatsWindow", "6000 NetStatsWindow"])
        // Window 0…3000: video 8 × 56250 ÷ 3 = 150000 bps, loss 3 ÷ (3 + 97) = 0.03; audio 8 × 9375 ÷ 3
        // = 25000 bps, 0 of 100 lost. Window 3000…6000: video 8 × 3750 ÷ 3 = 10000 bps, no packets
        // (loss unknown: no metric); audio no bytes and no packets.
        XCTAssertEqual(
            backend.metricTrace,
            [
                "3000 VideoBandwidth=150000", "3000 VideoPacketLoss=0.03", "3000 AudioBandwidth=25000",
                "3000 AudioPacketLoss=0.0",
                "6000 VideoBandwidth=10000", "6000 AudioBandwidth=0",
            ])
        XCTAssertEqual(backend.metrics.map(\.kind), Array(repeating: .gauge, count: 6))
        let event = try XCTUnwrap(backend.events(NetStatsTracker.windowAction).first)
        XCTAssertEqual(event[NetStatsTracker.videoBandwidth], .int(150_000))
        XCTAssertEqual(event[NetStatsTracker.videoPacketLoss], .double(0.03))
        XCTAssertEqual(event[NetStatsTracker.audioBandwidth], .int(25_000))
        XCTAssertEqual(event[NetStatsTracker.audioPacketLoss], .double(0))
        let second = try XCTUnwrap(backend.events(NetStatsTracker.windowAction).last)
        XCTAssertNil(second[NetStatsTracker.videoPacketLoss])
        XCTAssertEqual(second[Attribute("timeSinceNetStatsWindow")], .int(3000))
    }

    func testAStepIsOneSampleAndOmittedKeysKeepTheirValues() throws {
        let backend = try T.replay(
            T.single(
                kind: "netstats",
                [
                    sample(0, video: (1000, 10, 0), audio: (500, 5, 0)),
                    // Only video keys: audio stays at 500 B / 5 packets, so audio measures 0 in this window.
                    T.observe(3000, #""videoBytesReceived": 4000, "videoPacketsReceived": 20"#),
                ]))
        // Video 8 × 3000 ÷ 3 = 8000 bps, 0 lost of 10; audio 0 bps and no packets.
        XCTAssertEqual(
            backend.metricTrace,
            [
                "3000 VideoBandwidth=8000", "3000 VideoPacketLoss=0.0", "3000 AudioBandwidth=0",
            ])
    }

    func testCountersGoingBackwardsRestartTheWindow() throws {
        let backend = try T.replay(
            T.single(
                kind: "netstats",
                [
                    sample(0, video: (0, 0, 0), audio: (0, 0, 0)),
                    sample(2000, video: (90_000, 100, 0), audio: (9000, 50, 0)),
                    sample(2500, video: (1000, 2, 0), audio: (100, 1, 0)),  // restart
                    sample(3000, video: (2000, 4, 0), audio: (200, 2, 0)),  // only 500 ms since 2500
                    sample(5500, video: (19_750, 24, 1), audio: (9475, 101, 0)),
                ]))
        // Window 2500…5500: video 8 × 18750 ÷ 3 = 50000 bps, 1 lost of 23; audio 8 × 9375 ÷ 3 = 25000.
        XCTAssertEqual(
            backend.metricTrace,
            [
                "5500 VideoBandwidth=50000", "5500 VideoPacketLoss=\(1.0 / 23.0)", "5500 AudioBandwidth=25000",
                "5500 AudioPacketLoss=0.0",
            ])
    }

    func testMetricsOffMeansEventsOnly() throws {
        let backend = try T.replay(
            T.single(
                kind: "netstats", settings: #""metrics": false"#,
                [
                    sample(0, video: (0, 0, 0), audio: (0, 0, 0)),
                    sample(3000, video: (3000, 3, 0), audio: (0, 0, 0)),
                ]))
        XCTAssertEqual(backend.trace, ["0 TrackerInit", "3000 NetStatsWindow"])
        XCTAssertEqual(backend.metrics, [])
    }

    func testAScriptedNetStatsWindowFromAnotherTrackerMakesNoMetrics() throws {
        let timeline = #"""
            {"trackers": [{"name": "content"}], "steps": [
            {"t": 0, "tracker": "content", "action": "NetStatsWindow", "attributes": {"videoBandwidth": 1}}
            ]}
            """#
        let backend = try T.replay(timeline)
        XCTAssertEqual(backend.trace, ["0 NetStatsWindow"])
        XCTAssertEqual(backend.metrics, [])
    }

    func testCountersMustBeNonNegativeIntegers() throws {
        let negative = T.decodeError(T.single(kind: "netstats", [T.observe(0, #""videoBytesReceived": -1"#)]))
        XCTAssertEqual(negative?.path, "steps[0].observe.videoBytesReceived")
        XCTAssertTrue(negative?.message.contains("an integer ≥ 0") == true, negative?.description ?? "")
        XCTAssertNotNil(negative?.location, "the error names the line")
        let fraction = T.decodeError(T.single(kind: "netstats", [T.observe(0, #""audioPacketsLost": 1.5"#)]))
        XCTAssertEqual(fraction?.path, "steps[0].observe.audioPacketsLost")
        let unknown = T.decodeError(T.single(kind: "netstats", [T.observe(0, #""timestamp": 1000"#)]))
        XCTAssertTrue(
            unknown?.message.contains("unknown observation \"timestamp\" for a netstats tracker") == true,
            unknown?.description ?? "")
    }
}
